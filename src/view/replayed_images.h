#pragma once
// Frame images for a trace that holds none: the trace is replayed headless
// on this machine's driver and the chosen frames are read back at their
// eglSwapBuffers (src/replay/).

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "view/frame_image.h"

namespace strata::view {

struct ReplayedImageOptions {
  std::vector<uint64_t> frames;  // report frames to take, ascending
  uint32_t max_side = 320;       // downscaled while replaying
  std::string strata_lib_dir;    // so Strata's own libraries are never taken as the driver
};

// False with `error` when the trace cannot be replayed at all; a replay that
// stops early gives the images taken before that.
bool ReadReplayedImages(const std::string& trace_path, const ReplayedImageOptions& options,
                        std::vector<FrameImage>* images, std::string* error);

}  // namespace strata::view
