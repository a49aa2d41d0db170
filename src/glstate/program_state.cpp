#include "glstate/program_state.h"

#include <algorithm>

#include "common/uniform_types.h"
#include "strata/api/functions.h"

namespace strata::glstate {

std::vector<Uniform> ReadUniforms(const FunctionLookup& functions, GLuint program, int version) {
  auto get = reinterpret_cast<PFNGLGETPROGRAMIVPROC>(functions(api::glGetProgramiv));
  auto active_uniform = reinterpret_cast<PFNGLGETACTIVEUNIFORMPROC>(functions(api::glGetActiveUniform));
  auto uniforms_iv = reinterpret_cast<PFNGLGETACTIVEUNIFORMSIVPROC>(functions(api::glGetActiveUniformsiv));
  auto location_of = reinterpret_cast<PFNGLGETUNIFORMLOCATIONPROC>(functions(api::glGetUniformLocation));
  auto uniform_f = reinterpret_cast<PFNGLGETUNIFORMFVPROC>(functions(api::glGetUniformfv));
  auto uniform_i = reinterpret_cast<PFNGLGETUNIFORMIVPROC>(functions(api::glGetUniformiv));
  auto uniform_u = reinterpret_cast<PFNGLGETUNIFORMUIVPROC>(functions(api::glGetUniformuiv));
  GLint count = 0, longest = 0;
  get(program, GL_ACTIVE_UNIFORMS, &count);
  get(program, GL_ACTIVE_UNIFORM_MAX_LENGTH, &longest);
  std::vector<char> text(static_cast<size_t>(std::max(longest, 1)) + 1);
  std::vector<Uniform> uniforms;
  for (GLint i = 0; i < count; ++i) {
    Uniform uniform;
    GLsizei length = 0;
    active_uniform(program, static_cast<GLuint>(i), static_cast<GLsizei>(text.size()), &length, &uniform.size,
                   &uniform.type, text.data());
    uniform.name.assign(text.data(), static_cast<size_t>(std::max(length, 0)));
    if (version >= 30 && uniforms_iv != nullptr) {
      const GLuint index = static_cast<GLuint>(i);
      uniforms_iv(program, 1, &index, GL_UNIFORM_BLOCK_INDEX, &uniform.block);
    }
    std::string base = uniform.name;
    const bool array = base.size() > 3 && base.compare(base.size() - 3, 3, "[0]") == 0;
    if (array) base.resize(base.size() - 3);
    const UniformScalar scalar = UniformTypeScalar(uniform.type);
    for (GLint element = 0; element < std::max(uniform.size, 1); ++element) {
      UniformElement read;
      read.name = array ? base + "[" + std::to_string(element) + "]" : base;
      read.location = location_of(program, read.name.c_str());
      if (read.location >= 0) {
        if (scalar == UniformScalar::kFloat) uniform_f(program, read.location, reinterpret_cast<GLfloat*>(read.values));
        if (scalar == UniformScalar::kInt) uniform_i(program, read.location, reinterpret_cast<GLint*>(read.values));
        if (scalar == UniformScalar::kUnsigned && uniform_u != nullptr) uniform_u(program, read.location, read.values);
      }
      uniform.elements.push_back(std::move(read));
    }
    uniforms.push_back(std::move(uniform));
  }
  return uniforms;
}

}  // namespace strata::glstate
