#include "view/png_encoder.h"

#include <zlib.h>

#include <array>
#include <cstdlib>
#include <string_view>

namespace strata::view {
namespace {

void PutU32(std::vector<uint8_t>& out, uint32_t v) {
  out.push_back(static_cast<uint8_t>(v >> 24));
  out.push_back(static_cast<uint8_t>(v >> 16));
  out.push_back(static_cast<uint8_t>(v >> 8));
  out.push_back(static_cast<uint8_t>(v));
}

void PutChunk(std::vector<uint8_t>& out, std::string_view type, std::span<const uint8_t> data) {
  PutU32(out, static_cast<uint32_t>(data.size()));
  const size_t type_at = out.size();
  out.insert(out.end(), type.begin(), type.end());
  out.insert(out.end(), data.begin(), data.end());
  // The CRC covers the type and the data, not the length.
  uLong crc = crc32(0L, out.data() + type_at, static_cast<uInt>(out.size() - type_at));
  PutU32(out, static_cast<uint32_t>(crc));
}

uint8_t Paeth(int a, int b, int c) {
  const int p = a + b - c, pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
  if (pa <= pb && pa <= pc) return static_cast<uint8_t>(a);
  return static_cast<uint8_t>(pb <= pc ? b : c);
}

}  // namespace

std::vector<uint8_t> EncodePng(std::span<const uint8_t> rgba, uint32_t width, uint32_t height) {
  if (width == 0 || height == 0 || width > 0x7fffffffu || height > 0x7fffffffu ||
      rgba.size() != static_cast<uint64_t>(width) * height * 4) {
    return {};
  }
  bool opaque = true;
  for (size_t i = 3; i < rgba.size() && opaque; i += 4) opaque = rgba[i] == 255;
  const size_t channels = opaque ? 3 : 4;
  const size_t row_bytes = static_cast<size_t>(width) * channels;

  // Filtered scanlines: one filter-type byte, then the row.
  std::vector<uint8_t> raw(height * (row_bytes + 1));
  std::vector<uint8_t> previous(row_bytes, 0), current(row_bytes);
  std::array<std::vector<uint8_t>, 5> candidates;
  for (auto& c : candidates) c.resize(row_bytes);
  for (uint32_t y = 0; y < height; ++y) {
    const uint8_t* source = rgba.data() + static_cast<size_t>(y) * width * 4;
    for (uint32_t x = 0; x < width; ++x) {
      for (size_t c = 0; c < channels; ++c) current[x * channels + c] = source[x * 4 + c];
    }
    size_t best = 0;
    uint64_t best_cost = UINT64_MAX;
    for (size_t filter = 0; filter < 5; ++filter) {
      uint64_t cost = 0;
      for (size_t i = 0; i < row_bytes; ++i) {
        const int left = i >= channels ? current[i - channels] : 0;
        const int up = previous[i];
        const int up_left = i >= channels ? previous[i - channels] : 0;
        int predicted = 0;
        switch (filter) {
          case 1: predicted = left; break;
          case 2: predicted = up; break;
          case 3: predicted = (left + up) / 2; break;
          case 4: predicted = Paeth(left, up, up_left); break;
          default: break;
        }
        const uint8_t value = static_cast<uint8_t>(current[i] - predicted);
        candidates[filter][i] = value;
        cost += value < 128 ? value : 256 - value;  // |value| as a signed byte
      }
      if (cost < best_cost) {
        best_cost = cost;
        best = filter;
      }
    }
    uint8_t* line = raw.data() + y * (row_bytes + 1);
    line[0] = static_cast<uint8_t>(best);
    std::copy(candidates[best].begin(), candidates[best].end(), line + 1);
    previous.swap(current);
  }

  uLongf compressed_size = compressBound(static_cast<uLong>(raw.size()));
  std::vector<uint8_t> compressed(compressed_size);
  // Level 3: rendered frames barely compress better at 6, which takes twice as long.
  if (compress2(compressed.data(), &compressed_size, raw.data(), static_cast<uLong>(raw.size()), 3) != Z_OK) {
    return {};
  }
  compressed.resize(compressed_size);

  std::vector<uint8_t> png = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  std::vector<uint8_t> header;
  PutU32(header, width);
  PutU32(header, height);
  header.push_back(8);                              // bits per channel
  header.push_back(opaque ? 2 : 6);                 // colour type: RGB or RGBA
  header.insert(header.end(), {0, 0, 0});           // deflate, adaptive filtering, no interlace
  PutChunk(png, "IHDR", header);
  PutChunk(png, "IDAT", compressed);
  PutChunk(png, "IEND", {});
  return png;
}

}  // namespace strata::view
