#include "view/replayed_images.h"

#include "replay/replayer.h"
#include "view/image_scaling.h"

namespace strata::view {

bool ReadReplayedImages(const std::string& trace_path, const ReplayedImageOptions& options,
                        std::vector<FrameImage>* images, std::string* error) {
  replay::ReplayOptions replay_options;
  replay_options.strata_lib_dir = options.strata_lib_dir;
  for (uint64_t frame : options.frames) replay_options.snapshot_frames.emplace_back(frame, frame);
  replay_options.on_snapshot = [&](uint64_t frame, const host::RgbaImage& image) {
    FrameImage full;
    full.frame = frame;
    full.width = static_cast<uint32_t>(image.width);
    full.height = static_cast<uint32_t>(image.height);
    full.rgba = FlipRows(image.pixels, full.width, full.height);
    FrameImage small;
    if (DownscaleToFit(full, options.max_side, &small)) images->push_back(std::move(small));
  };
  replay::ReplayResult result;
  std::string replay_error;
  if (!replay::Replay(trace_path, replay_options, &result, &replay_error)) {
    // A damaged trace still gives the frames before the damage.
    if (images->empty()) {
      *error = "replaying for frame images: " + replay_error;
      return false;
    }
  }
  return true;
}

}  // namespace strata::view
