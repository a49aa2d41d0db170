#include "example_support.h"

#include <EGL/eglext.h>
#include <GLES2/gl2.h>  // types, enums and prototypes shared with GLES 1.x
#include <png.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <climits>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>

// Xlib last: it defines macros such as None, Bool and Status.
#include <X11/Xlib.h>
#include <X11/Xutil.h>

namespace ex {
namespace {

const char* g_app_name = "example";

constexpr int kMaxDimension = 16384;

// ---------------------------------------------------------------------------
// Command line

[[noreturn]] void usage_error(const AppInfo& app, const char* fmt, ...)
    __attribute__((format(printf, 2, 3)));

void usage_error(const AppInfo& app, const char* fmt, ...) {
  std::fprintf(stderr, "%s: error: ", app.name);
  va_list args;
  va_start(args, fmt);
  std::vfprintf(stderr, fmt, args);
  va_end(args);
  std::fputc('\n', stderr);
  print_usage(app, true);
  std::exit(2);
}

bool parse_int(std::string_view text, int* value) {
  if (text.empty()) return false;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, *value);
  return ec == std::errc() && ptr == end;
}

bool parse_size(std::string_view text, int* width, int* height) {
  const auto x = text.find_first_of("xX");
  if (x == std::string_view::npos) return false;
  return parse_int(text.substr(0, x), width) && parse_int(text.substr(x + 1), height) &&
         *width >= 1 && *height >= 1 && *width <= kMaxDimension && *height <= kMaxDimension;
}

// ---------------------------------------------------------------------------
// EGL

bool has_extension(const char* list, const char* name) {
  if (list == nullptr) return false;
  const std::size_t len = std::strlen(name);
  for (const char* p = list; (p = std::strstr(p, name)) != nullptr; p += len) {
    const bool starts = p == list || p[-1] == ' ';
    const bool ends = p[len] == '\0' || p[len] == ' ';
    if (starts && ends) return true;
  }
  return false;
}

EGLint config_attrib(EGLDisplay dpy, EGLConfig config, EGLint attrib) {
  EGLint value = 0;
  eglGetConfigAttrib(dpy, config, attrib, &value);
  return value;
}

// Gets a display for `platform` (an EGL_PLATFORM_* enum) and `native`, through
// EGL 1.5's eglGetPlatformDisplay or EGL_EXT_platform_base.  Both are looked
// up with eglGetProcAddress so the app does not need the 1.5 symbol at link
// time.  Returns EGL_NO_DISPLAY if neither is available.
EGLDisplay get_platform_display(EGLenum platform, void* native) {
  const char* client_version = eglQueryString(EGL_NO_DISPLAY, EGL_VERSION);
  const char* client_exts = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
  int major = 0, minor = 0;
  if (client_version != nullptr && std::sscanf(client_version, "%d.%d", &major, &minor) == 2 &&
      (major > 1 || (major == 1 && minor >= 5))) {
    auto get = reinterpret_cast<PFNEGLGETPLATFORMDISPLAYPROC>(
        eglGetProcAddress("eglGetPlatformDisplay"));
    if (get != nullptr) return get(platform, native, nullptr);
  }
  if (has_extension(client_exts, "EGL_EXT_platform_base")) {
    auto get = reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(
        eglGetProcAddress("eglGetPlatformDisplayEXT"));
    if (get != nullptr) return get(platform, native, nullptr);
  }
  return EGL_NO_DISPLAY;
}

// Picks the config closest to "RGB 8/8/8, no alpha, depth 24, single sample".
// eglChooseConfig sorts deeper colour buffers first (Mesa lists its 10-bit
// configs before the 8-bit ones), so the first result is not what we want.
EGLConfig choose_config(EGLDisplay dpy, EGLint surface_type, EGLint renderable,
                        bool need_visual) {
  const EGLint attribs[] = {
      EGL_SURFACE_TYPE, surface_type,  //
      EGL_RENDERABLE_TYPE, renderable,  //
      EGL_RED_SIZE, 8,                  //
      EGL_GREEN_SIZE, 8,                //
      EGL_BLUE_SIZE, 8,                 //
      EGL_DEPTH_SIZE, 16,               //
      EGL_NONE,
  };
  EGLint count = 0;
  check_egl(eglChooseConfig(dpy, attribs, nullptr, 0, &count), "eglChooseConfig");
  if (count <= 0) return nullptr;
  std::vector<EGLConfig> configs(static_cast<std::size_t>(count));
  check_egl(eglChooseConfig(dpy, attribs, configs.data(), count, &count), "eglChooseConfig");
  configs.resize(static_cast<std::size_t>(count));

  EGLConfig best = nullptr;
  long best_score = LONG_MAX;
  for (EGLConfig config : configs) {
    if (need_visual && config_attrib(dpy, config, EGL_NATIVE_VISUAL_ID) == 0) continue;
    long score = 0;
    const EGLint r = config_attrib(dpy, config, EGL_RED_SIZE);
    const EGLint g = config_attrib(dpy, config, EGL_GREEN_SIZE);
    const EGLint b = config_attrib(dpy, config, EGL_BLUE_SIZE);
    if (r != 8 || g != 8 || b != 8) score += 100000;
    if (config_attrib(dpy, config, EGL_SAMPLES) != 0) score += 10000;
    if (config_attrib(dpy, config, EGL_ALPHA_SIZE) != 0) score += 1000;
    if (config_attrib(dpy, config, EGL_DEPTH_SIZE) < 24) score += 100;
    if (config_attrib(dpy, config, EGL_STENCIL_SIZE) != 0) score += 1;
    if (score < best_score) {
      best_score = score;
      best = config;
    }
  }
  return best;
}

// ---------------------------------------------------------------------------
// Offscreen framebuffer for --fbo (or when surfaceless offers no pbuffers)

struct FboFunctions {
  PFNGLGENFRAMEBUFFERSPROC gen_framebuffers = nullptr;
  PFNGLBINDFRAMEBUFFERPROC bind_framebuffer = nullptr;
  PFNGLFRAMEBUFFERTEXTURE2DPROC framebuffer_texture_2d = nullptr;
  PFNGLGENRENDERBUFFERSPROC gen_renderbuffers = nullptr;
  PFNGLBINDRENDERBUFFERPROC bind_renderbuffer = nullptr;
  PFNGLRENDERBUFFERSTORAGEPROC renderbuffer_storage = nullptr;
  PFNGLFRAMEBUFFERRENDERBUFFERPROC framebuffer_renderbuffer = nullptr;
  PFNGLCHECKFRAMEBUFFERSTATUSPROC check_framebuffer_status = nullptr;
  PFNGLDELETEFRAMEBUFFERSPROC delete_framebuffers = nullptr;
  PFNGLDELETERENDERBUFFERSPROC delete_renderbuffers = nullptr;

