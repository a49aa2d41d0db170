#pragma once
// A shader's source, and the shaders attached to a program, as the driver
// holds them: what `strata state` prints of the current program, and what a
// snapshot relinks a program from, read where a program is linked (strata
// trim watches the stream) and where it is snapshot (an attach). Read in one
// place for all.

#include <GLES3/gl32.h>

#include <algorithm>
#include <string>
#include <vector>

namespace strata::glstate {

struct ShaderQueries {
  PFNGLGETSHADERIVPROC GetShaderiv;
  PFNGLGETSHADERSOURCEPROC GetShaderSource;
  PFNGLGETATTACHEDSHADERSPROC GetAttachedShaders;
};

// A shader's stage and source; `shader` is the driver's name for it.
struct ShaderSource {
  GLenum type = 0;
  std::string source;
  GLuint shader = 0;
};

inline std::string ReadShaderSource(const ShaderQueries& gl, GLuint shader) {
  GLint length = 0;
  gl.GetShaderiv(shader, GL_SHADER_SOURCE_LENGTH, &length);
  if (length <= 0) return {};
  std::string text(static_cast<size_t>(length), '\0');
  GLsizei written = 0;
  gl.GetShaderSource(shader, length, &written, text.data());
  text.resize(static_cast<size_t>(std::max(written, 0)));
  return text;
}

inline std::vector<ShaderSource> ReadAttachedShaders(const ShaderQueries& gl, GLuint program) {
  std::vector<ShaderSource> shaders;
  GLuint attached[16];
  GLsizei count = 0;
  gl.GetAttachedShaders(program, 16, &count, attached);
  for (GLsizei i = 0; i < count; ++i) {
    GLint type = 0;
    gl.GetShaderiv(attached[i], GL_SHADER_TYPE, &type);
    shaders.push_back({static_cast<GLenum>(type), ReadShaderSource(gl, attached[i]), attached[i]});
  }
  return shaders;
}

}  // namespace strata::glstate
