// A GLES app for the trace tests that ends its frames with each kind of swap:
// frame 0 with eglSwapBuffers, frame 1 with eglSwapBuffersWithDamageKHR,
// frames 2 and 3 with eglSwapBuffersWithDamageEXT. Each frame is cleared to
// its own colour, printed as "frame N RRGGBBAA", so the test can tell which
// captured image belongs to which swap. It prints "read order bgra" where the
// driver reads its surface as BGRA8 without converting, else "read order rgba".
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES2/gl2.h>
#include <GLES2/gl2ext.h>

#include <cstdio>

int main() {
  EGLDisplay display = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
  if (!eglInitialize(display, nullptr, nullptr)) return std::puts("swap_kinds_app: eglInitialize failed"), 1;
  const EGLint config_attribs[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT, EGL_SURFACE_TYPE, EGL_PBUFFER_BIT,
                                   EGL_RED_SIZE, 8, EGL_ALPHA_SIZE, 8, EGL_NONE};
  EGLConfig config = nullptr;
  EGLint config_count = 0;
  if (!eglChooseConfig(display, config_attribs, &config, 1, &config_count) || config_count < 1) return 1;
  const EGLint context_attribs[] = {EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE};
  EGLContext context = eglCreateContext(display, config, EGL_NO_CONTEXT, context_attribs);
  const EGLint surface_attribs[] = {EGL_WIDTH, 32, EGL_HEIGHT, 32, EGL_NONE};
  EGLSurface surface = eglCreatePbufferSurface(display, config, surface_attribs);
  if (!eglMakeCurrent(display, surface, surface, context)) return std::puts("swap_kinds_app: no context"), 1;
  GLint read_format = 0, read_type = 0;
  glGetIntegerv(GL_IMPLEMENTATION_COLOR_READ_FORMAT, &read_format);
  glGetIntegerv(GL_IMPLEMENTATION_COLOR_READ_TYPE, &read_type);
  std::printf("read order %s\n", read_format == GL_BGRA_EXT && read_type == GL_UNSIGNED_BYTE ? "bgra" : "rgba");

  auto with_damage_khr = reinterpret_cast<PFNEGLSWAPBUFFERSWITHDAMAGEKHRPROC>(
      eglGetProcAddress("eglSwapBuffersWithDamageKHR"));
  auto with_damage_ext = reinterpret_cast<PFNEGLSWAPBUFFERSWITHDAMAGEEXTPROC>(
      eglGetProcAddress("eglSwapBuffersWithDamageEXT"));
  if (with_damage_khr == nullptr || with_damage_ext == nullptr) return std::puts("swap_kinds_app: no damage swaps"), 1;

  const unsigned char colours[4][4] = {{255, 0, 0, 255}, {0, 255, 0, 255}, {0, 0, 255, 255}, {255, 255, 255, 255}};
  EGLint damage[4] = {0, 0, 16, 16};
  for (int frame = 0; frame < 4; ++frame) {
    const unsigned char* c = colours[frame];
    glClearColor(c[0] / 255.0f, c[1] / 255.0f, c[2] / 255.0f, c[3] / 255.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    EGLBoolean swapped = frame == 0   ? eglSwapBuffers(display, surface)
                         : frame == 1 ? with_damage_khr(display, surface, damage, 1)
                                      : with_damage_ext(display, surface, damage, 1);
    if (!swapped) return std::printf("swap_kinds_app: swap of frame %d failed\n", frame), 1;
    std::printf("frame %d %02x%02x%02x%02x\n", frame, c[0], c[1], c[2], c[3]);
  }
  eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglTerminate(display);
  return 0;
}