  bool loaded() const { return bind_framebuffer != nullptr; }
};

template <typename T>
void load_proc(T* fn, const char* base, const char* suffix) {
  const std::string name = std::string(base) + suffix;
  *fn = reinterpret_cast<T>(eglGetProcAddress(name.c_str()));
  if (*fn == nullptr) fail("eglGetProcAddress(\"%s\") returned NULL", name.c_str());
}

FboFunctions load_fbo_functions(int gles_major) {
  const char* suffix = "";
  if (gles_major == 1) {
    const char* exts = reinterpret_cast<const char*>(glGetString(GL_EXTENSIONS));
    if (!has_extension(exts, "GL_OES_framebuffer_object"))
      fail("GLES 1 context lacks GL_OES_framebuffer_object; cannot render without a surface");
    suffix = "OES";
  }
  FboFunctions f;
  load_proc(&f.gen_framebuffers, "glGenFramebuffers", suffix);
  load_proc(&f.bind_framebuffer, "glBindFramebuffer", suffix);
  load_proc(&f.framebuffer_texture_2d, "glFramebufferTexture2D", suffix);
  load_proc(&f.gen_renderbuffers, "glGenRenderbuffers", suffix);
  load_proc(&f.bind_renderbuffer, "glBindRenderbuffer", suffix);
  load_proc(&f.renderbuffer_storage, "glRenderbufferStorage", suffix);
  load_proc(&f.framebuffer_renderbuffer, "glFramebufferRenderbuffer", suffix);
  load_proc(&f.check_framebuffer_status, "glCheckFramebufferStatus", suffix);
  load_proc(&f.delete_framebuffers, "glDeleteFramebuffers", suffix);
  load_proc(&f.delete_renderbuffers, "glDeleteRenderbuffers", suffix);
  return f;
}

struct Offscreen {
  GLuint framebuffer = 0;
  GLuint color = 0;  // texture
  GLuint depth = 0;  // renderbuffer
};

// The GLES 1 OES_framebuffer_object enums have the same values as the GLES 2
// core ones used here.
// Depth is 24-bit where the context allows it (GLES 3, or GL_OES_depth24),
// matching the pbuffer configs, so --fbo renders the same pixels.
Offscreen create_offscreen(const FboFunctions& f, int gles_major, int width, int height) {
  Offscreen o;
  glGenTextures(1, &o.color);
  glBindTexture(GL_TEXTURE_2D, o.color);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  glBindTexture(GL_TEXTURE_2D, 0);
  f.gen_renderbuffers(1, &o.depth);
  f.bind_renderbuffer(GL_RENDERBUFFER, o.depth);
  const char* exts = reinterpret_cast<const char*>(glGetString(GL_EXTENSIONS));
  constexpr GLenum kDepth24 = 0x81A6;  // GL_DEPTH_COMPONENT24(_OES)
  const bool depth24 = gles_major >= 3 || has_extension(exts, "GL_OES_depth24");
  f.renderbuffer_storage(GL_RENDERBUFFER, depth24 ? kDepth24 : GL_DEPTH_COMPONENT16, width,
                         height);
  f.bind_renderbuffer(GL_RENDERBUFFER, 0);
  f.gen_framebuffers(1, &o.framebuffer);
  f.bind_framebuffer(GL_FRAMEBUFFER, o.framebuffer);
  f.framebuffer_texture_2d(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, o.color, 0);
  f.framebuffer_renderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, o.depth);
  const GLenum status = f.check_framebuffer_status(GL_FRAMEBUFFER);
  if (status != GL_FRAMEBUFFER_COMPLETE)
    fail("offscreen framebuffer %dx%d is incomplete (status 0x%04x)", width, height, status);
  check_gl("creating the offscreen framebuffer");
  return o;
}

