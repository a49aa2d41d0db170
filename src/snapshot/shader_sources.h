#pragma once
// A shader's source, and the sources of the shaders attached to a program,
// as the driver holds them: what a snapshot relinks a program from, read
// where a program is linked (strata trim watches the stream) and where it is
// snapshot (an attach). Read in one place for both.

#include <GLES3/gl32.h>

#include <algorithm>
#include <string>
#include <vector>

#include "snapshot/snapshot_source.h"

namespace strata::snapshot {

struct ShaderQueries {
  PFNGLGETSHADERIVPROC GetShaderiv;
  PFNGLGETSHADERSOURCEPROC GetShaderSource;
  PFNGLGETATTACHEDSHADERSPROC GetAttachedShaders;
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

inline std::vector<LinkedShader> ReadAttachedShaders(const ShaderQueries& gl, GLuint program) {
  std::vector<LinkedShader> shaders;
  GLuint attached[16];
  GLsizei count = 0;
  gl.GetAttachedShaders(program, 16, &count, attached);
  for (GLsizei i = 0; i < count; ++i) {
    GLint type = 0;
    gl.GetShaderiv(attached[i], GL_SHADER_TYPE, &type);
    shaders.push_back({static_cast<GLenum>(type), ReadShaderSource(gl, attached[i])});
  }
  return shaders;
}

}  // namespace strata::snapshot
