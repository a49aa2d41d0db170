#pragma once
// Writes RGBA8 images as PNG files (libpng's simplified API).

#include <cstdint>
#include <string>
#include <vector>

namespace strata {

// `bottom_up`: the first row in `rgba` is the bottom one, as glReadPixels gives it.
bool WritePng(const std::string& path, int width, int height, const std::vector<uint8_t>& rgba, bool bottom_up,
              std::string* error);

}  // namespace strata
