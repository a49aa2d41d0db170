// A test program: an X11 window whose four quadrants are cleared to four
// colours (red top left, green top right, blue bottom left, white bottom
// right) frame after frame; then what the X server shows in the window is
// read back (XGetImage) until each quadrant's centre has its colour. Through
// a renderer the frames come back over the wire and are put into the window
// by the client: a frame upside down, with red and blue swapped, cut short
// or never shown fails here. Prints one line per quadrant; exits 1 on failure.
//
//   quadrant_window [--size WxH]
#include <EGL/egl.h>
#include <GLES2/gl2.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

#include "window_program.h"

namespace {

[[noreturn]] void Fail(const std::string& what) {
  std::printf("quadrant_window: error: %s\n", what.c_str());
  std::exit(1);
}

struct Quadrant {
  const char* name;
  int left, bottom;  // in GL's corner: 0 or 1 half along each axis
  unsigned char r, g, b;
};
constexpr Quadrant kQuadrants[] = {
    {"top left", 0, 1, 255, 0, 0},
    {"top right", 1, 1, 0, 255, 0},
    {"bottom left", 0, 0, 0, 0, 255},
    {"bottom right", 1, 0, 255, 255, 255},
};

void Draw(int width, int height) {
  glViewport(0, 0, width, height);
  glEnable(GL_SCISSOR_TEST);
  for (const Quadrant& q : kQuadrants) {
    glScissor(q.left * width / 2, q.bottom * height / 2, width / 2, height / 2);
    glClearColor(q.r / 255.0f, q.g / 255.0f, q.b / 255.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
  }
  glDisable(GL_SCISSOR_TEST);
}

// The colour at the centre of each quadrant as the X server shows the
// window; empty when all four are right, else what was seen.
std::string Mismatches(Display* x, Window window, int width, int height) {
  XImage* image = XGetImage(x, window, 0, 0, static_cast<unsigned>(width), static_cast<unsigned>(height), AllPlanes,
                            ZPixmap);
  if (image == nullptr) return "XGetImage failed";
  std::string seen;
  for (const Quadrant& q : kQuadrants) {
    const int cx = q.left * width / 2 + width / 4;
    const int cy = (1 - q.bottom) * height / 2 + height / 4;  // X counts rows from the top
    const unsigned long pixel = XGetPixel(image, cx, cy);
    const unsigned r = (pixel >> 16) & 0xff, g = (pixel >> 8) & 0xff, b = pixel & 0xff;
    if (r != q.r || g != q.g || b != q.b) {
      seen += std::string(q.name) + " is " + std::to_string(r) + "," + std::to_string(g) + "," + std::to_string(b) +
              " (drawn " + std::to_string(q.r) + "," + std::to_string(q.g) + "," + std::to_string(q.b) + "); ";
    }
  }
  XDestroyImage(image);
  return seen;
}

}  // namespace

int main(int argc, char** argv) {
  int width = 320, height = 240;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--size") == 0 && i + 1 < argc &&
        std::sscanf(argv[++i], "%dx%d", &width, &height) == 2 && width >= 2 && height >= 2) {
      continue;
    }
    Fail("usage: quadrant_window [--size WxH]");
  }
  WindowContext c = MakeWindowCurrent(width, height);
  if (c.failed != nullptr) Fail(c.failed);
  // Frames keep coming while the window is looked at: a renderer's frames
  // are shown a frame or two after their swap.
  std::string seen = "nothing looked at";
  int frames = 0;
  const auto start = std::chrono::steady_clock::now();
  while (std::chrono::steady_clock::now() - start < std::chrono::seconds(10)) {
    Draw(width, height);
    if (!eglSwapBuffers(c.display, c.surface)) Fail("eglSwapBuffers");
    ++frames;
    if (frames < 3) continue;
    XSync(c.x, False);
    seen = Mismatches(c.x, c.window, width, height);
    if (seen.empty()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  if (!seen.empty()) Fail("after " + std::to_string(frames) + " frames the window shows: " + seen);
  for (const Quadrant& q : kQuadrants) std::printf("%s: %u,%u,%u\n", q.name, q.r, q.g, q.b);
  std::printf("window shows the quadrants after %d frames: ok\n", frames);
  CloseWindowContext(c);
  return 0;
}
