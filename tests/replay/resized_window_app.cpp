// A test program: an X11 window that changes size while it renders, as a
// video player's does when it learns the video's size. Resized once after its
// surface is current (before the first frame) and once between frames; every
// frame clears the whole surface and marks the corner the window's size puts
// at the top right, so a frame drawn at another size looks different. Traced
// and replayed by replay_x11_test.
#include <EGL/egl.h>
#include <GLES2/gl2.h>
#include <X11/Xlib.h>

#include <cstdio>

#include "remote/window_program.h"

namespace {

void Frame(const WindowContext& c, int width, int height, float shade) {
  glDisable(GL_SCISSOR_TEST);
  glViewport(0, 0, width, height);
  glClearColor(shade, 0.2f, 1.0f - shade, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  glEnable(GL_SCISSOR_TEST);
  glScissor(width - 40, height - 30, 40, 30);
  glClearColor(1.0f, 1.0f, 0.0f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  eglSwapBuffers(c.display, c.surface);
}

void Resize(const WindowContext& c, int width, int height) {
  XResizeWindow(c.x, c.window, static_cast<unsigned>(width), static_cast<unsigned>(height));
  XSync(c.x, False);
}

}  // namespace

int main() {
  WindowContext c = MakeWindowCurrent(160, 120);
  if (c.failed != nullptr) {
    std::printf("resized_window_app: error: %s\n", c.failed);
    return 1;
  }
  Resize(c, 200, 150);
  Frame(c, 200, 150, 0.0f);
  Frame(c, 200, 150, 0.25f);
  Resize(c, 240, 180);
  Frame(c, 240, 180, 0.5f);
  Frame(c, 240, 180, 0.75f);
  std::printf("resized_window_app: 4 frames\n");
  CloseWindowContext(c);
  return 0;
}
