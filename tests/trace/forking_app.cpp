// A launcher for the trace tests, shaped like an app zygote: it opens and
// initializes EGL, then forks two children before drawing anything itself.
//   "inheritor" only goes on with what it inherited: a query on the parent's
//   display and glGetError, no display of its own.
//   "forked-app" names itself (prctl), opens and initializes a display of its
//   own and draws one frame cleared to green.
// Then the launcher draws one frame cleared to blue. It prints
// "child NAME PID" per child, so the test knows which trace file is whose.
// With --orphan it draws a frame, forks one child ("orphan", which lets go of
// its output and sleeps for 20 s), prints "child orphan PID" and kills
// itself: the renderer must see the launcher's end while the child lives.
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES2/gl2.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <initializer_list>

namespace {

// One frame on a 16x16 pbuffer, cleared to (r, g, b).
bool DrawFrame(EGLDisplay display, float r, float g, float b) {
  const EGLint config_attribs[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT, EGL_SURFACE_TYPE, EGL_PBUFFER_BIT,
                                   EGL_RED_SIZE, 8, EGL_NONE};
  EGLConfig config = nullptr;
  EGLint count = 0;
  if (!eglChooseConfig(display, config_attribs, &config, 1, &count) || count < 1) return false;
  const EGLint context_attribs[] = {EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE};
  EGLContext context = eglCreateContext(display, config, EGL_NO_CONTEXT, context_attribs);
  const EGLint surface_attribs[] = {EGL_WIDTH, 16, EGL_HEIGHT, 16, EGL_NONE};
  EGLSurface surface = eglCreatePbufferSurface(display, config, surface_attribs);
  if (!eglMakeCurrent(display, surface, surface, context)) return false;
  glClearColor(r, g, b, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  bool swapped = eglSwapBuffers(display, surface);
  eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglDestroySurface(display, surface);
  eglDestroyContext(display, context);
  return swapped;
}

EGLDisplay OpenDisplay() {
  EGLDisplay display = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
  return eglInitialize(display, nullptr, nullptr) ? display : EGL_NO_DISPLAY;
}

}  // namespace

int main(int argc, char** argv) {
  EGLDisplay launcher_display = OpenDisplay();
  if (launcher_display == EGL_NO_DISPLAY) return std::puts("forking_app: eglInitialize failed"), 1;
  std::fflush(stdout);

  if (argc > 1 && std::strcmp(argv[1], "--orphan") == 0) {
    if (!DrawFrame(launcher_display, 1.0f, 0.0f, 0.0f)) return std::puts("forking_app: launcher frame failed"), 1;
    pid_t orphan = fork();
    if (orphan == 0) {
      prctl(PR_SET_NAME, "orphan");
      close(STDOUT_FILENO);  // the test reads the launcher's output to its end
      close(STDERR_FILENO);
      sleep(20);
      _exit(0);
    }
    std::printf("child orphan %d\n", orphan);
    std::fflush(stdout);
    raise(SIGKILL);
  }

  pid_t inheritor = fork();
  if (inheritor == 0) {
    prctl(PR_SET_NAME, "inheritor");
    const char* vendor = eglQueryString(launcher_display, EGL_VENDOR);
    glGetError();
    _exit(vendor != nullptr ? 0 : 3);
  }
  pid_t app = fork();
  if (app == 0) {
    prctl(PR_SET_NAME, "forked-app");
    EGLDisplay own = OpenDisplay();
    bool drawn = own != EGL_NO_DISPLAY && DrawFrame(own, 0.0f, 1.0f, 0.0f);
    if (own != EGL_NO_DISPLAY) eglTerminate(own);
    std::fflush(stdout);
    std::exit(drawn ? 0 : 4);  // exit(), as an app would: the tracer finishes at exit
  }
  std::printf("child inheritor %d\nchild forked-app %d\n", inheritor, app);
  int failed = 0;
  for (pid_t child : {inheritor, app}) {
    int status = 0;
    waitpid(child, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      std::printf("forking_app: child %d failed (status %d)\n", child, status);
      failed = 1;
    }
  }
  if (!DrawFrame(launcher_display, 0.0f, 0.0f, 1.0f)) return std::puts("forking_app: launcher frame failed"), 1;
  eglTerminate(launcher_display);
  return failed;
}
