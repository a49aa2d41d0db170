// A multi-threaded GLES app for the trace tests: three threads render at the
// same time, two of them in contexts of one share group (the second uses a
// texture the first made), the third in a context of its own.
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES2/gl2.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

namespace {

EGLDisplay g_display;
EGLConfig g_config;
std::atomic<GLuint> g_shared_texture{0};
std::atomic<int> g_failures{0};

void Render(EGLContext context, int id, int frames) {
  const EGLint surface_attribs[] = {EGL_WIDTH, 64, EGL_HEIGHT, 64, EGL_NONE};
  EGLSurface surface = eglCreatePbufferSurface(g_display, g_config, surface_attribs);
  if (!eglMakeCurrent(g_display, surface, surface, context)) {
    ++g_failures;
    return;
  }
  if (id == 0) {
    GLuint texture = 0;
    glGenTextures(1, &texture);
    glBindTexture(GL_TEXTURE_2D, texture);
    const unsigned char pixels[4 * 4] = {255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255};
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 2, 2, 0, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
    glFinish();
    g_shared_texture = texture;
  }
  for (int frame = 0; frame < frames; ++frame) {
    glClearColor(0.1f * id, 0.01f * frame, 0.5f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    if (id == 1 && g_shared_texture != 0) glBindTexture(GL_TEXTURE_2D, g_shared_texture);  // shared object
    const GLfloat vertices[] = {-1, -1, 1, -1, 0, 1};
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, vertices);  // a client-side array
    glEnableVertexAttribArray(0);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    eglSwapBuffers(g_display, surface);
  }
  glFinish();
  eglMakeCurrent(g_display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglDestroySurface(g_display, surface);
  eglReleaseThread();
}

}  // namespace

int main(int argc, char** argv) {
  int frames = argc > 1 ? std::atoi(argv[1]) : 30;
  g_display = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
  if (!eglInitialize(g_display, nullptr, nullptr)) return std::puts("threaded_app: eglInitialize failed"), 1;
  const EGLint config_attribs[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT, EGL_SURFACE_TYPE, EGL_PBUFFER_BIT,
                                   EGL_NONE};
  EGLint count = 0;
  if (!eglChooseConfig(g_display, config_attribs, &g_config, 1, &count) || count < 1) return 1;
  const EGLint context_attribs[] = {EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE};
  EGLContext first = eglCreateContext(g_display, g_config, EGL_NO_CONTEXT, context_attribs);
  EGLContext shared = eglCreateContext(g_display, g_config, first, context_attribs);
  EGLContext alone = eglCreateContext(g_display, g_config, EGL_NO_CONTEXT, context_attribs);
  std::vector<std::thread> threads;
  EGLContext contexts[] = {first, shared, alone};
  for (int id = 0; id < 3; ++id) threads.emplace_back(Render, contexts[id], id, frames);
  for (auto& t : threads) t.join();
  for (EGLContext c : contexts) eglDestroyContext(g_display, c);
  eglTerminate(g_display);
  if (g_failures) return std::puts("threaded_app: a thread could not make its context current"), 1;
  std::printf("threaded_app: 3 threads rendered %d frames each\n", frames);
  return 0;
}
