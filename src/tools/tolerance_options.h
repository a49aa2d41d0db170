#pragma once
// --threshold, --max-differing and --min-psnr: how far a frame's image may be
// from the one it is compared with (strata replay --verify, strata diff
// --images). Each test asked for must pass; asking for none asks for equal
// frames, and a PSNR alone judges frames by their PSNR only.

#include <vector>

#include "common/image_difference.h"
#include "tools/command_line.h"

namespace strata::tools {

class ToleranceOptions {
 public:
  // The options, to add to a command's list.
  static std::vector<OptionSpec> Specs();
  // True when the current option is one of these; then *ok is false when its
  // value is wrong (after saying so).
  bool Take(CommandLine& args, bool* ok);
  bool given() const { return threshold_given_ || share_given_ || psnr_given_; }
  ImageTolerance tolerance() const;

 private:
  ImageTolerance tolerance_;
  bool threshold_given_ = false, share_given_ = false, psnr_given_ = false;
};

}  // namespace strata::tools
