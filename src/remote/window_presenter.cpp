#include "remote/window_presenter.h"

#include <X11/Xutil.h>

#include <thread>

#include "stream/framebuffer_record.h"

namespace strata::remote {

std::unique_ptr<WindowPresenter> WindowPresenter::Create(Display* display, Window window) {
  XWindowAttributes attributes;
  if (display == nullptr || !XGetWindowAttributes(display, window, &attributes)) return nullptr;
  // TrueColor 24/32-bit visuals (every X server a GLES app meets today).
  if (attributes.depth < 24 || attributes.visual == nullptr || attributes.visual->c_class != TrueColor) return nullptr;
  GC gc = XCreateGC(display, window, 0, nullptr);
  return std::unique_ptr<WindowPresenter>(
      new WindowPresenter(display, window, gc, attributes.width, attributes.height));
}

WindowPresenter::WindowPresenter(Display* display, Window window, GC gc, int width, int height)
    : display_(display), window_(window), gc_(gc), width_(width), height_(height) {}

WindowPresenter::~WindowPresenter() { XFreeGC(display_, gc_); }

bool WindowPresenter::Resized() {
  XWindowAttributes attributes;
  if (!XGetWindowAttributes(display_, window_, &attributes)) return false;
  if (attributes.width == width_ && attributes.height == height_) return false;
  width_ = attributes.width;
  height_ = attributes.height;
  return true;
}

void WindowPresenter::Present(std::span<const uint8_t> record) {
  stream::FramebufferImage image;
  if (!stream::DecodeFramebuffer(record, &image) || image.format != 0 || image.width == 0 || image.height == 0) return;
  const int w = static_cast<int>(image.width), h = static_cast<int>(image.height);
  pixels_.resize(static_cast<size_t>(w) * h * 4);
  // RGBA, bottom row first -> the server's 32-bit BGRX, top row first.
  for (int y = 0; y < h; ++y) {
    const uint8_t* src = image.pixels.data() + static_cast<size_t>(h - 1 - y) * w * 4;
    uint8_t* dst = pixels_.data() + static_cast<size_t>(y) * w * 4;
    for (int x = 0; x < w; ++x) {
      dst[4 * x + 0] = src[4 * x + 2];
      dst[4 * x + 1] = src[4 * x + 1];
      dst[4 * x + 2] = src[4 * x + 0];
      dst[4 * x + 3] = 0xff;
    }
  }
  XWindowAttributes attributes;
  if (!XGetWindowAttributes(display_, window_, &attributes)) return;
  XImage* ximage = XCreateImage(display_, attributes.visual, static_cast<unsigned>(attributes.depth), ZPixmap, 0,
                                reinterpret_cast<char*>(pixels_.data()), static_cast<unsigned>(w),
                                static_cast<unsigned>(h), 32, w * 4);
  if (ximage == nullptr) return;
  XPutImage(display_, window_, gc_, ximage, 0, 0, 0, 0, static_cast<unsigned>(w), static_cast<unsigned>(h));
  ximage->data = nullptr;  // ours, not Xlib's to free
  XDestroyImage(ximage);
  XFlush(display_);
}

void WindowPresenter::Pace(int interval) {
  const auto now = std::chrono::steady_clock::now();
  if (interval > 0) {
    const auto next = last_present_ + std::chrono::microseconds(16667 * interval);
    if (now < next) std::this_thread::sleep_until(next);
  }
  last_present_ = std::chrono::steady_clock::now();
}

}  // namespace strata::remote
