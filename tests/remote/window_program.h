#pragma once
// What the remote test programs with an X11 window share: the window at the
// screen's top-left corner and a GLES 2 context current on a window surface
// of it, made the same way natively and through a renderer.

#include <EGL/egl.h>
#include <X11/Xlib.h>

struct WindowContext {
  Display* x = nullptr;
  Window window = 0;
  EGLDisplay display = EGL_NO_DISPLAY;
  EGLContext context = EGL_NO_CONTEXT;
  EGLSurface surface = EGL_NO_SURFACE;
  const char* failed = nullptr;  // the step that failed, if one did
};

inline WindowContext MakeWindowCurrent(int width, int height) {
  WindowContext c;
  c.x = XOpenDisplay(nullptr);
  if (c.x == nullptr) return c.failed = "cannot open the X display", c;
  c.window = XCreateSimpleWindow(c.x, DefaultRootWindow(c.x), 0, 0, static_cast<unsigned>(width),
                                 static_cast<unsigned>(height), 0, 0, 0);
  XMapWindow(c.x, c.window);
  XSync(c.x, False);
  c.display = eglGetDisplay(reinterpret_cast<EGLNativeDisplayType>(c.x));
  if (!eglInitialize(c.display, nullptr, nullptr)) return c.failed = "eglInitialize", c;
  const EGLint config_attribs[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT, EGL_SURFACE_TYPE, EGL_WINDOW_BIT,
                                   EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_NONE};
  EGLConfig config;
  EGLint count = 0;
  if (!eglChooseConfig(c.display, config_attribs, &config, 1, &count) || count < 1) {
    return c.failed = "eglChooseConfig", c;
  }
  const EGLint context_attribs[] = {EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE};
  c.context = eglCreateContext(c.display, config, EGL_NO_CONTEXT, context_attribs);
  c.surface = eglCreateWindowSurface(c.display, config, c.window, nullptr);
  if (c.surface == EGL_NO_SURFACE || !eglMakeCurrent(c.display, c.surface, c.surface, c.context)) {
    return c.failed = "a window surface", c;
  }
  return c;
}

inline void CloseWindowContext(WindowContext& c) {
  eglMakeCurrent(c.display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglDestroySurface(c.display, c.surface);
  eglDestroyContext(c.display, c.context);
  eglTerminate(c.display);
  XDestroyWindow(c.x, c.window);
  XCloseDisplay(c.x);
}
