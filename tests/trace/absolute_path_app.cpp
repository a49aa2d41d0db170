// A GLES app for the trace tests that links no GL library: it dlopens the
// system's libEGL.so.1 and libGLESv2.so.2 by absolute path (as some engines
// do) and takes every function from them with dlsym. It clears a pbuffer,
// reads a pixel back and swaps, and prints where eglGetDisplay came from.
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES2/gl2.h>
#include <dlfcn.h>

#include <cstdio>

namespace {

template <typename F>
F Take(void* library, const char* name) {
  void* f = dlsym(library, name);
  if (f == nullptr) std::fprintf(stderr, "absolute_path_app: %s missing\n", name);
  return reinterpret_cast<F>(f);
}

}  // namespace

int main() {
  const char* egl_path = STRATA_SYSTEM_LIB_DIR "/libEGL.so.1";
  const char* gles_path = STRATA_SYSTEM_LIB_DIR "/libGLESv2.so.2";
  void* egl = dlopen(egl_path, RTLD_NOW | RTLD_LOCAL);
  void* gles = dlopen(gles_path, RTLD_NOW | RTLD_LOCAL);
  if (egl == nullptr || gles == nullptr) return std::printf("absolute_path_app: dlopen failed: %s\n", dlerror()), 1;

  auto get_platform_display = Take<PFNEGLGETPLATFORMDISPLAYPROC>(egl, "eglGetPlatformDisplay");
  auto initialize = Take<PFNEGLINITIALIZEPROC>(egl, "eglInitialize");
  auto choose_config = Take<PFNEGLCHOOSECONFIGPROC>(egl, "eglChooseConfig");
  auto create_context = Take<PFNEGLCREATECONTEXTPROC>(egl, "eglCreateContext");
  auto create_pbuffer = Take<PFNEGLCREATEPBUFFERSURFACEPROC>(egl, "eglCreatePbufferSurface");
  auto make_current = Take<PFNEGLMAKECURRENTPROC>(egl, "eglMakeCurrent");
  auto swap = Take<PFNEGLSWAPBUFFERSPROC>(egl, "eglSwapBuffers");
  auto terminate = Take<PFNEGLTERMINATEPROC>(egl, "eglTerminate");
  auto clear_color = Take<PFNGLCLEARCOLORPROC>(gles, "glClearColor");
  auto clear = Take<PFNGLCLEARPROC>(gles, "glClear");
  auto read_pixels = Take<PFNGLREADPIXELSPROC>(gles, "glReadPixels");
  if (!get_platform_display || !initialize || !choose_config || !create_context || !create_pbuffer ||
      !make_current || !swap || !terminate || !clear_color || !clear || !read_pixels) {
    return 1;
  }
  Dl_info info{};
  dladdr(reinterpret_cast<void*>(get_platform_display), &info);
  std::printf("eglGetPlatformDisplay from %s\n", info.dli_fname ? info.dli_fname : "?");

  EGLDisplay display = get_platform_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
  if (!initialize(display, nullptr, nullptr)) return std::puts("absolute_path_app: eglInitialize failed"), 1;
  const EGLint config_attribs[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT, EGL_SURFACE_TYPE, EGL_PBUFFER_BIT,
                                   EGL_NONE};
  EGLConfig config = nullptr;
  EGLint count = 0;
  if (!choose_config(display, config_attribs, &config, 1, &count) || count < 1) return 1;
  const EGLint context_attribs[] = {EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE};
  EGLContext context = create_context(display, config, EGL_NO_CONTEXT, context_attribs);
  const EGLint surface_attribs[] = {EGL_WIDTH, 16, EGL_HEIGHT, 16, EGL_NONE};
  EGLSurface surface = create_pbuffer(display, config, surface_attribs);
  if (!make_current(display, surface, surface, context)) return std::puts("absolute_path_app: no context"), 1;
  clear_color(0.0f, 1.0f, 0.0f, 1.0f);
  clear(GL_COLOR_BUFFER_BIT);
  unsigned char pixel[4] = {};
  read_pixels(0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, pixel);
  std::printf("pixel %02x%02x%02x%02x\n", pixel[0], pixel[1], pixel[2], pixel[3]);
  swap(display, surface);
  make_current(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  terminate(display);
  return 0;
}
