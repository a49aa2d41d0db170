#pragma once
// Tracing switched on and off by frame: `strata trace --frames A-B`
// (STRATA_TRACE_FRAMES), and an attach for the next N frames (the control
// socket's `attach ... frames=N`). The trace's session is opened switched off;
// the process runs untraced, counting its swaps, until the swap that ends
// frame A-1 has returned; there the swapping thread joins at once (its
// context with the snapshot an attach makes, taken where frame A begins), the
// other threads at their next switch point. After the swap that ends frame B
// the swapping thread leaves at once, the others at their next switch point,
// and the trace is finished. docs/inspect.md, "A frame range while the
// program runs".
//
// Until frame A the only cost beyond the switched-off layer's (one test per
// call) is a test after each untraced swap: once a frame.

#include <EGL/egl.h>

#include <atomic>
#include <cstdint>
#include <string>

namespace strata::trace {

// What the swaps' paths read: set when a range is armed, cleared when it ends.
struct FrameRangeFlags {
  std::atomic<bool> counting{false};    // untraced swaps are counted (a range waits to begin)
  std::atomic<bool> ending{false};      // traced frame ends are watched (a range has a last frame)
};
extern FrameRangeFlags g_frame_range __attribute__((visibility("hidden")));

// Arms a range on the open, switched-off session: tracing switches on once
// `swaps_first` more swaps (any thread's) have ended untraced (0: now, which
// the caller does by switching the session on itself), and off after
// `frames` frames traced (0: never). False with *error when one is armed.
bool ArmFrameRange(uint64_t swaps_first, uint64_t frames, std::string* error);
// Forgets an armed range (a detach).
void DisarmFrameRange();
// For the control socket's status: "" when no range is armed.
std::string DescribeFrameRange();

// Parses STRATA_TRACE_FRAMES: "A-B", "A-", "-B" or "N" (frame N alone), as
// the tools' --frames; false with *error naming what is wrong.
bool ParseFrameRange(const std::string& text, uint64_t* first, uint64_t* last, std::string* error);

void CountUntracedSwap();
void NoteTracedFrameEnd(uint32_t frame);

// After a swap that was not traced (the generated swap wrappers' untraced
// path): one load and a branch that is taken only while a range waits.
inline EGLBoolean AfterUntracedSwap(EGLBoolean result) {
  if (g_frame_range.counting.load(std::memory_order_relaxed)) [[unlikely]] CountUntracedSwap();
  return result;
}
// After a traced swap's frame record: ends the range after its last frame.
inline void AfterTracedFrameEnd(uint32_t frame) {
  if (g_frame_range.ending.load(std::memory_order_relaxed)) [[unlikely]] NoteTracedFrameEnd(frame);
}
// Whether the frame being traced is the range's last (its image is then
// captured before its swap as the trace's final frame).
bool InLastFrameOfRange(uint32_t frame);

}  // namespace strata::trace
