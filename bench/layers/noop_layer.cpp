// Benchmark layers. Built as several distinct copies (a chain cannot hold one
// library twice). Without NOOP_INTERCEPT the layer intercepts nothing: it
// returns `next` for every function. With it, it intercepts glUniform4f with a
// wrapper that only calls `next`.
#include <GLES2/gl2.h>
#include <strata/gles_layer.h>

#include <cstring>

namespace {

PFNGLUNIFORM4FPROC g_next_uniform4f = nullptr;

[[maybe_unused]] void Uniform4f(GLint location, GLfloat x, GLfloat y, GLfloat z, GLfloat w) {
  g_next_uniform4f(location, x, y, z, w);
}

}  // namespace

extern "C" __attribute__((visibility("default"))) void* AndroidGLESLayer_Initialize(
    void*, PFNEGLGETNEXTLAYERPROCADDRESSPROC) {
  return nullptr;
}

extern "C" __attribute__((visibility("default"))) void* AndroidGLESLayer_GetProcAddress(const char* name,
                                                                                      EGLFuncPointer next) {
#ifdef NOOP_INTERCEPT
  if (std::strcmp(name, "glUniform4f") == 0) {
    g_next_uniform4f = reinterpret_cast<PFNGLUNIFORM4FPROC>(next);
    return reinterpret_cast<void*>(&Uniform4f);
  }
#else
  (void)name;
#endif
  return reinterpret_cast<void*>(next);
}
