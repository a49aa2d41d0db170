#pragma once
// Puts the frames the renderer sends back into the client's X11 window (the
// seed's color buffer shown in the guest's window): RGBA bottom-up rows
// become the window visual's pixels, one XPutImage per frame.

#include <X11/Xlib.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace strata::remote {

class WindowPresenter {
 public:
  // Null when the window cannot be drawn into (not a window, an unsupported visual).
  static std::unique_ptr<WindowPresenter> Create(Display* display, Window window);
  ~WindowPresenter();

  int width() const { return width_; }
  int height() const { return height_; }
  // The window's size now; true when it changed since the last look.
  bool Resized();
  // A framebuffer record (stream/framebuffer_record.h) into the window.
  void Present(std::span<const uint8_t> record);
  // Holds the frame rate to the display's at swap interval N > 0 (60 Hz / N).
  void Pace(int interval);

 private:
  WindowPresenter(Display* display, Window window, GC gc, int width, int height);
  Display* display_;
  Window window_;
  GC gc_;
  int width_, height_;
  std::vector<uint8_t> pixels_;  // the XImage's memory
  std::chrono::steady_clock::time_point last_present_{};
};

}  // namespace strata::remote
