#pragma once
// A program's active uniforms with their values, read from a live driver
// into plain data, for `strata state` (inspect/gl_state.cpp) and snapshots
// (snapshot/context_snapshot.cpp) alike.

#include <GLES3/gl32.h>

#include <cstdint>
#include <string>
#include <vector>

#include "glstate/context_state.h"

namespace strata::glstate {

struct UniformElement {
  std::string name;      // as glGetUniformLocation takes it ("light[2]")
  GLint location = -1;   // -1: the driver gives it none (in a uniform block, or a built-in)
  uint32_t values[16] = {};  // GLfloat, GLint or GLuint by the type's scalar (common/uniform_types.h)
};

struct Uniform {
  std::string name;  // as glGetActiveUniform gives it ("light[0]" for an array)
  GLenum type = 0;
  GLint size = 0;
  GLint block = -1;  // the uniform block it is in (GLES 3+), or -1
  std::vector<UniformElement> elements;  // one per array element (one for a non-array)
};

// Each active uniform of `program`, in the driver's order. `version` as
// ContextState's (uniform blocks are asked of GLES 3+ only).
std::vector<Uniform> ReadUniforms(const FunctionLookup& functions, GLuint program, int version);

}  // namespace strata::glstate
