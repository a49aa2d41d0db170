#include "remote/window_presenter.h"

#include <X11/Xutil.h>
#include <sys/ipc.h>
#include <sys/shm.h>

#include <cstring>
#include <mutex>
#include <set>
#include <thread>

#include "stream/framebuffer_record.h"

namespace strata::remote {
namespace {

// Xlib's error handler is the process's. Errors on our own connections (a
// window the app destroyed before its last frame was shown, an XShmAttach
// refused by a server on another machine) are ours to ignore; the rest go
// to the handler that was there before.
std::mutex g_errors_mu;
std::set<Display*> g_our_displays;
std::set<Display*> g_failed_displays;  // an error came since the last look
XErrorHandler g_previous_handler = nullptr;

int OnXError(Display* display, XErrorEvent* event) {
  {
    std::lock_guard lock(g_errors_mu);
    if (g_our_displays.count(display) != 0) {
      g_failed_displays.insert(display);
      return 0;
    }
  }
  return g_previous_handler != nullptr ? g_previous_handler(display, event) : 0;
}

void AdoptDisplay(Display* display) {
  std::lock_guard lock(g_errors_mu);
  if (g_our_displays.empty()) {
    XErrorHandler previous = XSetErrorHandler(OnXError);
    if (previous != OnXError) g_previous_handler = previous;
  }
  g_our_displays.insert(display);
}

void ForgetDisplay(Display* display) {
  std::lock_guard lock(g_errors_mu);
  g_our_displays.erase(display);
  g_failed_displays.erase(display);
}

// Whether an error came on `display` since the last look.
bool TakeFailure(Display* display) {
  std::lock_guard lock(g_errors_mu);
  return g_failed_displays.erase(display) != 0;
}

}  // namespace

std::shared_ptr<WindowPresenter> WindowPresenter::Create(Display* app_display, Window window) {
  if (app_display == nullptr) return nullptr;
  // The app's requests (the window it just made) reach the server before ours.
  XSync(app_display, False);
  Display* display = XOpenDisplay(DisplayString(app_display));
  if (display == nullptr) return nullptr;
  AdoptDisplay(display);
  XWindowAttributes attributes;
  // TrueColor 24/32-bit visuals (every X server a GLES app meets today).
  if (!XGetWindowAttributes(display, window, &attributes) || attributes.depth < 24 || attributes.visual == nullptr ||
      attributes.visual->c_class != TrueColor) {
    ForgetDisplay(display);
    XCloseDisplay(display);
    return nullptr;
  }
  GC gc = XCreateGC(display, window, 0, nullptr);
  return std::shared_ptr<WindowPresenter>(new WindowPresenter(display, window, gc, attributes.visual, attributes.depth,
                                                              attributes.width, attributes.height));
}

WindowPresenter::WindowPresenter(Display* display, Window window, GC gc, Visual* visual, int depth, int width,
                                 int height)
    : display_(display),
      window_(window),
      gc_(gc),
      visual_(visual),
      depth_(depth),
      width_(width),
      height_(height),
      try_shared_(XShmQueryExtension(display) == True) {
  segment_.shmid = -1;
}

WindowPresenter::~WindowPresenter() {
  DropSharedImage();
  XFreeGC(display_, gc_);
  XCloseDisplay(display_);
  ForgetDisplay(display_);
}

void WindowPresenter::DropSharedImage() {
  if (shared_image_ == nullptr) return;
  XShmDetach(display_, &segment_);
  XSync(display_, False);
  shared_image_->data = nullptr;
  XDestroyImage(shared_image_);
  shared_image_ = nullptr;
  shmdt(segment_.shmaddr);
  segment_.shmid = -1;
}

XImage* WindowPresenter::ImageFor(int w, int h) {
  if (try_shared_) {
    if (shared_image_ != nullptr && shared_image_->width == w && shared_image_->height == h) return shared_image_;
    DropSharedImage();
    shared_image_ = XShmCreateImage(display_, visual_, static_cast<unsigned>(depth_), ZPixmap, nullptr, &segment_,
                                    static_cast<unsigned>(w), static_cast<unsigned>(h));
    if (shared_image_ != nullptr && shared_image_->bits_per_pixel == 32) {
      segment_.shmid = shmget(IPC_PRIVATE, static_cast<size_t>(shared_image_->bytes_per_line) * h, IPC_CREAT | 0600);
      void* address = segment_.shmid >= 0 ? shmat(segment_.shmid, nullptr, 0) : reinterpret_cast<void*>(-1);
      if (address != reinterpret_cast<void*>(-1)) {
        segment_.shmaddr = shared_image_->data = static_cast<char*>(address);
        segment_.readOnly = False;
        XSync(display_, False);
        TakeFailure(display_);
        const bool attached = XShmAttach(display_, &segment_) == True;
        XSync(display_, False);
        // Marked for removal now: it goes when both sides have detached, or died.
        shmctl(segment_.shmid, IPC_RMID, nullptr);
        if (attached && !TakeFailure(display_)) return shared_image_;
        shmdt(address);
      } else if (segment_.shmid >= 0) {
        shmctl(segment_.shmid, IPC_RMID, nullptr);
      }
    }
    if (shared_image_ != nullptr) {
      shared_image_->data = nullptr;
      XDestroyImage(shared_image_);
      shared_image_ = nullptr;
    }
    segment_.shmid = -1;
    try_shared_ = false;  // the plain path from now on
  }
  pixels_.resize(static_cast<size_t>(w) * h * 4);
  return XCreateImage(display_, visual_, static_cast<unsigned>(depth_), ZPixmap, 0,
                      reinterpret_cast<char*>(pixels_.data()), static_cast<unsigned>(w), static_cast<unsigned>(h), 32,
                      w * 4);
}

bool WindowPresenter::Resized() {
  std::lock_guard lock(mu_);
  XWindowAttributes attributes;
  if (!XGetWindowAttributes(display_, window_, &attributes)) return false;
  if (attributes.width == width_ && attributes.height == height_) return false;
  width_ = attributes.width;
  height_ = attributes.height;
  return true;
}

void WindowPresenter::Present(std::span<const uint8_t> record) {
  stream::FramebufferImage frame;
  if (!stream::DecodeFramebuffer(record, &frame) || frame.width == 0 || frame.height == 0) return;
  const int w = static_cast<int>(frame.width), h = static_cast<int>(frame.height);
  std::lock_guard lock(mu_);
  XImage* image = ImageFor(w, h);
  if (image == nullptr) return;
  const size_t row_bytes = static_cast<size_t>(w) * 4;
  // Bottom row first -> the server's 32-bit BGRX, top row first: a row copy
  // for BGRA frames, a swizzle for RGBA ones.
  for (int y = 0; y < h; ++y) {
    const uint8_t* src = frame.pixels.data() + static_cast<size_t>(h - 1 - y) * row_bytes;
    uint8_t* dst = reinterpret_cast<uint8_t*>(image->data) + static_cast<size_t>(y) * image->bytes_per_line;
    if (frame.format == stream::kFramebufferBgra8) {
      std::memcpy(dst, src, row_bytes);
      continue;
    }
    for (int x = 0; x < w; ++x) {
      dst[4 * x + 0] = src[4 * x + 2];
      dst[4 * x + 1] = src[4 * x + 1];
      dst[4 * x + 2] = src[4 * x + 0];
      dst[4 * x + 3] = 0xff;
    }
  }
  if (image == shared_image_) {
    XShmPutImage(display_, window_, gc_, image, 0, 0, 0, 0, static_cast<unsigned>(w), static_cast<unsigned>(h), False);
    // The server has read the segment once this returns: the next frame may overwrite it.
    XSync(display_, False);
    return;
  }
  XPutImage(display_, window_, gc_, image, 0, 0, 0, 0, static_cast<unsigned>(w), static_cast<unsigned>(h));
  image->data = nullptr;  // ours, not Xlib's to free
  XDestroyImage(image);
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
