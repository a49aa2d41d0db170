#include "serve/frame_display.h"

#include <X11/Xutil.h>

#include <algorithm>
#include <cstdlib>

#include "serve/log.h"

namespace strata::serve {
namespace {

// A new window's size: the frame's, made to fit within this box.
constexpr int kMaxWidth = 640, kMaxHeight = 480;

}  // namespace

std::unique_ptr<FrameDisplay> FrameDisplay::Open(std::string* error) {
  const char* name = std::getenv("DISPLAY");
  Display* display = XOpenDisplay(nullptr);
  if (display == nullptr) {
    *error = std::string("--display: cannot open the X display ") +
             (name != nullptr && *name != '\0' ? "'" + std::string(name) + "'" : "(DISPLAY is not set)");
    return nullptr;
  }
  return std::unique_ptr<FrameDisplay>(new FrameDisplay(display));
}

FrameDisplay::FrameDisplay(Display* display)
    : display_(display), delete_window_(XInternAtom(display, "WM_DELETE_WINDOW", False)) {}

FrameDisplay::~FrameDisplay() {
  std::lock_guard lock(mu_);
  for (auto& [key, shown] : windows_) Destroy(shown);
  windows_.clear();
  XCloseDisplay(display_);
}

void FrameDisplay::Destroy(Shown& shown) {
  shown.presenter.reset();  // its own X connection first
  XDestroyWindow(display_, shown.window);
  XFlush(display_);
}

void FrameDisplay::Show(const std::string& session, uint64_t surface, const std::string& client,
                        const stream::FramebufferImage& frame) {
  if (frame.width == 0 || frame.height == 0) return;
  std::shared_ptr<present::WindowPresenter> presenter;
  {
    std::lock_guard lock(mu_);
    Shown& shown = windows_[{session, surface}];
    if (shown.window == 0) {
      const std::string what = client + ", surface " + std::to_string(surface);
      const double scale = std::min({1.0, static_cast<double>(kMaxWidth) / static_cast<double>(frame.width),
                                     static_cast<double>(kMaxHeight) / static_cast<double>(frame.height)});
      const unsigned w = std::max(16u, static_cast<unsigned>(static_cast<double>(frame.width) * scale));
      const unsigned h = std::max(16u, static_cast<unsigned>(static_cast<double>(frame.height) * scale));
      // Down the screen's right edge (the apps' own windows tend to open at the left).
      const int x = std::max(0, DisplayWidth(display_, DefaultScreen(display_)) - static_cast<int>(w));
      const int y = static_cast<int>(windows_.size() - 1) % 8 * 40;
      shown.window = XCreateSimpleWindow(display_, DefaultRootWindow(display_), x, y, w, h, 0, 0, 0);
      XStoreName(display_, shown.window, ("strata serve: " + what).c_str());
      // Closing it in a window manager must not end the renderer's X connection.
      XSetWMProtocols(display_, shown.window, &delete_window_, 1);
      XMapWindow(display_, shown.window);
      XSync(display_, False);
      shown.presenter =
          present::WindowPresenter::Create(display_, shown.window, present::WindowPresenter::Fit::kScaleToFit);
      Log("showing " + what + " in a window of " + std::to_string(w) + "x" + std::to_string(h));
    }
    presenter = shown.presenter;
  }
  if (presenter) presenter->Present(frame);
}

void FrameDisplay::Forget(const std::string& session, uint64_t surface) {
  std::lock_guard lock(mu_);
  auto it = windows_.find({session, surface});
  if (it == windows_.end()) return;
  Destroy(it->second);
  windows_.erase(it);
}

void FrameDisplay::ForgetSession(const std::string& session) {
  std::lock_guard lock(mu_);
  for (auto it = windows_.begin(); it != windows_.end();) {
    if (it->first.first != session) {
      ++it;
      continue;
    }
    Destroy(it->second);
    it = windows_.erase(it);
  }
}

}  // namespace strata::serve
