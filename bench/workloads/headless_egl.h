#pragma once
// The headless EGL set-up every bench workload shares: Mesa's surfaceless
// platform, a pbuffer config for one GLES version, a pbuffer surface, and
// contexts of that version. Any failure ends the program with one line.
#include <EGL/egl.h>
#include <EGL/eglext.h>

#include <cstdio>
#include <cstdlib>

struct HeadlessEgl {
  const char* program;  // for error lines
  int gles_version;     // 1, 2 or 3
  EGLDisplay display = EGL_NO_DISPLAY;
  EGLConfig config = nullptr;
  EGLSurface surface = EGL_NO_SURFACE;

  [[noreturn]] void Fail(const char* what) const {
    std::fprintf(stderr, "%s: error: %s\n", program, what);
    std::exit(1);
  }

  // Opens the display and makes a width x height pbuffer.
  HeadlessEgl(const char* program_name, int version, int width, int height)
      : program(program_name), gles_version(version) {
    display = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
    if (!eglInitialize(display, nullptr, nullptr)) Fail("eglInitialize");
    const EGLint renderable = version == 1 ? EGL_OPENGL_ES_BIT : version == 2 ? EGL_OPENGL_ES2_BIT : EGL_OPENGL_ES3_BIT;
    const EGLint config_attribs[] = {EGL_RENDERABLE_TYPE, renderable, EGL_SURFACE_TYPE, EGL_PBUFFER_BIT,
                                     EGL_RED_SIZE, 8, EGL_NONE};
    EGLint count = 0;
    if (!eglChooseConfig(display, config_attribs, &config, 1, &count) || count < 1) Fail("eglChooseConfig");
    const EGLint surface_attribs[] = {EGL_WIDTH, width, EGL_HEIGHT, height, EGL_NONE};
    surface = eglCreatePbufferSurface(display, config, surface_attribs);
    if (surface == EGL_NO_SURFACE) Fail("eglCreatePbufferSurface");
  }

  // A new context of the version, made current on the pbuffer.
  EGLContext MakeCurrentContext() const {
    const EGLint context_attribs[] = {EGL_CONTEXT_CLIENT_VERSION, gles_version, EGL_NONE};
    EGLContext context = eglCreateContext(display, config, EGL_NO_CONTEXT, context_attribs);
    if (context == EGL_NO_CONTEXT) Fail("eglCreateContext");
    if (!eglMakeCurrent(display, surface, surface, context)) Fail("eglMakeCurrent");
    return context;
  }

  void Close() const {
    eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglTerminate(display);
  }
};
