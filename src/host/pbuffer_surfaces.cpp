// Headless replay: every traced window becomes a pbuffer of the same size.
#include <EGL/egl.h>
#include <EGL/eglext.h>

#include "host/surface_factory.h"

namespace strata::host {
namespace {

class PbufferSurfaceFactory : public SurfaceFactory {
 public:
  explicit PbufferSurfaceFactory(const HostDriver& driver) : driver_(driver) {}

  EGLDisplay OpenDisplay(std::string* error) override {
    auto get_platform_display = driver_.Get<PFNEGLGETPLATFORMDISPLAYPROC>(api::eglGetPlatformDisplay);
    EGLDisplay display = EGL_NO_DISPLAY;
    if (get_platform_display) display = get_platform_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
    if (display == EGL_NO_DISPLAY) {
      display = driver_.Get<PFNEGLGETDISPLAYPROC>(api::eglGetDisplay)(EGL_DEFAULT_DISPLAY);
    }
    if (display == EGL_NO_DISPLAY) *error = "the host EGL has neither a surfaceless nor a default display";
    return display;
  }

  EGLSurface CreateWindowSurface(EGLDisplay display, EGLConfig config, int width, int height,
                                 std::string* error) override {
    const EGLint attribs[] = {EGL_WIDTH, width, EGL_HEIGHT, height, EGL_NONE};
    EGLSurface surface = driver_.Get<PFNEGLCREATEPBUFFERSURFACEPROC>(api::eglCreatePbufferSurface)(display, config, attribs);
    if (surface == EGL_NO_SURFACE) {
      *error = "cannot create a " + std::to_string(width) + "x" + std::to_string(height) +
               " pbuffer for a traced window (EGL error 0x" +
               [&] {
                 char hex[16];
                 snprintf(hex, sizeof hex, "%x", driver_.Get<PFNEGLGETERRORPROC>(api::eglGetError)());
                 return std::string(hex);
               }() +
               ")";
    }
    return surface;
  }

  EGLint window_surface_bit() const override { return EGL_PBUFFER_BIT; }

 private:
  const HostDriver& driver_;
};

}  // namespace

std::unique_ptr<SurfaceFactory> MakePbufferSurfaceFactory(const HostDriver& driver) {
  return std::make_unique<PbufferSurfaceFactory>(driver);
}

}  // namespace strata::host