void destroy_offscreen(const FboFunctions& f, Offscreen* o) {
  f.bind_framebuffer(GL_FRAMEBUFFER, 0);
  f.delete_framebuffers(1, &o->framebuffer);
  f.delete_renderbuffers(1, &o->depth);
  glDeleteTextures(1, &o->color);
  *o = Offscreen{};
}

// ---------------------------------------------------------------------------
// X11 window

struct X11Window {
  Display* display = nullptr;
  Window window = 0;
  Colormap colormap = 0;
  Atom wm_delete = 0;
};

// Creates and maps a window on `display` with the visual EGL asked for.
X11Window create_window(Display* display, const AppInfo& app, EGLint visual_id, int width,
                        int height) {
  X11Window w;
  w.display = display;
  XVisualInfo templ{};
  templ.visualid = static_cast<VisualID>(visual_id);
  int n = 0;
  XVisualInfo* info = XGetVisualInfo(w.display, VisualIDMask, &templ, &n);
  if (info == nullptr || n == 0) fail("no X visual matches EGL native visual 0x%x", visual_id);
  const Window root = RootWindow(w.display, info->screen);
  w.colormap = XCreateColormap(w.display, root, info->visual, AllocNone);
  XSetWindowAttributes attrs{};
  attrs.colormap = w.colormap;
  attrs.background_pixel = 0;
  attrs.border_pixel = 0;
  attrs.event_mask = StructureNotifyMask | ExposureMask | KeyPressMask;
  w.window = XCreateWindow(w.display, root, 0, 0, static_cast<unsigned>(width),
                           static_cast<unsigned>(height), 0, info->depth, InputOutput,
                           info->visual, CWColormap | CWBackPixel | CWBorderPixel | CWEventMask,
                           &attrs);
  XFree(info);

  // Fixed size, so the saved frame always has the requested dimensions.
  XSizeHints hints{};
  hints.flags = PMinSize | PMaxSize;
  hints.min_width = hints.max_width = width;
  hints.min_height = hints.max_height = height;
  XSetWMNormalHints(w.display, w.window, &hints);
  XStoreName(w.display, w.window, app.name);
  w.wm_delete = XInternAtom(w.display, "WM_DELETE_WINDOW", False);
  XSetWMProtocols(w.display, w.window, &w.wm_delete, 1);
  XMapWindow(w.display, w.window);
  // Wait until the window is mapped before rendering into it.
  for (;;) {
    XEvent event;
    XNextEvent(w.display, &event);
    if (event.type == MapNotify && event.xmap.window == w.window) break;
  }
  return w;
}

