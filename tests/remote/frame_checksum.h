#pragma once
// The test programs' fingerprint of what they drew: FNV-1a over the RGBA
// pixels of the current framebuffer's lower-left size x size square.

#include <GLES3/gl3.h>

#include <cstdint>
#include <vector>

inline uint32_t FrameChecksum(int size) {
  std::vector<uint8_t> pixels(static_cast<size_t>(size) * size * 4);
  glReadPixels(0, 0, size, size, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
  uint32_t hash = 2166136261u;
  for (uint8_t byte : pixels) hash = (hash ^ byte) * 16777619u;
  return hash;
}
