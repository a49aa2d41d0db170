#pragma once
// What kind of work a call is, by its name alone: shared by the commands that
// count or highlight calls (stats, view), so they agree on what a draw is.

#include <string_view>

namespace strata::stream {

// glDraw*, glMultiDraw* and glDispatchCompute*: calls that make the GPU
// render or compute. glDrawBuffers sets state and is not one.
inline bool IsDrawCall(std::string_view name) {
  if (name.starts_with("glDrawBuffers")) return false;
  return name.starts_with("glDraw") || name.starts_with("glMultiDraw") || name.starts_with("glDispatchCompute");
}

}  // namespace strata::stream
