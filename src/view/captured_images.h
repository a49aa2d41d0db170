#pragma once
// Frame images from a trace's own framebuffer records (`strata trace
// --capture swap|draw`): one image source for the report. Another source
// (replaying a trace that has none) only has to produce FrameImages too.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "view/frame_image.h"

namespace strata::view {

struct CapturedImageOptions {
  // Which report frames to keep an image of; null keeps every frame.
  std::function<bool(uint64_t frame)> wanted;
  // Images are downscaled while reading so that neither side exceeds this.
  uint32_t max_side = 320;
};

struct CapturedImageResult {
  std::vector<FrameImage> images;  // at most one per frame, in frame order, top row first
  uint64_t skipped = 0;            // malformed records, or empty images
};

// Per frame, the last image of the surface (framebuffer 0) taken in it,
// which is the one taken before the frame's eglSwapBuffers; a frame with no
// surface image gets its last image of any framebuffer. Frames number as
// everywhere (stream/frame_numbering.h): records carry the tracer's frame
// numbers, which start above 0 when tracing was switched on mid-run, so they
// count from the trace's first frame end; an image taken before it belongs
// to frame 0. False with `error` when the file cannot be read; a file that
// ends early or is damaged gives what was read before that point.
bool ReadCapturedImages(const std::string& trace_path, const CapturedImageOptions& options,
                        CapturedImageResult* result, std::string* error);

// The same images at full size, handed to `take` one frame at a time as the
// reading moves past the frame, so that a long trace never has all its
// images in memory. `skipped` as in CapturedImageResult.
bool ForEachCapturedImage(const std::string& trace_path, const std::function<bool(uint64_t frame)>& wanted,
                          const std::function<void(FrameImage&& image)>& take, uint64_t* skipped,
                          std::string* error);

}  // namespace strata::view
