// Replay in windows: every traced window becomes an X11 window of the same size.
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <EGL/egl.h>
#include <EGL/eglext.h>

#include <vector>

#include "host/surface_factory.h"

namespace strata::host {
namespace {

class X11SurfaceFactory : public SurfaceFactory {
 public:
  X11SurfaceFactory(const HostDriver& driver, Display* x_display) : driver_(driver), x_display_(x_display) {}
  ~X11SurfaceFactory() override {
    for (Window window : windows_) XDestroyWindow(x_display_, window);
    // The display stays open: the driver may still reference it at exit.
  }

  EGLDisplay OpenDisplay(std::string* error) override {
    auto get_platform_display = driver_.Get<PFNEGLGETPLATFORMDISPLAYPROC>(api::eglGetPlatformDisplay);
    EGLDisplay display = get_platform_display ? get_platform_display(EGL_PLATFORM_X11_KHR, x_display_, nullptr)
                                              : EGL_NO_DISPLAY;
    if (display == EGL_NO_DISPLAY) *error = "the host EGL has no X11 platform display";
    return display;
  }

  EGLSurface CreateWindowSurface(EGLDisplay display, EGLConfig config, int width, int height,
                                 std::string* error) override {
    EGLint visual_id = 0;
    driver_.Get<PFNEGLGETCONFIGATTRIBPROC>(api::eglGetConfigAttrib)(display, config, EGL_NATIVE_VISUAL_ID, &visual_id);
    XVisualInfo wanted{};
    wanted.visualid = static_cast<VisualID>(visual_id);
    int count = 0;
    XVisualInfo* info = XGetVisualInfo(x_display_, VisualIDMask, &wanted, &count);
    Window root = DefaultRootWindow(x_display_);
    XSetWindowAttributes attributes{};
    unsigned long mask = 0;
    Visual* visual = CopyFromParent;
    int depth = CopyFromParent;
    if (info != nullptr && count > 0) {
      visual = info->visual;
      depth = info->depth;
      attributes.colormap = XCreateColormap(x_display_, root, visual, AllocNone);
      attributes.border_pixel = 0;
      mask = CWColormap | CWBorderPixel;
    }
    Window window = XCreateWindow(x_display_, root, 0, 0, static_cast<unsigned>(width), static_cast<unsigned>(height),
                                  0, depth, InputOutput, visual, mask, &attributes);
    if (info) XFree(info);
    XStoreName(x_display_, window, "strata replay");
    XMapWindow(x_display_, window);
    XFlush(x_display_);
    windows_.push_back(window);
    EGLSurface surface = driver_.Get<PFNEGLCREATEWINDOWSURFACEPROC>(api::eglCreateWindowSurface)(
        display, config, static_cast<EGLNativeWindowType>(window), nullptr);
    if (surface == EGL_NO_SURFACE) *error = "cannot create an EGL surface for an X11 window";
    return surface;
  }

  EGLint window_surface_bit() const override { return EGL_WINDOW_BIT; }

 private:
  const HostDriver& driver_;
  Display* x_display_;
  std::vector<Window> windows_;
};

}  // namespace

std::unique_ptr<SurfaceFactory> MakeX11SurfaceFactory(const HostDriver& driver, std::string* error) {
  Display* x_display = XOpenDisplay(nullptr);
  if (x_display == nullptr) {
    *error = "cannot open the X11 display (is DISPLAY set?)";
    return nullptr;
  }
  return std::make_unique<X11SurfaceFactory>(driver, x_display);
}

}  // namespace strata::host
