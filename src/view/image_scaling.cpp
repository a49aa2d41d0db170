#include "view/image_scaling.h"

#include <algorithm>
#include <cstring>

namespace strata::view {

std::vector<uint8_t> FlipRows(std::span<const uint8_t> rgba, uint32_t width, uint32_t height) {
  const size_t row = static_cast<size_t>(width) * 4;
  std::vector<uint8_t> flipped(row * height);
  for (uint32_t y = 0; y < height; ++y) {
    std::memcpy(flipped.data() + row * y, rgba.data() + row * (height - 1 - y), row);
  }
  return flipped;
}

bool DownscaleToFit(const FrameImage& image, uint32_t max_side, FrameImage* out) {
  const uint64_t sw = image.width, sh = image.height;
  if (image.rgba.size() != sw * sh * 4) return false;
  max_side = std::max<uint32_t>(max_side, 1);
  if (sw <= max_side && sh <= max_side) {
    *out = image;
    return true;
  }
  // The longer side becomes max_side; the other keeps the ratio, at least 1.
  uint64_t dw = sw >= sh ? max_side : std::max<uint64_t>(1, (sw * max_side + sh / 2) / sh);
  uint64_t dh = sh > sw ? max_side : std::max<uint64_t>(1, (sh * max_side + sw / 2) / sw);
  FrameImage scaled;
  scaled.frame = image.frame;
  scaled.width = static_cast<uint32_t>(dw);
  scaled.height = static_cast<uint32_t>(dh);
  scaled.rgba.resize(dw * dh * 4);
  for (uint64_t y = 0; y < dh; ++y) {
    // Source rows [y0, y1) map onto output row y; never empty since dh <= sh.
    const uint64_t y0 = y * sh / dh, y1 = std::max(y0 + 1, (y + 1) * sh / dh);
    for (uint64_t x = 0; x < dw; ++x) {
      const uint64_t x0 = x * sw / dw, x1 = std::max(x0 + 1, (x + 1) * sw / dw);
      uint64_t sum[4] = {0, 0, 0, 0};
      for (uint64_t sy = y0; sy < y1; ++sy) {
        const uint8_t* p = image.rgba.data() + (sy * sw + x0) * 4;
        for (uint64_t sx = x0; sx < x1; ++sx, p += 4) {
          sum[0] += p[0];
          sum[1] += p[1];
          sum[2] += p[2];
          sum[3] += p[3];
        }
      }
      const uint64_t count = (y1 - y0) * (x1 - x0);
      uint8_t* d = scaled.rgba.data() + (y * dw + x) * 4;
      for (int c = 0; c < 4; ++c) d[c] = static_cast<uint8_t>((sum[c] + count / 2) / count);
    }
  }
  *out = std::move(scaled);
  return true;
}

}  // namespace strata::view