// Drains pending events; returns true if the user asked to close the window
// (window manager close button, Escape or q).
bool poll_window(const X11Window& w) {
  bool quit = false;
  while (XPending(w.display) > 0) {
    XEvent event;
    XNextEvent(w.display, &event);
    if (event.type == ClientMessage &&
        static_cast<Atom>(event.xclient.data.l[0]) == w.wm_delete) {
      quit = true;
    } else if (event.type == KeyPress) {
      const KeySym sym = XLookupKeysym(&event.xkey, 0);
      if (sym == XK_Escape || sym == XK_q) quit = true;
    }
  }
  return quit;
}

void destroy_window(X11Window* w) {
  if (w->display == nullptr) return;
  XDestroyWindow(w->display, w->window);
  XFreeColormap(w->display, w->colormap);
  XCloseDisplay(w->display);
  *w = X11Window{};
}

std::vector<std::uint8_t> read_frame(int width, int height, bool force_opaque) {
  const std::size_t row = static_cast<std::size_t>(width) * 4;
  std::vector<std::uint8_t> bottom_up(row * static_cast<std::size_t>(height));
  glPixelStorei(GL_PACK_ALIGNMENT, 4);
  glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, bottom_up.data());
  check_gl("reading back the last frame");
  std::vector<std::uint8_t> top_down(bottom_up.size());
  for (int y = 0; y < height; ++y) {
    std::memcpy(&top_down[static_cast<std::size_t>(y) * row],
                &bottom_up[static_cast<std::size_t>(height - 1 - y) * row], row);
  }
  if (force_opaque) {
    for (std::size_t i = 3; i < top_down.size(); i += 4) top_down[i] = 255;
  }
  return top_down;
}

}  // namespace

// ---------------------------------------------------------------------------
// Public API

void print_usage(const AppInfo& app, bool to_stderr) {
  std::FILE* out = to_stderr ? stderr : stdout;
  std::fprintf(out,
               "Usage: %s [OPTIONS]\n"
               "\n"
               "%s\n"
               "\n"
               "Options:\n"
               "  --frames N       number of frames to render (default 120)\n"
               "  --size WxH       surface size in pixels (default 320x240)\n"
               "  --output FILE    save the last rendered frame as an RGBA PNG\n"
               "  --window         render into an X11 window instead of headless\n"
               "  --fbo            headless: render into a framebuffer object with no EGL\n"
               "                   surface (needs EGL_KHR_surfaceless_context)\n"
               "  --verbose        print EGL and GL implementation details to stderr\n"
               "  --error-at-swap  leave a GL error (GL_INVALID_ENUM) unasked at the first\n"
               "                   swap and fail unless glGetError reports it after it\n"
               "  -h, --help       show this help and exit\n"
               "\n"
               "Headless runs use EGL_MESA_platform_surfaceless and a pbuffer surface.\n"
               "The animation depends only on the frame index, so output is reproducible.\n",
               app.name, app.summary);
}

