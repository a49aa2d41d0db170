// GLSL helpers for the GLES 2/3 samples (header-only, so example_support
// itself never references a GLES 2-only entry point and gles1_cube can link
// it against libGLESv1_CM alone).  Include <GLES2/gl2.h> or <GLES3/gl3.h>
// before this header.
#pragma once

#include <string>
#include <vector>

#include "example_support.h"

namespace ex {

inline GLuint compile_shader(GLenum type, const char* source, const char* label) {
  const GLuint shader = glCreateShader(type);
  if (shader == 0) fail("glCreateShader failed for %s", label);
  glShaderSource(shader, 1, &source, nullptr);
  glCompileShader(shader);
  GLint ok = GL_FALSE;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (ok != GL_TRUE) {
    GLint len = 0;
    glGetShaderiv(shader, GL_INFO_LOG_LENGTH, &len);
    std::vector<char> log(static_cast<std::size_t>(len > 1 ? len : 1), '\0');
    glGetShaderInfoLog(shader, static_cast<GLsizei>(log.size()), nullptr, log.data());
    fail("compiling %s %s shader:\n%s", label, type == GL_VERTEX_SHADER ? "vertex" : "fragment",
         log.data());
  }
  return shader;
}

// Compiles and links a program.  `attributes` (may be null) is a
// null-terminated list of attribute names bound to locations 0, 1, 2, ...
inline GLuint link_program(const char* vertex_src, const char* fragment_src, const char* label,
                           const char* const* attributes = nullptr) {
  const GLuint vs = compile_shader(GL_VERTEX_SHADER, vertex_src, label);
  const GLuint fs = compile_shader(GL_FRAGMENT_SHADER, fragment_src, label);
  const GLuint program = glCreateProgram();
  glAttachShader(program, vs);
  glAttachShader(program, fs);
  if (attributes != nullptr)
    for (GLuint i = 0; attributes[i] != nullptr; ++i)
      glBindAttribLocation(program, i, attributes[i]);
  glLinkProgram(program);
  glDeleteShader(vs);
  glDeleteShader(fs);
  GLint ok = GL_FALSE;
  glGetProgramiv(program, GL_LINK_STATUS, &ok);
  if (ok != GL_TRUE) {
    GLint len = 0;
    glGetProgramiv(program, GL_INFO_LOG_LENGTH, &len);
    std::vector<char> log(static_cast<std::size_t>(len > 1 ? len : 1), '\0');
    glGetProgramInfoLog(program, static_cast<GLsizei>(log.size()), nullptr, log.data());
    fail("linking %s program:\n%s", label, log.data());
  }
  check_gl(label);
  return program;
}

inline GLint uniform_location(GLuint program, const char* name) {
  const GLint loc = glGetUniformLocation(program, name);
  if (loc < 0) fail("uniform '%s' not found (optimised out?)", name);
  return loc;
}

}  // namespace ex
