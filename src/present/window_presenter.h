#pragma once
// Shows frames (framebuffer records, stream/framebuffer_record.h) in an X11
// window: the remote client puts the renderer's frames into the app's window
// (the seed's color buffer shown in the guest's window), `strata serve
// --display` into windows of its own, scaled to fit. Bottom-up rows become the
// window visual's pixels, through a shared-memory image (MIT-SHM) where the X
// server shares memory with us, else one XPutImage per frame. It draws over an
// X connection of its own, so that frames can be shown from the connection's
// frame thread while the app's thread goes on with the next frame.

#include <X11/Xlib.h>
#include <X11/extensions/XShm.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

#include "stream/framebuffer_record.h"

namespace strata::present {

class WindowPresenter {
 public:
  // kAsIs: the frame at the window's top left, pixel for pixel. kScaleToFit:
  // scaled to the window's size, keeping its aspect (the rest black).
  enum class Fit { kAsIs, kScaleToFit };
  // Null when the window cannot be drawn into (not a window, an unsupported
  // visual, no second connection to the app's X server).
  static std::shared_ptr<WindowPresenter> Create(Display* app_display, Window window, Fit fit = Fit::kAsIs);
  ~WindowPresenter();

  int width() const { return width_; }
  int height() const { return height_; }
  // The window's size now; true when it changed since the last look.
  bool Resized();
  // A frame into the window. Any thread.
  void Present(const stream::FramebufferImage& frame);
  // Holds the frame rate to the display's at swap interval N > 0 (60 Hz / N).
  void Pace(int interval);

 private:
  WindowPresenter(Display* display, Window window, GC gc, Visual* visual, int depth, int width, int height, Fit fit);
  // Rows of `frame` into `image` (w x h), top row first, scaled when they differ.
  static void Convert(const stream::FramebufferImage& frame, XImage* image, int w, int h);
  // An image of w x h for the next frame: the shared one (made or remade at
  // that size) or, when the server cannot share, one over pixels_.
  XImage* ImageFor(int w, int h);
  void DropSharedImage();
  bool LookAtSize();  // under mu_: what Resized() says

  std::mutex mu_;     // the X connection is used by one thread at a time
  Display* display_;  // ours
  Window window_;
  GC gc_;
  Visual* visual_;
  int depth_;
  int width_, height_;
  Fit fit_;
  bool try_shared_;                // MIT-SHM is there and has not failed
  XShmSegmentInfo segment_{};      // shmid -1: none
  XImage* shared_image_ = nullptr;
  std::vector<uint8_t> pixels_;    // the plain XImage's memory
  std::chrono::steady_clock::time_point last_present_{};
};

}  // namespace strata::present
