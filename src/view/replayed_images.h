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

// The same frames (`frames` empty: every frame) at full size, handed to
// `take` one by one as the replay reaches them. False with `error` when the
// replay fails (`take` may have had the frames before); `warning` when the
// trace was cut short and replayed up to there.
bool ForEachReplayedImage(const std::string& trace_path, const std::vector<uint64_t>& frames,
                          const std::string& strata_lib_dir, const std::function<void(FrameImage&& image)>& take,
                          std::string* warning, std::string* error);

}  // namespace strata::view
