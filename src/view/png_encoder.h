#pragma once
// A small PNG encoder (zlib only) for the report's embedded images.

#include <cstdint>
#include <span>
#include <vector>

namespace strata::view {

// `rgba`: width * height * 4 bytes, top row first. Written as RGB when every
// pixel is opaque (a quarter smaller), else RGBA; each row with the PNG
// filter that makes it smallest by the usual sum-of-differences estimate.
// Empty for a size that does not match the pixels or that PNG cannot hold.
std::vector<uint8_t> EncodePng(std::span<const uint8_t> rgba, uint32_t width, uint32_t height);

}  // namespace strata::view
