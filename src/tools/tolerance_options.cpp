#include "tools/tolerance_options.h"

namespace strata::tools {

std::vector<OptionSpec> ToleranceOptions::Specs() {
  return {{"threshold", 0, true}, {"max-differing", 0, true}, {"min-psnr", 0, true}};
}

bool ToleranceOptions::Take(CommandLine& args, bool* ok) {
  const std::string value = args.value() ? args.value() : "";
  if (args.Is("threshold")) {
    threshold_given_ = true;
    *ok = ParseChannelThreshold(value, &tolerance_.threshold) || args.Refuse("a channel difference from 0 to 255");
  } else if (args.Is("max-differing")) {
    share_given_ = true;
    *ok = ParsePercentage(value, &tolerance_.max_differing) || args.Refuse("a percentage from 0 to 100 (0.5 or 0.5%)");
  } else if (args.Is("min-psnr")) {
    psnr_given_ = true;
    *ok = ParseDecibels(value, &tolerance_.min_psnr) || args.Refuse("decibels above 0 (30 or 30dB)");
  } else {
    return false;
  }
  return true;
}

ImageTolerance ToleranceOptions::tolerance() const {
  ImageTolerance tolerance = tolerance_;
  if (psnr_given_ && !threshold_given_ && !share_given_) tolerance.max_differing = 1;  // any pixel may differ
  return tolerance;
}

}  // namespace strata::tools
