#pragma once
// strata trim: a trace of a range of frames or calls that replays alone.
// The trace is replayed up to the range; a snapshot of the context there
// (snapshot/) becomes made-up calls at the start of the new trace, after the
// EGL calls that made its display, configs, surfaces and contexts; then the
// range's own records follow, renumbered from there. docs/inspect.md.

#include <cstdint>
#include <string>
#include <vector>

namespace strata::trim {

struct TrimOptions {
  std::string input, output;
  bool by_frames = true;  // else by calls
  uint64_t first = 0, last = UINT64_MAX;  // inclusive
  std::string strata_lib_dir;  // so the host driver is never Strata's own
  bool progress = false;
};

struct TrimResult {
  uint64_t first_call = 0, last_call = 0;  // the range, as the input numbers its calls
  uint64_t egl_calls = 0, snapshot_calls = 0, range_calls = 0, frames = 0;
  uint64_t contexts = 0;  // snapshots taken: one per live context
  uint64_t frame_calls = 0;  // of the range's first frame before it, made up (a range that starts mid-frame)
  uint64_t output_bytes = 0;
  std::vector<std::string> not_carried;  // what the snapshot could not carry
  std::vector<std::string> warnings;
};

// False with *error (naming the trace and the reason) when nothing could be
// written; the output is then absent, never half written.
bool Trim(const TrimOptions& options, TrimResult* result, std::string* error);

}  // namespace strata::trim
