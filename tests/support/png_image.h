#pragma once
// Reads PNG files (as the sample apps write them) for pixel comparisons.

#include <cstdint>
#include <string>
#include <vector>

namespace strata::test {

struct Image {
  int width = 0, height = 0;
  std::vector<uint8_t> rgba;  // width * height * 4
};

// Loads any 8-bit PNG as RGBA; returns false with `error` set on failure.
bool ReadPng(const std::string& path, Image* image, std::string* error);

// Number of distinct colours, to tell a rendered frame from a blank one.
int CountColours(const Image& image);
// Bytes that differ between two images of the same size.
size_t DifferingBytes(const Image& a, const Image& b);

}  // namespace strata::test
