// A small GLES app for the layer tests: makes a context (GLES 2 by default,
// GLES 1 with --gles1), calls glClear, eglChooseConfig, glObjectLabelKHR (an
// extension, through eglGetProcAddress) and glStrataTestExtensionEXT (a name
// no registry knows), then prints "probe: ok" and, with --owner NAME, which
// object the loader's GLES 2 table holds for NAME. With --via-libgl it also
// calls GLES functions that it takes from libGL.so.1, as piglit does: glClear
// three times (twice through glXGetProcAddressARB, once as libGL's export),
// glPolygonOffsetClampEXT twice, and glClear once more with no context current.
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES2/gl2.h>
#include <GLES2/gl2ext.h>
#include <dlfcn.h>
#include <sys/auxv.h>

#include <cstdio>
#include <cstring>
#include <string>

#include "loader/status.h"

int main(int argc, char** argv) {
  bool gles1 = false, make_errors = false, via_libgl = false;
  const char* owner_of = nullptr;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--gles1")) gles1 = true;
    if (!std::strcmp(argv[i], "--make-errors")) make_errors = true;
    if (!std::strcmp(argv[i], "--via-libgl")) via_libgl = true;
    if (!std::strcmp(argv[i], "--owner") && i + 1 < argc) owner_of = argv[++i];
  }
  EGLDisplay display = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
  if (!eglInitialize(display, nullptr, nullptr)) return std::puts("probe: eglInitialize failed"), 1;
  const EGLint config_attribs[] = {EGL_RENDERABLE_TYPE, gles1 ? EGL_OPENGL_ES_BIT : EGL_OPENGL_ES2_BIT,
                                   EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_NONE};
  EGLConfig config;
  EGLint count = 0;
  if (!eglChooseConfig(display, config_attribs, &config, 1, &count) || count < 1) {
    return std::puts("probe: eglChooseConfig failed"), 1;
  }
  const EGLint context_attribs[] = {EGL_CONTEXT_CLIENT_VERSION, gles1 ? 1 : 2, EGL_NONE};
  EGLContext context = eglCreateContext(display, config, EGL_NO_CONTEXT, context_attribs);
  const EGLint surface_attribs[] = {EGL_WIDTH, 16, EGL_HEIGHT, 16, EGL_NONE};
  EGLSurface surface = eglCreatePbufferSurface(display, config, surface_attribs);
  if (!eglMakeCurrent(display, surface, surface, context)) return std::puts("probe: eglMakeCurrent failed"), 1;
  glClearColor(1.0f, 0.0f, 1.0f, 1.0f);  // exact in any colour depth
  glClear(GL_COLOR_BUFFER_BIT);
  unsigned char pixel[4] = {};
  glReadPixels(0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, pixel);
  std::printf("probe: cleared pixel %d %d %d %d\n", pixel[0], pixel[1], pixel[2], pixel[3]);
  if (!gles1) {
    auto object_label = reinterpret_cast<PFNGLOBJECTLABELKHRPROC>(eglGetProcAddress("glObjectLabelKHR"));
    GLuint texture = 0;
    glGenTextures(1, &texture);
    glBindTexture(GL_TEXTURE_2D, texture);
    if (object_label) object_label(GL_TEXTURE, texture, -1, "probe");
    auto test_extension = reinterpret_cast<void (*)(GLint)>(eglGetProcAddress("glStrataTestExtensionEXT"));
    if (test_extension) test_extension(42);
  }
  using GetProcAddress = void* (*)(const unsigned char*);
  void* libgl = via_libgl ? dlopen("libGL.so.1", RTLD_NOW) : nullptr;
  auto where = [](void* address) {
    Dl_info info{};
    return address && dladdr(address, &info) && info.dli_fname ? info.dli_fname : "(none)";
  };
  if (via_libgl) {
    if (libgl == nullptr) return std::printf("probe: cannot load libGL.so.1: %s\n", dlerror()), 1;
    auto get_proc = reinterpret_cast<GetProcAddress>(dlsym(libgl, "glXGetProcAddressARB"));
    if (get_proc == nullptr) return std::puts("probe: libGL.so.1 has no glXGetProcAddressARB"), 1;
    std::printf("probe: libGL is %s\n", where(reinterpret_cast<void*>(get_proc)));
    std::printf("probe: glClear from %s\n", where(get_proc(reinterpret_cast<const unsigned char*>("glClear"))));
    std::printf("probe: glXCreateContext from %s\n", where(get_proc(reinterpret_cast<const unsigned char*>("glXCreateContext"))));
    auto clear = reinterpret_cast<void (*)(GLbitfield)>(get_proc(reinterpret_cast<const unsigned char*>("glClear")));
    auto clamp = reinterpret_cast<void (*)(GLfloat, GLfloat, GLfloat)>(
        get_proc(reinterpret_cast<const unsigned char*>("glPolygonOffsetClampEXT")));
    auto exported_clear = reinterpret_cast<void (*)(GLbitfield)>(dlsym(libgl, "glClear"));
    if (!clear || !clamp || !exported_clear) return std::puts("probe: libGL.so.1 lacks glClear or glPolygonOffsetClampEXT"), 1;
    clear(GL_COLOR_BUFFER_BIT);
    clear(GL_COLOR_BUFFER_BIT);
    exported_clear(GL_COLOR_BUFFER_BIT);
    clamp(1.0f, 1.0f, 0.5f);
    clamp(2.0f, 1.0f, 0.25f);
    std::printf("probe: error after libGL calls 0x%x\n", glGetError());
    eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    clear(GL_COLOR_BUFFER_BIT);  // no context through Strata: the system's libGL
    eglMakeCurrent(display, surface, surface, context);
  }
  if (make_errors) {
    // Three errors from one call site, one from another; the app must still see its error.
    volatile int repeat = 3;  // not a constant: the loop stays one call site
    for (int i = 0; i < repeat; ++i) glEnable(0x1234);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, 0x2703);
    GLenum first = glGetError();
    GLenum second = glGetError();
    std::printf("probe: app saw 0x%x then 0x%x\n", first, second);
  }
  if (owner_of) {
    auto entry = reinterpret_cast<PFN_strata_loader_table_entry>(dlsym(RTLD_DEFAULT, "strata_loader_table_entry"));
    Dl_info info{};
    void* fn = entry ? entry(2, owner_of) : nullptr;
    std::printf("probe: owner of %s: %s\n", owner_of, fn && dladdr(fn, &info) ? info.dli_fname : "(none)");
  }
  eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglDestroySurface(display, surface);
  eglDestroyContext(display, context);
  eglTerminate(display);
  std::printf("probe: secure=%d\n", getauxval(AT_SECURE) ? 1 : 0);
  std::puts("probe: ok");
  return 0;
}
