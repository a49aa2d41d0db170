#pragma once
// `strata diff --images`: the frames of two traces compared pixel by pixel.
// A frame's image is the one the trace captured (`strata trace --capture`)
// or, for a trace that holds none, the one a replay on this machine draws.
// Each frame that differs is written as one PNG: A, B, and B greyed with the
// differing pixels marked in magenta, side by side.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "common/image_difference.h"

namespace strata::inspect {

enum class ImageSource { kAuto, kCaptured, kReplayed };

struct ImageDiffOptions {
  // kAuto: captured when both traces hold images, else both replayed.
  ImageSource source = ImageSource::kAuto;
  std::function<bool(uint64_t frame)> wanted;  // null: every frame
  ImageTolerance tolerance;                    // how far a frame may be off (exact by default)
  std::string output_dir;                      // made when a frame differs
  std::string strata_lib_dir;                  // for replaying (replay/replayer.h)
  std::function<void(const std::string& line)> progress;  // optional
};

struct FrameDifference {
  uint64_t frame = 0;
  uint32_t width_a = 0, height_a = 0, width_b = 0, height_b = 0;
  // Of the area both cover, plus the rest (only one image has it: off by 255).
  ImageDifference difference;
  std::string image_path;  // the side-by-side PNG (frames past the tolerance)
};

struct ImageDiffSummary {
  std::string source;                      // "captured" or "replayed on this machine"
  uint64_t frames_a = 0, frames_b = 0, compared = 0;
  std::vector<FrameDifference> differing;  // past the tolerance, in frame order
  std::vector<FrameDifference> tolerated;  // not equal but within the tolerance, in frame order
  WorstDifference worst;                   // over every frame that is not equal
  std::vector<uint64_t> only_a, only_b;    // frames one trace has an image of and the other not
  std::string warning;                     // e.g. a replay that stopped early
  bool equal() const { return differing.empty() && only_a.empty() && only_b.empty(); }
};

// False with `error` when a trace cannot be read or replayed, or an image cannot be written.
bool DiffImages(const std::string& path_a, const std::string& path_b, const ImageDiffOptions& options,
                ImageDiffSummary* summary, std::string* error);

}  // namespace strata::inspect
