#pragma once
// Where the executor gets its display and the surfaces that stand in for the
// traced program's windows: headless pbuffers, or X11 windows.

#include <EGL/egl.h>

#include <memory>
#include <string>

#include "host/host_driver.h"

namespace strata::host {

class SurfaceFactory {
 public:
  virtual ~SurfaceFactory() = default;
  // The display every traced display maps to; EGL_NO_DISPLAY with *error on failure.
  virtual EGLDisplay OpenDisplay(std::string* error) = 0;
  // A surface of `width`×`height` for a traced window or pixmap surface.
  virtual EGLSurface CreateWindowSurface(EGLDisplay display, EGLConfig config, int width, int height,
                                         std::string* error) = 0;
  // The EGL_SURFACE_TYPE bit configs must have for CreateWindowSurface.
  virtual EGLint window_surface_bit() const = 0;
};

// Pbuffers on Mesa's surfaceless platform (falls back to the default display).
std::unique_ptr<SurfaceFactory> MakePbufferSurfaceFactory(const HostDriver& driver);
// Real X11 windows on $DISPLAY.
std::unique_ptr<SurfaceFactory> MakeX11SurfaceFactory(const HostDriver& driver, std::string* error);

}  // namespace strata::host