Options parse_options(const AppInfo& app, int argc, char** argv) {
  Options opts;
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    std::string_view name = arg;
    std::string_view inline_value;
    bool has_inline = false;
    if (arg.starts_with("--")) {
      const auto eq = arg.find('=');
      if (eq != std::string_view::npos) {
        name = arg.substr(0, eq);
        inline_value = arg.substr(eq + 1);
        has_inline = true;
      }
    }
    auto value = [&]() -> std::string_view {
      if (has_inline) return inline_value;
      if (i + 1 >= argc) usage_error(app, "option '%s' needs a value", argv[i]);
      return argv[++i];
    };
    auto no_value = [&]() {
      if (has_inline)
        usage_error(app, "option '%.*s' takes no value", static_cast<int>(name.size()),
                    name.data());
    };

    if (name == "-h" || name == "--help") {
      no_value();
      print_usage(app, false);
      std::exit(0);
    } else if (name == "--frames") {
      const std::string_view v = value();
      if (!parse_int(v, &opts.frames) || opts.frames < 1)
        usage_error(app, "--frames needs a positive integer, got '%.*s'",
                    static_cast<int>(v.size()), v.data());
    } else if (name == "--size") {
      const std::string_view v = value();
      if (!parse_size(v, &opts.width, &opts.height))
        usage_error(app, "--size needs WxH with 1..%d pixels per side, got '%.*s'",
                    kMaxDimension, static_cast<int>(v.size()), v.data());
    } else if (name == "--output") {
      const std::string_view v = value();
      if (v.empty()) usage_error(app, "--output needs a file name");
      opts.output = std::string(v);
    } else if (name == "--window") {
      no_value();
      opts.window = true;
    } else if (name == "--fbo") {
      no_value();
      opts.force_fbo = true;
    } else if (name == "--verbose") {
      no_value();
      opts.verbose = true;
    } else if (name == "--error-at-swap") {
      no_value();
      opts.error_at_swap = true;
    } else if (arg.starts_with("-")) {
      usage_error(app, "unknown option '%s'", argv[i]);
    } else {
      usage_error(app, "unexpected argument '%s'", argv[i]);
    }
  }
  if (opts.window && opts.force_fbo) usage_error(app, "--fbo cannot be combined with --window");
  return opts;
}

void fail(const char* fmt, ...) {
  std::fflush(stdout);
  std::fprintf(stderr, "%s: error: ", g_app_name);
  va_list args;
  va_start(args, fmt);
  std::vfprintf(stderr, fmt, args);
  va_end(args);
  std::fputc('\n', stderr);
  std::exit(1);
}

const char* gl_error_name(unsigned error) {
  switch (error) {
    case GL_NO_ERROR: return "GL_NO_ERROR";
    case GL_INVALID_ENUM: return "GL_INVALID_ENUM";
    case GL_INVALID_VALUE: return "GL_INVALID_VALUE";
    case GL_INVALID_OPERATION: return "GL_INVALID_OPERATION";
    case 0x0503: return "GL_STACK_OVERFLOW";
    case 0x0504: return "GL_STACK_UNDERFLOW";
    case GL_OUT_OF_MEMORY: return "GL_OUT_OF_MEMORY";
    case GL_INVALID_FRAMEBUFFER_OPERATION: return "GL_INVALID_FRAMEBUFFER_OPERATION";
    default: return "unknown GL error";
  }
}

const char* egl_error_name(EGLint error) {
  switch (error) {
    case EGL_SUCCESS: return "EGL_SUCCESS";
    case EGL_NOT_INITIALIZED: return "EGL_NOT_INITIALIZED";
    case EGL_BAD_ACCESS: return "EGL_BAD_ACCESS";
    case EGL_BAD_ALLOC: return "EGL_BAD_ALLOC";
    case EGL_BAD_ATTRIBUTE: return "EGL_BAD_ATTRIBUTE";
    case EGL_BAD_CONFIG: return "EGL_BAD_CONFIG";
    case EGL_BAD_CONTEXT: return "EGL_BAD_CONTEXT";
    case EGL_BAD_CURRENT_SURFACE: return "EGL_BAD_CURRENT_SURFACE";
    case EGL_BAD_DISPLAY: return "EGL_BAD_DISPLAY";
    case EGL_BAD_MATCH: return "EGL_BAD_MATCH";
    case EGL_BAD_NATIVE_PIXMAP: return "EGL_BAD_NATIVE_PIXMAP";
    case EGL_BAD_NATIVE_WINDOW: return "EGL_BAD_NATIVE_WINDOW";
    case EGL_BAD_PARAMETER: return "EGL_BAD_PARAMETER";
    case EGL_BAD_SURFACE: return "EGL_BAD_SURFACE";
    case EGL_CONTEXT_LOST: return "EGL_CONTEXT_LOST";
    default: return "unknown EGL error";
  }
}

