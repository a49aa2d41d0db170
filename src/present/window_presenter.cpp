#include "present/window_presenter.h"

#include <X11/Xutil.h>
#include <sys/ipc.h>
#include <sys/shm.h>

#include <algorithm>
#include <cstring>
#include <mutex>
#include <set>
#include <thread>


namespace strata::present {
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

std::shared_ptr<WindowPresenter> WindowPresenter::Create(Display* app_display, Window window, Fit fit) {
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
                                                              attributes.width, attributes.height, fit));
}

WindowPresenter::WindowPresenter(Display* display, Window window, GC gc, Visual* visual, int depth, int width,
                                 int height, Fit fit)
    : display_(display),
      window_(window),
      gc_(gc),
      visual_(visual),
      depth_(depth),
      width_(width),
      height_(height),
      fit_(fit),
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
  return LookAtSize();
}

bool WindowPresenter::LookAtSize() {
  XWindowAttributes attributes;
  if (!XGetWindowAttributes(display_, window_, &attributes)) return false;
  if (attributes.width == width_ && attributes.height == height_) return false;
  width_ = attributes.width;
  height_ = attributes.height;
  return true;
}

void WindowPresenter::Convert(const stream::FramebufferImage& frame, XImage* image, int w, int h) {
  const int fw = static_cast<int>(frame.width), fh = static_cast<int>(frame.height);
  const bool bgra = frame.format == stream::kFramebufferBgra8;
  const size_t frame_row = static_cast<size_t>(fw) * 4;
  if (fw == w && fh == h) {
    // Bottom row first -> the server's 32-bit BGRX, top row first: a row copy
    // for BGRA frames, a swizzle for RGBA ones.
    for (int y = 0; y < h; ++y) {
      const uint8_t* src = frame.pixels.data() + static_cast<size_t>(h - 1 - y) * frame_row;
      uint8_t* dst = reinterpret_cast<uint8_t*>(image->data) + static_cast<size_t>(y) * image->bytes_per_line;
      if (bgra) {
        std::memcpy(dst, src, frame_row);
        continue;
      }
      for (int x = 0; x < w; ++x) {
        dst[4 * x + 0] = src[4 * x + 2];
        dst[4 * x + 1] = src[4 * x + 1];
        dst[4 * x + 2] = src[4 * x + 0];
        dst[4 * x + 3] = 0xff;
      }
    }
    return;
  }
  // Scaled to fit, aspect kept, centred; nearest pixel (a preview, not a copy).
  const double scale = std::min(static_cast<double>(w) / fw, static_cast<double>(h) / fh);
  const int sw = std::max(1, static_cast<int>(fw * scale)), sh = std::max(1, static_cast<int>(fh * scale));
  const int left = (w - sw) / 2, top = (h - sh) / 2;
  for (int y = 0; y < h; ++y) {
    uint32_t* dst = reinterpret_cast<uint32_t*>(image->data + static_cast<size_t>(y) * image->bytes_per_line);
    if (y < top || y >= top + sh) {
      std::memset(dst, 0, static_cast<size_t>(w) * 4);
      continue;
    }
    const int fy = std::min(fh - 1, static_cast<int>((y - top) / scale));
    const uint8_t* row = frame.pixels.data() + static_cast<size_t>(fh - 1 - fy) * frame_row;
    for (int x = 0; x < w; ++x) {
      if (x < left || x >= left + sw) {
        dst[x] = 0;
        continue;
      }
      const uint8_t* p = row + static_cast<size_t>(std::min(fw - 1, static_cast<int>((x - left) / scale))) * 4;
      const uint32_t r = bgra ? p[2] : p[0], g = p[1], b = bgra ? p[0] : p[2];
      dst[x] = 0xff000000u | r << 16 | g << 8 | b;
    }
  }
}

void WindowPresenter::Present(const stream::FramebufferImage& frame) {
  if (frame.width == 0 || frame.height == 0) return;
  std::lock_guard lock(mu_);
  int w = static_cast<int>(frame.width), h = static_cast<int>(frame.height);
  if (fit_ == Fit::kScaleToFit) {
    LookAtSize();  // the viewer may have resized it
    w = width_;
    h = height_;
  }
  if (w <= 0 || h <= 0) return;
  XImage* image = ImageFor(w, h);
  if (image == nullptr) return;
  Convert(frame, image, w, h);
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

}  // namespace strata::present
