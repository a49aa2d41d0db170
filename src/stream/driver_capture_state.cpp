#include "stream/driver_capture_state.h"

#include <EGL/egl.h>
#include <GLES3/gl32.h>
#include <GLES2/gl2ext.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "common/uniform_types.h"

namespace strata::capture {

GLint DriverCaptureState::Integer(GLenum pname, GLint fallback) {
  auto get = Get<PFNGLGETINTEGERVPROC>(api::glGetIntegerv);
  if (get == nullptr) return fallback;
  GLint value = fallback;
  get(pname, &value);
  return value;
}

PixelStoreCaps DriverCaptureState::PixelStore() {
  struct Cache {
    EGLContext context = EGL_NO_CONTEXT;
    const GLubyte* version = nullptr;
    PixelStoreCaps caps;
  };
  thread_local Cache cache;
  auto get_string = Get<PFNGLGETSTRINGPROC>(api::glGetString);
  if (get_string == nullptr) return {};
  const GLubyte* version = get_string(GL_VERSION);
  if (version == nullptr) return {};  // no current context
  auto current = Get<PFNEGLGETCURRENTCONTEXTPROC>(api::eglGetCurrentContext);
  EGLContext context = current != nullptr ? current() : EGL_NO_CONTEXT;
  if (context == cache.context && version == cache.version && context != EGL_NO_CONTEXT) return cache.caps;

  const char* gl_version = reinterpret_cast<const char*>(version);
  const char* extensions =
      PixelStoreNeedsExtensions(gl_version) ? reinterpret_cast<const char*>(get_string(GL_EXTENSIONS)) : nullptr;
  const PixelStoreCaps caps = PixelStoreCapsOf(gl_version, extensions);
  cache = {context, version, caps};
  return caps;
}

size_t DriverCaptureState::UniformComponents(GLuint program, GLint location) {
  auto is_program = Get<PFNGLISPROGRAMPROC>(api::glIsProgram);
  auto get_programiv = Get<PFNGLGETPROGRAMIVPROC>(api::glGetProgramiv);
  auto get_active = Get<PFNGLGETACTIVEUNIFORMPROC>(api::glGetActiveUniform);
  auto get_location = Get<PFNGLGETUNIFORMLOCATIONPROC>(api::glGetUniformLocation);
  if (is_program == nullptr || get_programiv == nullptr || get_active == nullptr || get_location == nullptr) return 16;
  if (!is_program(program)) return 0;
  GLint linked = GL_FALSE;
  get_programiv(program, GL_LINK_STATUS, &linked);
  if (!linked) return 0;
  GLint count = 0;
  GLint max_length = 0;
  get_programiv(program, GL_ACTIVE_UNIFORMS, &count);
  get_programiv(program, GL_ACTIVE_UNIFORM_MAX_LENGTH, &max_length);
  std::vector<char> name(static_cast<size_t>(std::max(max_length, 1)) + 16);

  struct Array {
    std::string base;  // name without "[0]"
    GLint location;
    GLint size;
    GLenum type;
  };
  std::vector<Array> arrays;
  for (GLint i = 0; i < count; ++i) {
    GLsizei length = 0;
    GLint size = 0;
    GLenum type = 0;
    get_active(program, static_cast<GLuint>(i), static_cast<GLsizei>(name.size()), &length, &size, &type, name.data());
    if (length <= 0) continue;
    const GLint base = get_location(program, name.data());
    if (base < 0) continue;  // a uniform block member
    if (base == location) return UniformTypeComponents(type);
    if (size > 1) {
      std::string n(name.data(), static_cast<size_t>(length));
      if (n.size() > 3 && n.compare(n.size() - 3, 3, "[0]") == 0) n.resize(n.size() - 3);
      arrays.push_back({n, base, size, type});
    }
  }
  // An element of an array: locations are usually consecutive, so try the
  // element that would have it first, then all of them.
  for (const Array& a : arrays) {
    const GLint k = location - a.location;
    if (k > 0 && k < a.size &&
        get_location(program, (a.base + "[" + std::to_string(k) + "]").c_str()) == location) {
      return UniformTypeComponents(a.type);
    }
  }
  for (const Array& a : arrays) {
    for (GLint k = 1; k < a.size; ++k) {
      if (get_location(program, (a.base + "[" + std::to_string(k) + "]").c_str()) == location) {
        return UniformTypeComponents(a.type);
      }
    }
  }
  return 0;  // no such location: GL_INVALID_OPERATION, nothing written
}

size_t DriverCaptureState::UniformBlockActiveUniforms(GLuint program, GLuint block_index) {
  auto is_program = Get<PFNGLISPROGRAMPROC>(api::glIsProgram);
  auto get_blockiv = Get<PFNGLGETACTIVEUNIFORMBLOCKIVPROC>(api::glGetActiveUniformBlockiv);
  auto get_programiv = Get<PFNGLGETPROGRAMIVPROC>(api::glGetProgramiv);
  if (is_program == nullptr || get_blockiv == nullptr || get_programiv == nullptr || !is_program(program)) return 0;
  GLint blocks = 0;
  get_programiv(program, GL_ACTIVE_UNIFORM_BLOCKS, &blocks);
  if (block_index >= static_cast<size_t>(std::max<GLint>(0, blocks))) return 0;  // GL_INVALID_VALUE
  GLint active = 0;
  get_blockiv(program, block_index, GL_UNIFORM_BLOCK_ACTIVE_UNIFORMS, &active);
  return static_cast<size_t>(std::max<GLint>(0, active));
}

GLint DriverCaptureState::PathParameter(GLuint path, GLenum pname) {
  auto is_path = Get<PFNGLISPATHNVPROC>(api::glIsPathNV);
  auto get = Get<PFNGLGETPATHPARAMETERIVNVPROC>(api::glGetPathParameterivNV);
  if (is_path == nullptr || get == nullptr || !is_path(path)) return 0;
  GLint value = 0;
  get(path, pname, &value);
  return value;
}

GLenum DriverCaptureState::PerfMonitorCounterType(GLuint group, GLuint counter) {
  auto get = Get<PFNGLGETPERFMONITORCOUNTERINFOAMDPROC>(api::glGetPerfMonitorCounterInfoAMD);
  if (get == nullptr) return 0;
  // Asked only beside the app's own glGetPerfMonitorCounterInfoAMD of the
  // same counter: an unknown one raises GL_INVALID_VALUE there too.
  GLenum type = 0;
  get(group, counter, GL_COUNTER_TYPE_AMD, &type);
  return type;
}

}  // namespace strata::capture
