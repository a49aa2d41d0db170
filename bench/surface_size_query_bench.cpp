// What the tracer's check of a window's size costs per frame (surface_sizes.h:
// eglQuerySurface of EGL_WIDTH and EGL_HEIGHT at the first draw after each
// swap): on Mesa's X11 platform each query asks the X server for the
// window's geometry. Measured on a real window surface (run under Xvfb),
// as the median of 9 rounds of 2000 pairs.
#include <EGL/egl.h>
#include <X11/Xlib.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

int main() {
  Display* x = XOpenDisplay(nullptr);
  if (x == nullptr) {
    std::fprintf(stderr, "surface_size_query_bench: error: no X display (run under xvfb-run)\n");
    return 1;
  }
  Window window = XCreateSimpleWindow(x, DefaultRootWindow(x), 0, 0, 320, 240, 0, 0, 0);
  XMapWindow(x, window);
  XSync(x, False);
  EGLDisplay display = eglGetDisplay(reinterpret_cast<EGLNativeDisplayType>(x));
  const EGLint config_attribs[] = {EGL_SURFACE_TYPE, EGL_WINDOW_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT, EGL_NONE};
  const EGLint context_attribs[] = {EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE};
  EGLConfig config;
  EGLint count = 0;
  if (!eglInitialize(display, nullptr, nullptr) || !eglChooseConfig(display, config_attribs, &config, 1, &count) ||
      count < 1) {
    std::fprintf(stderr, "surface_size_query_bench: error: no EGL config for a window\n");
    return 1;
  }
  EGLContext context = eglCreateContext(display, config, EGL_NO_CONTEXT, context_attribs);
  EGLSurface surface = eglCreateWindowSurface(display, config, window, nullptr);
  if (surface == EGL_NO_SURFACE || !eglMakeCurrent(display, surface, surface, context)) {
    std::fprintf(stderr, "surface_size_query_bench: error: cannot make a window surface current\n");
    return 1;
  }
  constexpr int kPairs = 2000;
  std::vector<double> rounds;
  for (int round = 0; round < 9; ++round) {
    const auto start = std::chrono::steady_clock::now();
    EGLint width = 0, height = 0;
    for (int i = 0; i < kPairs; ++i) {
      eglQuerySurface(display, surface, EGL_WIDTH, &width);
      eglQuerySurface(display, surface, EGL_HEIGHT, &height);
    }
    const std::chrono::duration<double, std::micro> took = std::chrono::steady_clock::now() - start;
    rounds.push_back(took.count() / kPairs);
  }
  std::sort(rounds.begin(), rounds.end());
  std::printf("eglQuerySurface EGL_WIDTH + EGL_HEIGHT of a window: %.2f us per pair (median of 9 rounds)\n",
              rounds[rounds.size() / 2]);
  eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglDestroySurface(display, surface);
  eglDestroyContext(display, context);
  eglTerminate(display);
  XDestroyWindow(x, window);
  XCloseDisplay(x);
  return 0;
}
