// A client that asks to be told of GPU resets (EGL_EXT_create_context_robustness,
// EGL_LOSE_CONTEXT_ON_RESET) and draws frames until it is: the remote
// renderer's worker for it dying must look like a reset, not end it. Prints
// what glGetGraphicsResetStatusEXT and glGetError said and exits 0 once told;
// 1 if its frames run out first.
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES2/gl2.h>
#include <GLES2/gl2ext.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

int main(int argc, char** argv) {
  int frames = 100000;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--frames") && i + 1 < argc) frames = std::atoi(argv[++i]);
  }
  EGLDisplay display = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
  if (!eglInitialize(display, nullptr, nullptr)) return std::fprintf(stderr, "robust_client: eglInitialize\n"), 1;
  const EGLint config_attribs[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT, EGL_SURFACE_TYPE, EGL_PBUFFER_BIT,
                                   EGL_RED_SIZE, 8, EGL_NONE};
  EGLConfig config = nullptr;
  EGLint count = 0;
  if (!eglChooseConfig(display, config_attribs, &config, 1, &count) || count < 1) return 1;
  const EGLint surface_attribs[] = {EGL_WIDTH, 64, EGL_HEIGHT, 64, EGL_NONE};
  EGLSurface surface = eglCreatePbufferSurface(display, config, surface_attribs);
  const EGLint context_attribs[] = {EGL_CONTEXT_CLIENT_VERSION, 2, EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY_EXT,
                                    EGL_LOSE_CONTEXT_ON_RESET_EXT, EGL_NONE};
  EGLContext context = eglCreateContext(display, config, EGL_NO_CONTEXT, context_attribs);
  if (context == EGL_NO_CONTEXT || !eglMakeCurrent(display, surface, surface, context)) {
    std::fprintf(stderr, "robust_client: no robust context (EGL error 0x%x)\n", eglGetError());
    return 1;
  }
  auto reset_status = reinterpret_cast<PFNGLGETGRAPHICSRESETSTATUSEXTPROC>(
      eglGetProcAddress("glGetGraphicsResetStatusEXT"));
  if (reset_status == nullptr) return std::fprintf(stderr, "robust_client: no glGetGraphicsResetStatusEXT\n"), 1;
  std::printf("robust_client: drawing\n");
  std::fflush(stdout);
  for (int frame = 0; frame < frames; ++frame) {
    glClearColor(static_cast<float>(frame % 7) / 7.0f, 0.25f, 0.5f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    uint8_t pixel[4];
    glReadPixels(0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, pixel);  // each frame waits for the renderer
    eglSwapBuffers(display, surface);
    const GLenum status = reset_status();
    if (status != GL_NO_ERROR) {
      glClear(GL_COLOR_BUFFER_BIT);  // a call of the lost context
      const GLenum error = glGetError();
      std::printf("robust_client: reset status 0x%04x after %d frames; then glGetError 0x%04x, 0x%04x\n", status,
                  frame, error, glGetError());
      return 0;
    }
  }
  std::printf("robust_client: never told of a reset\n");
  return 1;
}
