#pragma once
// How far one RGBA8 image is from another, and how far one may be: the
// figures `strata replay --verify` and `strata diff --images` report for a
// frame (the largest difference of one channel, the share of pixels with a
// channel off by more than a threshold, the PSNR over the four channels) and
// the tolerance they judge a frame by. Two drivers never rasterise alike, so
// a replay on another driver needs a tolerance; exact is the default.

#include <cstdint>
#include <string>

namespace strata {

struct ImageDifference {
  uint64_t pixels = 0;         // compared (and those only one image has)
  uint64_t differing = 0;      // with a channel off by more than the threshold
  int largest = 0;             // the largest difference of one channel
  uint64_t squared_error = 0;  // summed over every channel of every pixel
  uint64_t first_differing = UINT64_MAX;  // the first differing pixel, counted in the order added

  // `count` pixels of each image, RGBA8; `marks` (optional, `count` bytes):
  // 1 where a pixel differs, else 0.
  void Add(const uint8_t* a, const uint8_t* b, uint64_t count, int threshold, uint8_t* marks = nullptr);
  // Pixels only one image has: off by 255 in every channel.
  void AddUnmatched(uint64_t count);

  bool equal() const { return squared_error == 0; }
  double DifferingShare() const { return pixels ? double(differing) / double(pixels) : 0; }
  // Peak signal-to-noise ratio in dB, over the four channels; infinite when equal.
  double Psnr() const;
};

struct ImageTolerance {
  int threshold = 0;         // a channel differs when by more than this (0-255)
  double max_differing = 0;  // the share of pixels that may differ (0-1)
  double min_psnr = 0;       // dB a frame's PSNR must reach; 0: not judged by PSNR

  bool exact() const { return threshold == 0 && max_differing == 0 && min_psnr == 0; }
  bool Accepts(const ImageDifference& difference) const;
  // "a channel may be off by 16, 1 % of pixels by more, PSNR at least 30 dB".
  std::string Describe() const;
};

// "1978 of 76800 pixels differ (2.58 %), largest channel difference 3, PSNR 48.21 dB";
// with a threshold, "differ by more than N".
std::string DescribeDifference(const ImageDifference& difference, int threshold);

// The furthest any frame is off, figure by figure, and which frame that is.
struct WorstDifference {
  uint64_t frames = 0;  // frames noted that are not equal
  int largest = 0;
  uint64_t largest_frame = 0;
  double differing_share = 0;
  uint64_t differing_frame = 0;
  double psnr = 0;  // the lowest; meaningful when frames > 0
  uint64_t psnr_frame = 0;

  void Note(uint64_t frame, const ImageDifference& difference);
  // "largest channel difference 64 (frame 3), 0.81 % of pixels differ (frame 7), PSNR 38.2 dB (frame 7)".
  std::string Describe() const;
};

// Parsers for the command lines' values; false when `text` is not one.
bool ParseChannelThreshold(const std::string& text, int* threshold);  // 0-255
bool ParsePercentage(const std::string& text, double* share);          // "0.5", "0.5%": 0-100, as 0-1
bool ParseDecibels(const std::string& text, double* db);               // "30", "30dB": above 0

}  // namespace strata
