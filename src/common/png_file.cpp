#include "common/png_file.h"

#include <png.h>

#include <cstring>

namespace strata {

bool WritePng(const std::string& path, int width, int height, const std::vector<uint8_t>& rgba, bool bottom_up,
              std::string* error) {
  if (width <= 0 || height <= 0 || rgba.size() != static_cast<size_t>(width) * static_cast<size_t>(height) * 4) {
    *error = path + ": the image has no pixels or the wrong number of them";
    return false;
  }
  png_image image;
  std::memset(&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  image.width = static_cast<png_uint_32>(width);
  image.height = static_cast<png_uint_32>(height);
  image.format = PNG_FORMAT_RGBA;
  // A negative stride tells libpng the rows are stored bottom-up.
  png_int_32 stride = (bottom_up ? -1 : 1) * width * 4;
  if (png_image_write_to_file(&image, path.c_str(), 0, rgba.data(), stride, nullptr) == 0) {
    *error = path + ": " + image.message;
    png_image_free(&image);
    return false;
  }
  png_image_free(&image);
  return true;
}

}  // namespace strata
