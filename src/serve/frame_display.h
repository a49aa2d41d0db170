#pragma once
// `strata serve --display`: each client window's frames shown in a window of
// the renderer's own as well, scaled to fit (the seed's sub-window on the
// host), one per client window surface, titled with the client and the
// surface, gone when the surface or the client is.

#include <X11/Xlib.h>

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "present/window_presenter.h"
#include "stream/framebuffer_record.h"

namespace strata::serve {

class FrameDisplay {
 public:
  // On the X display $DISPLAY names; null with one line in *error.
  static std::unique_ptr<FrameDisplay> Open(std::string* error);
  ~FrameDisplay();
  FrameDisplay(const FrameDisplay&) = delete;
  FrameDisplay& operator=(const FrameDisplay&) = delete;

  // Shows `frame` in the window of (session, surface), made on first use and
  // titled with `client` (ClientInfo::Describe) and the surface.
  void Show(const std::string& session, uint64_t surface, const std::string& client,
            const stream::FramebufferImage& frame);
  // The surface was destroyed: its window goes.
  void Forget(const std::string& session, uint64_t surface);
  // The client is gone: all its windows go.
  void ForgetSession(const std::string& session);

 private:
  explicit FrameDisplay(Display* display);
  struct Shown {
    Window window = 0;
    std::shared_ptr<present::WindowPresenter> presenter;
  };
  void Destroy(Shown& shown);  // under mu_

  std::mutex mu_;
  Display* display_;
  Atom delete_window_;
  std::map<std::pair<std::string, uint64_t>, Shown> windows_;
};

}  // namespace strata::serve
