#pragma once
// Frames, as every tool numbers and counts them (docs/trace-format.md,
// "Frames"). A frame ends at a frame-end record (a swap). Frame 0 runs from
// the start of the trace to the first frame end, frame N from there to the
// next. A trace has as many frames as frame ends; the calls after the last
// frame end (a program's teardown, or the whole of an off-screen trace) are
// an unfinished frame: --frames selects it by the number after the last
// frame, but no count includes it.

#include <cstdint>
#include <string>

namespace strata::stream {

// "66 frames", "66 frames + 12 calls after the last", "0 frames (4916 calls, no frame end)".
inline std::string FrameSummary(uint64_t frames, uint64_t calls_after_last_frame) {
  std::string out = std::to_string(frames) + (frames == 1 ? " frame" : " frames");
  if (calls_after_last_frame == 0) return out;
  const std::string calls =
      std::to_string(calls_after_last_frame) + (calls_after_last_frame == 1 ? " call" : " calls");
  return frames == 0 ? out + " (" + calls + ", no frame end)" : out + " + " + calls + " after the last";
}

}  // namespace strata::stream