void check_gl(const char* what) {
  const GLenum first = glGetError();
  if (first == GL_NO_ERROR) return;
  // Drain any further queued errors so the message is about the first one.
  for (int i = 0; i < 16 && glGetError() != GL_NO_ERROR; ++i) {
  }
  fail("GL error %s (0x%04x) while %s", gl_error_name(first), first, what);
}

void check_egl(bool ok, const char* what) {
  if (ok) return;
  const EGLint error = eglGetError();
  fail("%s failed: %s (0x%04x)", what, egl_error_name(error), error);
}

bool write_png(const std::string& path, int width, int height,
               const std::vector<std::uint8_t>& rgba, std::string* error) {
  png_image image;
  std::memset(&image, 0, sizeof image);
  image.version = PNG_IMAGE_VERSION;
  image.width = static_cast<png_uint_32>(width);
  image.height = static_cast<png_uint_32>(height);
  image.format = PNG_FORMAT_RGBA;
  if (rgba.size() != static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 4) {
    *error = "pixel buffer has the wrong size";
    return false;
  }
  if (png_image_write_to_file(&image, path.c_str(), 0, rgba.data(), width * 4, nullptr) == 0) {
    *error = image.message;
    png_image_free(&image);
    return false;
  }
  png_image_free(&image);
  return true;
}

