#include "common/image_difference.h"

#include <strings.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>

namespace strata {
namespace {

std::string Format(const char* format, double value) {
  char text[64];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

std::string Percent(double share) { return Format("%.3g %%", share * 100); }
std::string Decibels(double db) { return std::isinf(db) ? "infinite" : Format("%.2f dB", db); }

// A number with nothing after it but `suffix` (optional, any case).
bool ParseNumber(const std::string& text, const char* suffix, double* out) {
  if (text.empty()) return false;
  char* end = nullptr;
  errno = 0;
  const double value = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || errno != 0 || !std::isfinite(value)) return false;
  if (*end != '\0' && strcasecmp(end, suffix) != 0) return false;
  *out = value;
  return true;
}

}  // namespace

void ImageDifference::Add(const uint8_t* a, const uint8_t* b, uint64_t count, int threshold, uint8_t* marks) {
  if (std::memcmp(a, b, count * 4) == 0) {  // the common case, at memcmp's speed
    pixels += count;
    if (marks) std::memset(marks, 0, count);
    return;
  }
  for (uint64_t i = 0; i < count; ++i, a += 4, b += 4) {
    int worst = 0;
    for (int c = 0; c < 4; ++c) {
      const int delta = std::abs(int(a[c]) - int(b[c]));
      worst = std::max(worst, delta);
      squared_error += static_cast<uint64_t>(delta * delta);
    }
    largest = std::max(largest, worst);
    const bool differs = worst > threshold;
    if (marks) marks[i] = differs;
    if (differs) {
      if (first_differing == UINT64_MAX) first_differing = pixels;
      ++differing;
    }
    ++pixels;
  }
}

void ImageDifference::AddUnmatched(uint64_t count) {
  if (count == 0) return;
  if (first_differing == UINT64_MAX) first_differing = pixels;
  pixels += count;
  differing += count;
  largest = 255;
  squared_error += count * 4 * 255 * 255;
}

double ImageDifference::Psnr() const {
  if (squared_error == 0) return std::numeric_limits<double>::infinity();
  const double mean = double(squared_error) / (double(pixels) * 4);
  return 10 * std::log10(255.0 * 255.0 / mean);
}

bool ImageTolerance::Accepts(const ImageDifference& difference) const {
  if (difference.DifferingShare() > max_differing) return false;
  return min_psnr == 0 || difference.Psnr() >= min_psnr;
}

std::string ImageTolerance::Describe() const {
  if (exact()) return "equal";
  std::string text;
  if (max_differing < 1) {  // pixels are judged (not with a PSNR alone)
    if (threshold == 0) {
      text = max_differing == 0 ? "every pixel equal" : Percent(max_differing) + " of pixels may differ";
    } else {
      text = "a channel may be off by " + std::to_string(threshold);
      if (max_differing > 0) text += ", " + Percent(max_differing) + " of pixels by more";
    }
  }
  if (min_psnr > 0) text += (text.empty() ? "" : ", ") + std::string("PSNR at least ") + Format("%g dB", min_psnr);
  return text;
}

std::string DescribeDifference(const ImageDifference& difference, int threshold) {
  std::string text = std::to_string(difference.differing) + " of " + std::to_string(difference.pixels) +
                     " pixels differ" + (threshold ? " by more than " + std::to_string(threshold) : "") + " (" +
                     Percent(difference.DifferingShare()) + "), largest channel difference " +
                     std::to_string(difference.largest);
  return text + ", PSNR " + Decibels(difference.Psnr());
}

void WorstDifference::Note(uint64_t frame, const ImageDifference& difference) {
  if (difference.equal()) return;
  const bool first = frames++ == 0;
  if (first || difference.largest > largest) largest = difference.largest, largest_frame = frame;
  if (first || difference.DifferingShare() > differing_share) {
    differing_share = difference.DifferingShare(), differing_frame = frame;
  }
  if (first || difference.Psnr() < psnr) psnr = difference.Psnr(), psnr_frame = frame;
}

std::string WorstDifference::Describe() const {
  const std::string share = differing_share == 0 ? "no pixel past the threshold"
                                                 : Percent(differing_share) + " of pixels differ (frame " +
                                                       std::to_string(differing_frame) + ")";
  return "largest channel difference " + std::to_string(largest) + " (frame " + std::to_string(largest_frame) + "), " +
         share + ", PSNR " + Decibels(psnr) + " (frame " + std::to_string(psnr_frame) + ")";
}

bool ParseChannelThreshold(const std::string& text, int* threshold) {
  if (text.empty() || text.size() > 3 || text.find_first_not_of("0123456789") != std::string::npos) return false;
  const int value = std::atoi(text.c_str());
  if (value > 255) return false;
  *threshold = value;
  return true;
}

bool ParsePercentage(const std::string& text, double* share) {
  double percent = 0;
  if (!ParseNumber(text, "%", &percent) || percent < 0 || percent > 100) return false;
  *share = percent / 100;
  return true;
}

bool ParseDecibels(const std::string& text, double* db) {
  double value = 0;
  if (!ParseNumber(text, "dB", &value) || value <= 0 || value > 1000) return false;
  *db = value;
  return true;
}

}  // namespace strata
