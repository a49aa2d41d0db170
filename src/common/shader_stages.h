#pragma once
// The shader stages of GLES 3.2 (glCreateShader's types; glGetProgramPipelineiv
// asks a pipeline's program per stage by the same enums).

#include <GLES3/gl32.h>

#include <string_view>

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

// A stage's file extension as glslang names it (glslangValidator picks the
// stage by it), so that a shader saved from a trace says its stage.
struct ShaderStageFile {
  GLenum type;
  std::string_view extension;  // with its dot
};
inline constexpr ShaderStageFile kShaderStageFiles[] = {
    {GL_VERTEX_SHADER, ".vert"},         {GL_FRAGMENT_SHADER, ".frag"},     {GL_COMPUTE_SHADER, ".comp"},
    {GL_GEOMETRY_SHADER, ".geom"},       {GL_TESS_CONTROL_SHADER, ".tesc"}, {GL_TESS_EVALUATION_SHADER, ".tese"},
};

// The extension of a stage's files ("" for a type that is no stage).
inline std::string_view ShaderStageExtension(GLenum type) {
  for (const ShaderStageFile& file : kShaderStageFiles) {
    if (file.type == type) return file.extension;
  }
  return {};
}

// The stage a file's name says by its extension (0: none does).
inline GLenum ShaderStageOfFile(std::string_view path) {
  for (const ShaderStageFile& file : kShaderStageFiles) {
    if (path.size() > file.extension.size() && path.ends_with(file.extension)) return file.type;
  }
  return 0;
}

}  // namespace strata
