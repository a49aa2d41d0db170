#pragma once
// An image of one frame, as the report shows it. The report does not care
// where an image came from: the trace's framebuffer records
// (captured_images.h) or, later, a replay of a trace that has none.

#include <cstdint>
#include <vector>

namespace strata::view {

struct FrameImage {
  // The report's frame number: frame 0 is everything before the first
  // eglSwapBuffers, frame N what follows the N-th (as `strata dump --frames`).
  uint64_t frame = 0;
  uint32_t width = 0, height = 0;
  std::vector<uint8_t> rgba;  // width * height * 4 bytes, RGBA8, TOP row first
};

}  // namespace strata::view
