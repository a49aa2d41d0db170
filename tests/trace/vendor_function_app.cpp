// Calls glStrataVendorSumEXT (vendor_function_layer.cpp serves it), a
// function Strata's registry does not know, 3 times a frame for 2 frames,
// between known calls, and prints "sum N" per call and "calls N" at the end.
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES2/gl2.h>

#include <cstdio>

using VendorSum = double (*)(int, int, int, int, int, int, int, double, double, double, double, double, double,
                             double, double, double, float);

int main() {
  EGLDisplay display = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
  if (!eglInitialize(display, nullptr, nullptr)) return std::puts("vendor_function_app: eglInitialize failed"), 1;
  const EGLint config_attribs[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT, EGL_SURFACE_TYPE, EGL_PBUFFER_BIT,
                                   EGL_NONE};
  EGLConfig config = nullptr;
  EGLint count = 0;
  if (!eglChooseConfig(display, config_attribs, &config, 1, &count) || count < 1) return 1;
  const EGLint context_attribs[] = {EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE};
  EGLContext context = eglCreateContext(display, config, EGL_NO_CONTEXT, context_attribs);
  const EGLint surface_attribs[] = {EGL_WIDTH, 16, EGL_HEIGHT, 16, EGL_NONE};
  EGLSurface surface = eglCreatePbufferSurface(display, config, surface_attribs);
  if (!eglMakeCurrent(display, surface, surface, context)) return 1;
  auto sum = reinterpret_cast<VendorSum>(eglGetProcAddress("glStrataVendorSumEXT"));
  if (sum == nullptr) return std::puts("vendor_function_app: no glStrataVendorSumEXT"), 2;
  int calls = 0;
  for (int frame = 0; frame < 2; ++frame) {
    for (int i = 0; i < 3; ++i) {
      glClear(GL_COLOR_BUFFER_BIT);
      double s = sum(1 + i, 2, 3, 4, 5, 6, 7 + frame, 0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5 + i, 0.25f);
      std::printf("sum %.3f\n", s);
      ++calls;
    }
    eglSwapBuffers(display, surface);
  }
  std::printf("calls %d\n", calls);
  eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglTerminate(display);
  return 0;
}
