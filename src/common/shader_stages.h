#pragma once
// The shader stages of GLES 3.2 (glCreateShader's types; glGetProgramPipelineiv
// asks a pipeline's program per stage by the same enums).

#include <GLES3/gl32.h>

namespace strata {

inline bool IsShaderStage(GLenum type) {
  switch (type) {
    case GL_VERTEX_SHADER:
    case GL_FRAGMENT_SHADER:
    case GL_COMPUTE_SHADER:
    case GL_GEOMETRY_SHADER:
    case GL_TESS_CONTROL_SHADER:
    case GL_TESS_EVALUATION_SHADER:
      return true;
    default:
      return false;
  }
}

}  // namespace strata
