// A test program: an X11 window rendered with EGL/GLES 2 that is resized
// between frames. After the resize and one swap, the surface must report the
// new size and a clear must reach its far corner, also a clear made before
// anything asks the surface's size. Prints one line per check;
// exits 1 on the first that fails. Run natively and through a renderer alike.
#include <EGL/egl.h>
#include <GLES2/gl2.h>
#include <X11/Xlib.h>

#include <cstdio>
#include <cstdlib>

#include "window_program.h"

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

// The same, asking the surface's size only after the clear: the clear itself
// must find the window's new size (Mesa looks at the drawable at the first
// draw, clear or blit after a swap).
void CheckClearFirst(EGLDisplay display, EGLSurface surface, int width, int height, float r, float g, float b) {
  glViewport(0, 0, width, height);
  glClearColor(r, g, b, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  unsigned char pixel[4] = {};
  glReadPixels(width - 1, height - 1, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, pixel);
  EGLint w = 0, h = 0;
  eglQuerySurface(display, surface, EGL_WIDTH, &w);
  eglQuerySurface(display, surface, EGL_HEIGHT, &h);
  std::printf("cleared first: surface %dx%d (window %dx%d), corner %d,%d,%d\n", w, h, width, height, pixel[0],
              pixel[1], pixel[2]);
  if (pixel[0] != static_cast<int>(r * 255) || pixel[1] != static_cast<int>(g * 255) ||
      pixel[2] != static_cast<int>(b * 255)) {
    Fail("the clear before any size query did not reach the grown window's corner");
  }
}

}  // namespace

int main() {
  WindowContext c = MakeWindowCurrent(160, 120);
  if (c.failed != nullptr) Fail(c.failed);
  Display* x = c.x;
  Window window = c.window;
  EGLDisplay display = c.display;
  EGLSurface surface = c.surface;
  Check(display, surface, 160, 120, 1.0f, 0.0f, 0.0f);
  eglSwapBuffers(display, surface);
  XResizeWindow(x, window, 240, 180);
  XSync(x, False);
  // The frame in flight keeps its size; the next one has the window's.
  eglSwapBuffers(display, surface);
  Check(display, surface, 240, 180, 0.0f, 1.0f, 0.0f);
  eglSwapBuffers(display, surface);
  // Grown again, and cleared before anything asks its size.
  XResizeWindow(x, window, 300, 220);
  XSync(x, False);
  eglSwapBuffers(display, surface);
  CheckClearFirst(display, surface, 300, 220, 0.0f, 0.0f, 1.0f);
  eglSwapBuffers(display, surface);
  std::printf("resized: ok\n");
  CloseWindowContext(c);
  return 0;
}
