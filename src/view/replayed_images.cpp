#include "view/replayed_images.h"

#include "replay/replayer.h"
#include "view/image_scaling.h"

namespace strata::view {

bool ForEachReplayedImage(const std::string& trace_path, const std::vector<uint64_t>& frames,
                          const std::string& strata_lib_dir, const std::function<void(FrameImage&& image)>& take,
                          std::string* warning, std::string* error) {
  replay::ReplayOptions replay_options;
  replay_options.strata_lib_dir = strata_lib_dir;
  replay_options.check = false;  // the images only
  for (uint64_t frame : frames) replay_options.snapshot_frames.emplace_back(frame, frame);
  if (frames.empty()) replay_options.snapshot_frames.emplace_back(0, UINT64_MAX);
  replay_options.on_snapshot = [&](uint64_t frame, const host::RgbaImage& image) {
    FrameImage full;
    full.frame = frame;
    full.width = static_cast<uint32_t>(image.width);
    full.height = static_cast<uint32_t>(image.height);
    full.rgba = FlipRows(image.pixels, full.width, full.height);
    take(std::move(full));
  };
  replay::ReplayResult result;
  if (!replay::Replay(trace_path, replay_options, &result, error)) return false;
  *warning = result.warning;
  return true;
}

bool ReadReplayedImages(const std::string& trace_path, const ReplayedImageOptions& options,
                        std::vector<FrameImage>* images, std::string* error) {
  auto keep = [&](FrameImage&& full) {
    FrameImage small;
    if (DownscaleToFit(full, options.max_side, &small)) images->push_back(std::move(small));
  };
  std::string warning, replay_error;
  if (!ForEachReplayedImage(trace_path, options.frames, options.strata_lib_dir, keep, &warning, &replay_error)) {
    // A damaged trace still gives the frames before the damage.
    if (images->empty()) {
      *error = "replaying for frame images: " + replay_error;
      return false;
    }
  }
  return true;
}

}  // namespace strata::view
