#pragma once
// What the remote test programs share: the fingerprint of what they drew and
// a shader compiled or nothing.

#include <GLES3/gl3.h>

#include <cstdint>
#include <vector>

// FNV-1a over the RGBA pixels of the current framebuffer's lower-left size x size square.
inline uint32_t FrameChecksum(int size) {
  std::vector<uint8_t> pixels(static_cast<size_t>(size) * size * 4);
  glReadPixels(0, 0, size, size, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
  uint32_t hash = 2166136261u;
  for (uint8_t byte : pixels) hash = (hash ^ byte) * 16777619u;
  return hash;
}

// A compiled shader of `type`, or 0 when it does not compile.
inline GLuint CompiledShader(GLenum type, const char* source) {
  GLuint shader = glCreateShader(type);
  glShaderSource(shader, 1, &source, nullptr);
  glCompileShader(shader);
  GLint ok = 0;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  return ok ? shader : 0;
}
