#pragma once
// The values of STRATA_TRACE_CAPTURE (and `strata trace --capture`, and an
// attach's capture=WHEN): one list for the tool that checks them and the
// tracer that applies them.

#include <string_view>

namespace strata::trace {

inline constexpr char kCaptureSettings[] = "swap, draw, swap,draw, final or none";

inline bool IsCaptureSetting(std::string_view value) {
  return value == "swap" || value == "draw" || value == "swap,draw" || value == "draw,swap" || value == "final" ||
         value == "none";
}

}  // namespace strata::trace
