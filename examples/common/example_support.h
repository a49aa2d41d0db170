// Shared helpers for the Strata sample apps.
//
// The samples are deliberately ordinary GLES programs: they link only the
// system libEGL / libGLESv2 / libGLESv1_CM / libX11 / libpng and know nothing
// about Strata.  This library gives them a common command line, EGL setup
// (headless surfaceless pbuffer or an X11 window), a deterministic frame loop
// and PNG output, so each app only has to describe its scene.
//
// The library itself calls only GL entry points that exist in both
// libGLESv1_CM and libGLESv2 (glGetError, glReadPixels, glGetString, ...);
// they are resolved against whichever GLES library the app links.  Framebuffer
// object functions, which differ between GLES 1 (OES suffix) and GLES 2+, are
// fetched through eglGetProcAddress.
#pragma once

#include <EGL/egl.h>

#include <cstdint>
#include <string>
#include <vector>

namespace ex {

struct AppInfo {
  const char* name;     // binary name, used as the prefix of every message
  const char* summary;  // one-line description shown by --help
  int gles_major;       // client API version to ask for: 1, 2 or 3
};

struct Options {
  int frames = 120;
  int width = 320;
  int height = 240;
  std::string output;      // empty: do not save
  bool window = false;     // X11 window instead of a headless pbuffer
  bool force_fbo = false;  // headless: skip the pbuffer, render into an FBO
  bool verbose = false;
  bool error_at_swap = false;  // leave GL_INVALID_ENUM unasked at the first swap
};

// What a scene gets to know about the surface it renders into.
struct Context {
  const AppInfo* app = nullptr;
  Options options;
  int width = 0;
  int height = 0;
  // Framebuffer object name that stands for "the window": 0 when rendering to
  // an EGL surface, the support library's FBO in --fbo mode.  Scenes that bind
  // their own FBOs (GLES 2+) must bind this one again before returning from
  // draw().
  unsigned default_framebuffer = 0;
  EGLDisplay display = EGL_NO_DISPLAY;
};

class Scene {
 public:
  virtual ~Scene() = default;
  // Called once with the context current, before the first frame.
  virtual void init(const Context& ctx) = 0;
  // Renders frame `frame` (0-based).  Animation must depend only on `frame`.
  virtual void draw(const Context& ctx, int frame) = 0;
  // Called once with the context still current, after the last frame.
  virtual void cleanup(const Context& ctx) { (void)ctx; }
};

// Parses the command line, sets up EGL, runs the frame loop, optionally saves
// the last frame, prints the summary line and tears everything down.
// Returns the process exit status (0); errors exit the process directly.
int run(const AppInfo& app, int argc, char** argv, Scene& scene);

// Parses argv.  Exits 0 after --help, 2 on a usage error.
Options parse_options(const AppInfo& app, int argc, char** argv);
void print_usage(const AppInfo& app, bool to_stderr);

// Prints "<app>: error: <message>" to stderr and exits with status 1.
[[noreturn]] void fail(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
// Fails if glGetError() reports anything; `what` says what was being done.
void check_gl(const char* what);
// Fails with the current eglGetError() if `ok` is false.
void check_egl(bool ok, const char* what);

const char* gl_error_name(unsigned error);
const char* egl_error_name(EGLint error);

// Writes 8-bit RGBA pixels, rows top to bottom.  Returns false and fills
// *error on failure.
bool write_png(const std::string& path, int width, int height,
               const std::vector<std::uint8_t>& rgba, std::string* error);

}  // namespace ex
