// A test program: an X11 window rendered with EGL/GLES 2 that is resized
// between frames. After the resize and one swap, the surface must report the
// new size and a clear must reach its far corner. Prints one line per check;
// exits 1 on the first that fails. Run natively and through a renderer alike.
#include <EGL/egl.h>
#include <GLES2/gl2.h>
#include <X11/Xlib.h>

#include <cstdio>
#include <cstdlib>

namespace {

[[noreturn]] void Fail(const char* what) {
  std::printf("resizing_window: error: %s\n", what);
  std::exit(1);
}

// The surface's size, and the colour at its top-right pixel after clearing to `r, g, b`.
void Check(EGLDisplay display, EGLSurface surface, int width, int height, float r, float g, float b) {
  EGLint w = 0, h = 0;
  eglQuerySurface(display, surface, EGL_WIDTH, &w);
  eglQuerySurface(display, surface, EGL_HEIGHT, &h);
  std::printf("surface %dx%d (window %dx%d)\n", w, h, width, height);
  if (w != width || h != height) Fail("the surface does not have the window's size");
  glViewport(0, 0, w, h);
  glClearColor(r, g, b, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  unsigned char pixel[4] = {};
  glReadPixels(w - 1, h - 1, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, pixel);
  std::printf("corner %d,%d,%d\n", pixel[0], pixel[1], pixel[2]);
  if (pixel[0] != static_cast<int>(r * 255) || pixel[1] != static_cast<int>(g * 255) ||
      pixel[2] != static_cast<int>(b * 255)) {
    Fail("the clear did not reach the surface's corner");
  }
}

}  // namespace

int main() {
  Display* x = XOpenDisplay(nullptr);
  if (x == nullptr) Fail("cannot open the X display");
  Window window = XCreateSimpleWindow(x, DefaultRootWindow(x), 0, 0, 160, 120, 0, 0, 0);
  XMapWindow(x, window);
  XSync(x, False);
  EGLDisplay display = eglGetDisplay(reinterpret_cast<EGLNativeDisplayType>(x));
  if (!eglInitialize(display, nullptr, nullptr)) Fail("eglInitialize");
  const EGLint config_attribs[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT, EGL_SURFACE_TYPE, EGL_WINDOW_BIT,
                                   EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_NONE};
  EGLConfig config;
  EGLint count = 0;
  if (!eglChooseConfig(display, config_attribs, &config, 1, &count) || count < 1) Fail("eglChooseConfig");
  const EGLint context_attribs[] = {EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE};
  EGLContext context = eglCreateContext(display, config, EGL_NO_CONTEXT, context_attribs);
  EGLSurface surface = eglCreateWindowSurface(display, config, window, nullptr);
  if (surface == EGL_NO_SURFACE || !eglMakeCurrent(display, surface, surface, context)) Fail("a window surface");
  Check(display, surface, 160, 120, 1.0f, 0.0f, 0.0f);
  eglSwapBuffers(display, surface);
  XResizeWindow(x, window, 240, 180);
  XSync(x, False);
  // The frame in flight keeps its size; the next one has the window's.
  eglSwapBuffers(display, surface);
  Check(display, surface, 240, 180, 0.0f, 1.0f, 0.0f);
  eglSwapBuffers(display, surface);
  std::printf("resized: ok\n");
  eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglDestroySurface(display, surface);
  eglDestroyContext(display, context);
  eglTerminate(display);
  XDestroyWindow(x, window);
  XCloseDisplay(x);
  return 0;
}