int run(const AppInfo& app, int argc, char** argv, Scene& scene) {
  g_app_name = app.name;
  Context ctx;
  ctx.app = &app;
  ctx.options = parse_options(app, argc, argv);
  const Options& opts = ctx.options;
  ctx.width = opts.width;
  ctx.height = opts.height;

  // --- Display ------------------------------------------------------------
  X11Window xwin;
  EGLDisplay dpy = EGL_NO_DISPLAY;
  const char* client_exts = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
  if (opts.window) {
    xwin.display = XOpenDisplay(nullptr);
    if (xwin.display == nullptr) {
      const char* name = std::getenv("DISPLAY");
      fail("cannot open X display '%s' (is DISPLAY set? try xvfb-run -a)", name ? name : "");
    }
    if (has_extension(client_exts, "EGL_KHR_platform_x11") ||
        has_extension(client_exts, "EGL_EXT_platform_x11"))
      dpy = get_platform_display(EGL_PLATFORM_X11_KHR, xwin.display);
    if (dpy == EGL_NO_DISPLAY)
      dpy = eglGetDisplay(reinterpret_cast<EGLNativeDisplayType>(xwin.display));
    if (dpy == EGL_NO_DISPLAY) fail("no EGL display for the X11 connection");
  } else {
    if (!has_extension(client_exts, "EGL_MESA_platform_surfaceless"))
      fail("EGL_MESA_platform_surfaceless is not supported (client extensions: %s)",
           client_exts ? client_exts : "none");
    dpy = get_platform_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY);
    if (dpy == EGL_NO_DISPLAY) {
      const EGLint error = eglGetError();
      fail("eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA) failed: %s (0x%04x)",
           egl_error_name(error), error);
    }
  }
  ctx.display = dpy;
  EGLint egl_major = 0, egl_minor = 0;
  check_egl(eglInitialize(dpy, &egl_major, &egl_minor), "eglInitialize");
  check_egl(eglBindAPI(EGL_OPENGL_ES_API), "eglBindAPI(EGL_OPENGL_ES_API)");
  const char* display_exts = eglQueryString(dpy, EGL_EXTENSIONS);

  // --- Config -------------------------------------------------------------
  EGLint renderable = EGL_OPENGL_ES2_BIT;
  if (app.gles_major == 1) renderable = EGL_OPENGL_ES_BIT;
  if (app.gles_major >= 3) renderable = EGL_OPENGL_ES3_BIT_KHR;
  bool use_fbo = opts.force_fbo;
  EGLConfig config = nullptr;
  if (opts.window) {
    config = choose_config(dpy, EGL_WINDOW_BIT, renderable, true);
    if (config == nullptr && app.gles_major >= 3)
      config = choose_config(dpy, EGL_WINDOW_BIT, EGL_OPENGL_ES2_BIT, true);
    if (config == nullptr) fail("no EGL config for a GLES %d window", app.gles_major);
  } else {
    if (!use_fbo) {
      config = choose_config(dpy, EGL_PBUFFER_BIT, renderable, false);
      if (config == nullptr && app.gles_major >= 3)
        config = choose_config(dpy, EGL_PBUFFER_BIT, EGL_OPENGL_ES2_BIT, false);
      if (config == nullptr) {
        use_fbo = true;
        if (opts.verbose)
          std::fprintf(stderr, "%s: no pbuffer configs on surfaceless; using an FBO\n",
                       app.name);
      }
    }
    if (use_fbo) {
      if (!has_extension(display_exts, "EGL_KHR_surfaceless_context"))
        fail("no pbuffer config and no EGL_KHR_surfaceless_context: nothing to render into");
      config = choose_config(dpy, EGL_DONT_CARE, renderable, false);
      if (config == nullptr && app.gles_major >= 3)
        config = choose_config(dpy, EGL_DONT_CARE, EGL_OPENGL_ES2_BIT, false);
      if (config == nullptr) fail("no EGL config for GLES %d", app.gles_major);
    }
  }

  // --- Surface ------------------------------------------------------------
  EGLSurface surface = EGL_NO_SURFACE;
  if (opts.window) {
    const EGLint visual = config_attrib(dpy, config, EGL_NATIVE_VISUAL_ID);
    xwin = create_window(xwin.display, app, visual, opts.width, opts.height);
    surface = eglCreateWindowSurface(dpy, config, static_cast<EGLNativeWindowType>(xwin.window),
                                     nullptr);
    check_egl(surface != EGL_NO_SURFACE, "eglCreateWindowSurface");
  } else if (!use_fbo) {
    const EGLint max_w = config_attrib(dpy, config, EGL_MAX_PBUFFER_WIDTH);
    const EGLint max_h = config_attrib(dpy, config, EGL_MAX_PBUFFER_HEIGHT);
    if ((max_w > 0 && opts.width > max_w) || (max_h > 0 && opts.height > max_h))
      fail("size %dx%d exceeds the largest pbuffer (%dx%d)", opts.width, opts.height, max_w,
           max_h);
    const EGLint attribs[] = {EGL_WIDTH, opts.width, EGL_HEIGHT, opts.height, EGL_NONE};
    surface = eglCreatePbufferSurface(dpy, config, attribs);
    check_egl(surface != EGL_NO_SURFACE, "eglCreatePbufferSurface");
  }

  // --- Context ------------------------------------------------------------
  const EGLint ctx_attribs[] = {EGL_CONTEXT_CLIENT_VERSION, app.gles_major, EGL_NONE};
  EGLContext context = eglCreateContext(dpy, config, EGL_NO_CONTEXT, ctx_attribs);
  if (context == EGL_NO_CONTEXT) {
    const EGLint error = eglGetError();
    fail("eglCreateContext(GLES %d) failed: %s (0x%04x)", app.gles_major, egl_error_name(error),
         error);
  }
  check_egl(eglMakeCurrent(dpy, surface, surface, context), "eglMakeCurrent");
  if (surface != EGL_NO_SURFACE) {
    EGLint w = 0, h = 0;
    eglQuerySurface(dpy, surface, EGL_WIDTH, &w);
    eglQuerySurface(dpy, surface, EGL_HEIGHT, &h);
    if (w != opts.width || h != opts.height)
      fail("surface is %dx%d, asked for %dx%d", w, h, opts.width, opts.height);
  }

  if (opts.verbose) {
    auto str = [](GLenum e) {
      const char* s = reinterpret_cast<const char*>(glGetString(e));
      return s ? s : "(null)";
    };
    std::fprintf(stderr,
                 "%s: EGL %d.%d (%s, %s), platform %s, %s\n"
                 "%s: GL_VENDOR %s\n%s: GL_RENDERER %s\n%s: GL_VERSION %s\n",
                 app.name, egl_major, egl_minor, eglQueryString(dpy, EGL_VENDOR),
                 eglQueryString(dpy, EGL_VERSION), opts.window ? "x11" : "surfaceless",
                 opts.window ? "window" : (use_fbo ? "fbo" : "pbuffer"), app.name,
                 str(GL_VENDOR), app.name, str(GL_RENDERER), app.name, str(GL_VERSION));
    if (app.gles_major >= 2)
      std::fprintf(stderr, "%s: GL_SHADING_LANGUAGE_VERSION %s\n", app.name,
                   str(GL_SHADING_LANGUAGE_VERSION));
  }

  FboFunctions fbo_fns;
  if (use_fbo || app.gles_major >= 2) fbo_fns = load_fbo_functions(app.gles_major);
  Offscreen offscreen;
  if (use_fbo) {
    offscreen = create_offscreen(fbo_fns, app.gles_major, opts.width, opts.height);
    ctx.default_framebuffer = offscreen.framebuffer;
  }
  glViewport(0, 0, opts.width, opts.height);
  check_gl("setting up the context");

  // --- Frames -------------------------------------------------------------
  scene.init(ctx);
  check_gl("initialising the scene");

  std::vector<std::uint8_t> last_frame;
  int rendered = 0;
  const auto start = std::chrono::steady_clock::now();
  for (int frame = 0; frame < opts.frames; ++frame) {
    const bool closing = opts.window && poll_window(xwin);
    const bool last = closing || frame + 1 == opts.frames;
    scene.draw(ctx, frame);
    char what[64];
    std::snprintf(what, sizeof what, "drawing frame %d", frame);
    check_gl(what);
    if (last && !opts.output.empty()) {
      if (fbo_fns.loaded()) fbo_fns.bind_framebuffer(GL_FRAMEBUFFER, ctx.default_framebuffer);
      last_frame = read_frame(opts.width, opts.height, use_fbo);
    }
    // A frame that ends with an error nobody asked for, as a careless app leaves it.
    const bool leave_error = opts.error_at_swap && frame == 0 && surface != EGL_NO_SURFACE;
    if (leave_error) glEnable(0x0BAD);
    if (surface != EGL_NO_SURFACE) {
      check_egl(eglSwapBuffers(dpy, surface), "eglSwapBuffers");
      if (leave_error && glGetError() != GL_INVALID_ENUM) fail("the GL error left at the swap was lost");
    } else {
      glFlush();  // no surface to swap in --fbo mode
    }
    ++rendered;
    if (closing) break;
  }
  glFinish();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  scene.cleanup(ctx);
  check_gl("cleaning up the scene");
  if (use_fbo) destroy_offscreen(fbo_fns, &offscreen);

  // --- Teardown -----------------------------------------------------------
  check_egl(eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT),
            "eglMakeCurrent(EGL_NO_CONTEXT)");
  check_egl(eglDestroyContext(dpy, context), "eglDestroyContext");
  if (surface != EGL_NO_SURFACE) check_egl(eglDestroySurface(dpy, surface), "eglDestroySurface");
  check_egl(eglTerminate(dpy), "eglTerminate");
  eglReleaseThread();
  destroy_window(&xwin);

  std::string saved;
  if (!opts.output.empty()) {
    std::string error;
    if (!write_png(opts.output, opts.width, opts.height, last_frame, &error))
      fail("cannot write '%s': %s", opts.output.c_str(), error.c_str());
    saved = "; saved " + opts.output;
  }
  const double fps = seconds > 0.0 ? rendered / seconds : 0.0;
  std::printf("%s: rendered %d frames %dx%d in %.3f s (%.1f fps)%s\n", app.name, rendered,
              opts.width, opts.height, seconds, fps, saved.c_str());
  return 0;
}

}  // namespace ex
