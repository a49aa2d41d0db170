#include "support/png_image.h"

#include <png.h>

#include <cstring>
#include <unordered_set>

namespace strata::test {

bool ReadPng(const std::string& path, Image* image, std::string* error) {
  png_image png;
  std::memset(&png, 0, sizeof png);
  png.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&png, path.c_str())) {
    *error = path + ": " + png.message;
    return false;
  }
  png.format = PNG_FORMAT_RGBA;
  image->width = static_cast<int>(png.width);
  image->height = static_cast<int>(png.height);
  image->rgba.resize(PNG_IMAGE_SIZE(png));
  if (!png_image_finish_read(&png, nullptr, image->rgba.data(), 0, nullptr)) {
    *error = path + ": " + png.message;
    return false;
  }
  return true;
}

int CountColours(const Image& image) {
  std::unordered_set<uint32_t> colours;
  for (size_t i = 0; i + 3 < image.rgba.size(); i += 4) {
    uint32_t c;
    std::memcpy(&c, &image.rgba[i], 4);
    colours.insert(c);
  }
  return static_cast<int>(colours.size());
}

size_t DifferingBytes(const Image& a, const Image& b) {
  size_t differing = 0;
  for (size_t i = 0; i < a.rgba.size() && i < b.rgba.size(); ++i) differing += a.rgba[i] != b.rgba[i];
  return differing;
}

}  // namespace strata::test
