#pragma once
// One command line of the control socket (control_server.h), parsed apart
// from acting on it: the line comes from another process, and its parse is
// fuzzed (fuzz/control_fuzz.cpp).

#include <cstdint>
#include <string>
#include <string_view>

namespace strata::trace {

// The longest command line the control socket reads.
inline constexpr size_t kMaxControlLine = 8192;

struct ControlCommand {
  enum class Kind { kAttach, kDetach, kStatus, kInvalid };
  Kind kind = Kind::kInvalid;
  std::string compression;  // attach: as given (empty: the default)
  std::string capture;      // attach: capture=WHEN as given (empty: the process's own setting)
  uint64_t frames = 0;      // attach: frames=N, trace the next N frames only (0: until detach)
  std::string destination;  // attach: file:PATH, PATH or listen:ADDRESS
  std::string error;        // kInvalid: why, as the reply's text
};

ControlCommand ParseControlCommand(std::string_view line);

}  // namespace strata::trace
