// EGL on the client, as the seed's emulation EGL: the display is the
// client's own; configs, extension strings and errors come from the renderer;
// contexts, surfaces, syncs and images are named by the client (proposed in
// the call record, as a trace records what the driver returned) so that
// creating them costs at most the one round trip that reports success.
// Window surfaces render into a host surface of the window's size; each
// swap brings the frame back and puts it in the window (window_presenter).
#include <X11/Xlib.h>

#include <atomic>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "present/window_presenter.h"
#include "remote/generated_support.h"
#include "remote/glvnd_vendor.h"
#include "remote/hand_call.h"
#include "remote/session.h"
#include "remote/window_sizes.h"

namespace strata::remote {
namespace {

using present::WindowPresenter;

constexpr EGLint kPlatformX11 = 0x31D5, kPlatformSurfaceless = 0x31DD;

// The client's displays, one per platform (their addresses are the handles);
// every one stands for the renderer's display.
struct ClientDisplay {
  EGLint platform;
  std::atomic<bool> initialized{false};
};
ClientDisplay g_x11_display{kPlatformX11}, g_surfaceless_display{kPlatformSurfaceless};

ClientDisplay* DisplayOf(EGLDisplay dpy) {
  if (dpy == &g_x11_display) return &g_x11_display;
  if (dpy == &g_surfaceless_display) return &g_surfaceless_display;
  return nullptr;
}

// Client extensions are the client's own platforms; display extensions are
// the renderer's, less those the client cannot carry.
#define STRATA_PLATFORM_EXTENSIONS "EGL_KHR_platform_x11 EGL_EXT_platform_x11 EGL_MESA_platform_surfaceless"
constexpr char kClientExtensions[] = "EGL_EXT_client_extensions EGL_EXT_platform_base " STRATA_PLATFORM_EXTENSIONS
                                     " EGL_KHR_client_get_all_proc_addresses";
constexpr const char* kCarriedExtensions[] = {
    "EGL_KHR_create_context", "EGL_KHR_surfaceless_context", "EGL_KHR_no_config_context", "EGL_KHR_fence_sync",
    "EGL_KHR_wait_sync", "EGL_KHR_image_base", "EGL_KHR_gl_texture_2D_image", "EGL_KHR_gl_texture_cubemap_image",
    "EGL_KHR_gl_texture_3D_image", "EGL_KHR_gl_renderbuffer_image", "EGL_KHR_get_all_proc_addresses",
    "EGL_KHR_config_attribs", "EGL_EXT_create_context_robustness", "EGL_KHR_create_context_no_error",
    "EGL_KHR_swap_buffers_with_damage", "EGL_EXT_swap_buffers_with_damage", "EGL_KHR_gl_colorspace",
    "EGL_EXT_pixel_format_float", "EGL_KHR_cl_event2", "EGL_KHR_reusable_sync", "EGL_MESA_configless_context",
};

struct Globals {
  std::mutex mu;
  Display* x_display = nullptr;  // the app's, from eglGetDisplay, or our own
  std::unordered_map<uint64_t, std::unique_ptr<ContextShadow>> contexts;
  std::unordered_map<uint64_t, std::shared_ptr<WindowPresenter>> windows;
  std::unordered_set<uint64_t> pbuffers;  // their swaps do nothing, and need no answer
};
Globals& G() {
  static Globals* g = new Globals;
  return *g;
}

thread_local EGLDisplay t_display = EGL_NO_DISPLAY;
thread_local EGLContext t_context = EGL_NO_CONTEXT;
thread_local EGLSurface t_draw = EGL_NO_SURFACE, t_read = EGL_NO_SURFACE;
thread_local EGLint t_swap_interval = 0;

template <typename Fn>
Fn Native(api::Slot slot) {
  return reinterpret_cast<Fn>(NativeFunction(slot));
}

uint64_t H(const void* handle) { return reinterpret_cast<uintptr_t>(handle); }

EGLBoolean Fail(EGLint error) {
  SetThreadEglError(error);
  return EGL_FALSE;
}

size_t AttribBytes(const EGLint* list) { return capture::CaptureSizes::egl_attrib_list_bytes(list); }
size_t AttribBytes(const EGLAttrib* list) { return capture::CaptureSizes::egl_attrib64_list_bytes(list); }

Connection* Egl() {
  Connection* c = ThreadConnection();
  if (c == nullptr) LostEglCall();
  return c;
}

bool Carried(const std::string& name) {
  for (const char* e : kCarriedExtensions) {
    if (name == e) return true;
  }
  return false;
}

// Without a renderer (and no fallback) the display still exists and fails
// eglInitialize, as an EGL with no usable device would.
EGLDisplay OpenDisplay(EGLint platform, void* native) {
  if (platform == kPlatformSurfaceless) return &g_surfaceless_display;
  std::lock_guard lock(G().mu);
  if (native != nullptr && G().x_display == nullptr) G().x_display = static_cast<Display*>(native);
  return &g_x11_display;
}

}  // namespace

const char* ClientPlatformExtensions() { return STRATA_PLATFORM_EXTENSIONS; }

bool DisplayReady(EGLDisplay dpy) {
  const ClientDisplay* display = DisplayOf(dpy);
  if (display == nullptr || !display->initialized) {
    SetThreadEglError(display == nullptr ? EGL_BAD_DISPLAY : EGL_NOT_INITIALIZED);
    return false;
  }
  return true;
}

EGLDisplay Remote_eglGetDisplay(EGLNativeDisplayType display_id) {
  Session::Get().Start();
  if (auto native = Native<PFNEGLGETDISPLAYPROC>(api::eglGetDisplay)) return native(display_id);
  return OpenDisplay(kPlatformX11, reinterpret_cast<void*>(display_id));
}

EGLDisplay Remote_eglGetPlatformDisplay(EGLenum platform, void* native_display, const EGLAttrib* attrib_list) {
  Session::Get().Start();
  if (auto native = Native<PFNEGLGETPLATFORMDISPLAYPROC>(api::eglGetPlatformDisplay)) {
    return native(platform, native_display, attrib_list);
  }
  if (static_cast<EGLint>(platform) != kPlatformX11 && static_cast<EGLint>(platform) != kPlatformSurfaceless) {
    SetThreadEglError(EGL_BAD_PARAMETER);
    return EGL_NO_DISPLAY;
  }
  return OpenDisplay(static_cast<EGLint>(platform), native_display);
}

EGLDisplay Remote_eglGetPlatformDisplayEXT(EGLenum platform, void* native_display, const EGLint* attrib_list) {
  Session::Get().Start();
  if (auto native = Native<PFNEGLGETPLATFORMDISPLAYEXTPROC>(api::eglGetPlatformDisplayEXT)) {
    return native(platform, native_display, attrib_list);
  }
  return Remote_eglGetPlatformDisplay(platform, native_display, nullptr);
}

EGLBoolean Remote_eglInitialize(EGLDisplay dpy, EGLint* major, EGLint* minor) {
  if (auto native = Native<PFNEGLINITIALIZEPROC>(api::eglInitialize)) return native(dpy, major, minor);
  ClientDisplay* display = DisplayOf(dpy);
  if (display == nullptr) return Fail(EGL_BAD_DISPLAY);
  Connection* c = Egl();
  if (c == nullptr) return EGL_FALSE;
  HandCall call(*c, api::eglInitialize, HandCall::kAnswer);
  const stream::wire::Reply* r = call.Handle(dpy).NoBlob(major).NoBlob(minor).Wait();
  if (r == nullptr || r->result.u == 0) return EGL_FALSE;
  display->initialized = true;
  // The client speaks EGL 1.5 whatever the host's version.
  if (major) *major = 1;
  if (minor) *minor = 5;
  return EGL_TRUE;
}

EGLBoolean Remote_eglTerminate(EGLDisplay dpy) {
  if (auto native = Native<PFNEGLTERMINATEPROC>(api::eglTerminate)) return native(dpy);
  ClientDisplay* display = DisplayOf(dpy);
  if (display == nullptr) return Fail(EGL_BAD_DISPLAY);
  display->initialized = false;
  if (Connection* c = ThreadConnection()) {
    HandCall(*c, api::eglTerminate, HandCall::kNoAnswer).Handle(dpy).End();
    c->Flush();
  }
  return EGL_TRUE;
}

const char* Remote_eglQueryString(EGLDisplay dpy, EGLint name) {
  if (auto native = Native<PFNEGLQUERYSTRINGPROC>(api::eglQueryString)) return native(dpy, name);
  if (dpy == EGL_NO_DISPLAY) {
    if (name == EGL_EXTENSIONS) return kClientExtensions;
    if (name == EGL_VERSION) return "1.5 Strata remote";
    SetThreadEglError(EGL_BAD_DISPLAY);
    return nullptr;
  }
  if (!DisplayReady(dpy)) return nullptr;
  if (name == EGL_CLIENT_APIS) return "OpenGL_ES";
  Connection* c = Egl();
  if (c == nullptr) return nullptr;
  const stream::wire::Reply* r = HandCall(*c, api::eglQueryString, HandCall::kAnswer).Handle(dpy).Int(name).Wait();
  if (r == nullptr || !r->result.has_out) return nullptr;
  std::string text(reinterpret_cast<const char*>(r->result.out.data()), r->result.out.size());
  if (!text.empty() && text.back() == '\0') text.pop_back();
  if (name == EGL_EXTENSIONS) {
    std::string carried;
    size_t start = 0;
    while (start < text.size()) {
      size_t end = text.find(' ', start);
      if (end == std::string::npos) end = text.size();
      std::string e = text.substr(start, end - start);
      if (!e.empty() && Carried(e)) carried += (carried.empty() ? "" : " ") + e;
      start = end + 1;
    }
    text = carried;
  } else if (name == EGL_VERSION) {
    text = "1.5 Strata remote (renderer: " + text + ")";
  }
  return InternString(text);
}

EGLint Remote_eglGetError() {
  if (auto native = Native<PFNEGLGETERRORPROC>(api::eglGetError)) return native();
  return TakeThreadEglError();
}

EGLContext Remote_eglGetCurrentContext() {
  if (auto native = Native<PFNEGLGETCURRENTCONTEXTPROC>(api::eglGetCurrentContext)) return native();
  return t_context;
}

EGLSurface Remote_eglGetCurrentSurface(EGLint readdraw) {
  if (auto native = Native<PFNEGLGETCURRENTSURFACEPROC>(api::eglGetCurrentSurface)) return native(readdraw);
  return readdraw == EGL_READ ? t_read : t_draw;
}

EGLDisplay Remote_eglGetCurrentDisplay() {
  if (auto native = Native<PFNEGLGETCURRENTDISPLAYPROC>(api::eglGetCurrentDisplay)) return native();
  return t_context != EGL_NO_CONTEXT ? t_display : EGL_NO_DISPLAY;
}

__eglMustCastToProperFunctionPointerType Remote_eglGetProcAddress(const char* procname) {
  if (procname == nullptr) return nullptr;
  const int slot = api::FindFunction(procname);
  if (slot < 0) {
    // A function the registry does not know: the native driver's when in use.
    auto native = Native<PFNEGLGETPROCADDRESSPROC>(api::eglGetProcAddress);
    return native ? native(procname) : nullptr;
  }
  return reinterpret_cast<__eglMustCastToProperFunctionPointerType>(kRemoteFunctions[slot]);
}

EGLBoolean Remote_eglBindAPI(EGLenum api_name) {
  if (auto native = Native<PFNEGLBINDAPIPROC>(api::eglBindAPI)) return native(api_name);
  return api_name == EGL_OPENGL_ES_API ? EGL_TRUE : Fail(EGL_BAD_PARAMETER);
}

EGLenum Remote_eglQueryAPI() {
  if (auto native = Native<PFNEGLQUERYAPIPROC>(api::eglQueryAPI)) return native();
  return EGL_OPENGL_ES_API;
}

// Configs are the renderer's, but windows are the client's: every config can
// back a window (the renderer renders off-screen), and its native visual is
// the X display's default one.
EGLBoolean Remote_eglGetConfigAttrib(EGLDisplay dpy, EGLConfig config, EGLint attribute, EGLint* value) {
  if (auto native = Native<PFNEGLGETCONFIGATTRIBPROC>(api::eglGetConfigAttrib)) {
    return native(dpy, config, attribute, value);
  }
  if (!DisplayReady(dpy)) return EGL_FALSE;
  Connection* c = Egl();
  if (c == nullptr) return EGL_FALSE;
  const stream::wire::Reply* r = HandCall(*c, api::eglGetConfigAttrib, HandCall::kAnswer)
                                      .Handle(dpy).Handle(config).Int(attribute).NoBlob(value).Wait();
  if (r == nullptr || r->result.u == 0) return EGL_FALSE;
  EGLint answer = 0;
  if (r->outputs.size() > 3 && r->outputs[3].has_out && r->outputs[3].out.size() >= sizeof answer) {
    std::memcpy(&answer, r->outputs[3].out.data(), sizeof answer);
  }
  Display* x = nullptr;
  {
    std::lock_guard lock(G().mu);
    x = G().x_display;
  }
  if (attribute == EGL_SURFACE_TYPE) answer |= EGL_WINDOW_BIT;
  if (attribute == EGL_NATIVE_VISUAL_ID && x != nullptr) {
    answer = static_cast<EGLint>(XVisualIDFromVisual(DefaultVisual(x, DefaultScreen(x))));
  }
  if (attribute == EGL_NATIVE_VISUAL_TYPE && x != nullptr) answer = TrueColor;
  if (value != nullptr) *value = answer;
  return EGL_TRUE;
}

EGLContext Remote_eglCreateContext(EGLDisplay dpy, EGLConfig config, EGLContext share_context,
                                   const EGLint* attrib_list) {
  if (auto native = Native<PFNEGLCREATECONTEXTPROC>(api::eglCreateContext)) {
    return native(dpy, config, share_context, attrib_list);
  }
  if (!DisplayReady(dpy)) return EGL_NO_CONTEXT;
  Connection* c = Egl();
  if (c == nullptr) return EGL_NO_CONTEXT;
  const uint64_t handle = HandCall(*c, api::eglCreateContext, HandCall::kCreatesWaiting)
                              .Handle(dpy).Handle(config).Handle(share_context)
                              .Blob(attrib_list, AttribBytes(attrib_list))
                              .Create();
  if (handle == 0) return EGL_NO_CONTEXT;
  int version = 1;
  bool told_of_resets = false;
  for (size_t i = 0; attrib_list != nullptr && attrib_list[i] != EGL_NONE && i < 1024; i += 2) {
    if (attrib_list[i] == EGL_CONTEXT_CLIENT_VERSION) version = attrib_list[i + 1];
    // EGL 1.5's and EGL_EXT_create_context_robustness's names of the same choice.
    if ((attrib_list[i] == EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY ||
         attrib_list[i] == EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY_EXT) &&
        attrib_list[i + 1] == EGL_LOSE_CONTEXT_ON_RESET) {
      told_of_resets = true;
    }
  }
  std::lock_guard lock(G().mu);
  auto share = G().contexts.find(H(share_context));
  auto shadow = std::make_unique<ContextShadow>(version, share != G().contexts.end() ? share->second.get() : nullptr);
  if (told_of_resets) {
    shadow->set_reset_notified();
    Session::Get().NoteResetNotification();
  }
  G().contexts[handle] = std::move(shadow);
  return AsHandle<EGLContext>(handle);
}

EGLBoolean Remote_eglDestroyContext(EGLDisplay dpy, EGLContext ctx) {
  if (auto native = Native<PFNEGLDESTROYCONTEXTPROC>(api::eglDestroyContext)) return native(dpy, ctx);
  if (!DisplayReady(dpy)) return EGL_FALSE;
  Connection* c = Egl();
  if (c == nullptr) return EGL_FALSE;
  HandCall(*c, api::eglDestroyContext, HandCall::kNoAnswer).Handle(dpy).Handle(ctx).End();
  // The shadow stays while a thread may still have the context current.
  return EGL_TRUE;
}

namespace {

EGLSurface CreateWindow(api::Slot slot, EGLDisplay dpy, EGLConfig config, Window window, const void* native_arg,
                        const void* attribs, size_t attrib_bytes) {
  if (!DisplayReady(dpy)) return EGL_NO_SURFACE;
  // The surfaceless platform has no windows.
  if (DisplayOf(dpy)->platform == kPlatformSurfaceless) return Fail(EGL_BAD_NATIVE_WINDOW), EGL_NO_SURFACE;
  Connection* c = Egl();
  if (c == nullptr) return EGL_NO_SURFACE;
  Display* x = nullptr;
  {
    std::lock_guard lock(G().mu);
    if (G().x_display == nullptr) {
      G().x_display = XOpenDisplay(nullptr);
    }
    x = G().x_display;
  }
  if (x == nullptr || window == 0) return Fail(EGL_BAD_NATIVE_WINDOW), EGL_NO_SURFACE;
  auto presenter = WindowPresenter::Create(x, window);
  if (!presenter) return Fail(EGL_BAD_NATIVE_WINDOW), EGL_NO_SURFACE;
  HandCall call(*c, slot, HandCall::kCreatesWaiting);
  call.Handle(dpy).Handle(config);
  if (slot == api::eglCreateWindowSurface) {
    call.Uint(window);
  } else {
    call.NoBlob(native_arg);  // the registry's native pointer: only its value travels
  }
  call.Blob(attribs, attrib_bytes).End();
  // The window's size follows its creating call, as in a trace.
  const uint64_t proposed = call.handle();
  c->PutSurfaceEvent(proposed, presenter->width(), presenter->height());
  if (call.Create() == 0) return EGL_NO_SURFACE;
  std::lock_guard lock(G().mu);
  G().windows[proposed] = std::move(presenter);
  return AsHandle<EGLSurface>(proposed);
}


}  // namespace

EGLSurface Remote_eglCreateWindowSurface(EGLDisplay dpy, EGLConfig config, EGLNativeWindowType win,
                                         const EGLint* attrib_list) {
  if (auto native = Native<PFNEGLCREATEWINDOWSURFACEPROC>(api::eglCreateWindowSurface)) {
    return native(dpy, config, win, attrib_list);
  }
  return CreateWindow(api::eglCreateWindowSurface, dpy, config, static_cast<Window>(win), nullptr, attrib_list,
                      AttribBytes(attrib_list));
}

EGLSurface Remote_eglCreatePlatformWindowSurface(EGLDisplay dpy, EGLConfig config, void* native_window,
                                                 const EGLAttrib* attrib_list) {
  if (auto native = Native<PFNEGLCREATEPLATFORMWINDOWSURFACEPROC>(api::eglCreatePlatformWindowSurface)) {
    return native(dpy, config, native_window, attrib_list);
  }
  // On the X11 platform the native window is a pointer to the Window.
  Window window = native_window != nullptr ? *static_cast<Window*>(native_window) : 0;
  return CreateWindow(api::eglCreatePlatformWindowSurface, dpy, config, window, native_window, attrib_list,
                      AttribBytes(attrib_list));
}

EGLSurface Remote_eglCreatePlatformWindowSurfaceEXT(EGLDisplay dpy, EGLConfig config, void* native_window,
                                                    const EGLint* attrib_list) {
  if (auto native = Native<PFNEGLCREATEPLATFORMWINDOWSURFACEEXTPROC>(api::eglCreatePlatformWindowSurfaceEXT)) {
    return native(dpy, config, native_window, attrib_list);
  }
  Window window = native_window != nullptr ? *static_cast<Window*>(native_window) : 0;
  return CreateWindow(api::eglCreatePlatformWindowSurfaceEXT, dpy, config, window, native_window, attrib_list,
                      AttribBytes(attrib_list));
}

namespace {

// Pixmaps are not carried: the renderer could not render into the client's.
EGLSurface NoPixmap(EGLDisplay dpy) {
  if (DisplayReady(dpy)) SetThreadEglError(EGL_BAD_NATIVE_PIXMAP);
  return EGL_NO_SURFACE;
}

}  // namespace

EGLSurface Remote_eglCreatePixmapSurface(EGLDisplay dpy, EGLConfig config, EGLNativePixmapType pixmap,
                                         const EGLint* attrib_list) {
  if (auto native = Native<PFNEGLCREATEPIXMAPSURFACEPROC>(api::eglCreatePixmapSurface)) {
    return native(dpy, config, pixmap, attrib_list);
  }
  return NoPixmap(dpy);
}

EGLSurface Remote_eglCreatePlatformPixmapSurface(EGLDisplay dpy, EGLConfig config, void* native_pixmap,
                                                 const EGLAttrib* attrib_list) {
  if (auto native = Native<PFNEGLCREATEPLATFORMPIXMAPSURFACEPROC>(api::eglCreatePlatformPixmapSurface)) {
    return native(dpy, config, native_pixmap, attrib_list);
  }
  return NoPixmap(dpy);
}

EGLSurface Remote_eglCreatePlatformPixmapSurfaceEXT(EGLDisplay dpy, EGLConfig config, void* native_pixmap,
                                                    const EGLint* attrib_list) {
  if (auto native = Native<PFNEGLCREATEPLATFORMPIXMAPSURFACEEXTPROC>(api::eglCreatePlatformPixmapSurfaceEXT)) {
    return native(dpy, config, native_pixmap, attrib_list);
  }
  return NoPixmap(dpy);
}

EGLSurface Remote_eglCreatePbufferSurface(EGLDisplay dpy, EGLConfig config, const EGLint* attrib_list) {
  if (auto native = Native<PFNEGLCREATEPBUFFERSURFACEPROC>(api::eglCreatePbufferSurface)) {
    return native(dpy, config, attrib_list);
  }
  if (!DisplayReady(dpy)) return EGL_NO_SURFACE;
  Connection* c = Egl();
  if (c == nullptr) return EGL_NO_SURFACE;
  const uint64_t surface = HandCall(*c, api::eglCreatePbufferSurface, HandCall::kCreatesWaiting)
                               .Handle(dpy).Handle(config).Blob(attrib_list, AttribBytes(attrib_list))
                               .Create();
  if (surface != 0) {
    std::lock_guard lock(G().mu);
    G().pbuffers.insert(surface);
  }
  return AsHandle<EGLSurface>(surface);
}

EGLBoolean Remote_eglDestroySurface(EGLDisplay dpy, EGLSurface surface) {
  if (auto native = Native<PFNEGLDESTROYSURFACEPROC>(api::eglDestroySurface)) return native(dpy, surface);
  if (!DisplayReady(dpy)) return EGL_FALSE;
  Connection* c = Egl();
  if (c == nullptr) return EGL_FALSE;
  HandCall(*c, api::eglDestroySurface, HandCall::kNoAnswer).Handle(dpy).Handle(surface).End();
  // Its last frames are shown while the window is certainly there.
  c->WaitForFrames(0);
  std::lock_guard lock(G().mu);
  G().windows.erase(H(surface));
  G().pbuffers.erase(H(surface));
  return EGL_TRUE;
}

EGLBoolean Remote_eglMakeCurrent(EGLDisplay dpy, EGLSurface draw, EGLSurface read, EGLContext ctx) {
  if (auto native = Native<PFNEGLMAKECURRENTPROC>(api::eglMakeCurrent)) return native(dpy, draw, read, ctx);
  if (!DisplayReady(dpy)) return EGL_FALSE;
  Connection* c = Egl();
  if (c == nullptr) return EGL_FALSE;
  const stream::wire::Reply* r = HandCall(*c, api::eglMakeCurrent, HandCall::kAnswer)
                                      .Handle(dpy).Handle(draw).Handle(read).Handle(ctx).Wait();
  if (r == nullptr || r->result.u == 0) return EGL_FALSE;
  ContextShadow* shadow = nullptr;
  if (ctx != EGL_NO_CONTEXT) {
    std::lock_guard lock(G().mu);
    auto it = G().contexts.find(H(ctx));
    if (it != G().contexts.end()) shadow = it->second.get();
  }
  c->SetCurrent(H(ctx), shadow);
  t_display = dpy;
  t_context = ctx;
  t_draw = draw;
  t_read = read;
  return EGL_TRUE;
}

EGLBoolean Remote_eglReleaseThread() {
  if (auto native = Native<PFNEGLRELEASETHREADPROC>(api::eglReleaseThread)) return native();
  if (Connection* c = ThreadConnection()) {
    HandCall(*c, api::eglReleaseThread, HandCall::kNoAnswer).End();
    c->Flush();
    c->SetCurrent(0, nullptr);
  }
  t_context = EGL_NO_CONTEXT;
  t_draw = t_read = EGL_NO_SURFACE;
  return EGL_TRUE;
}

namespace {

EGLBoolean Swap(api::Slot slot, EGLDisplay dpy, EGLSurface surface, const EGLint* rects, EGLint n_rects) {
  if (!DisplayReady(dpy)) return EGL_FALSE;
  Connection* c = Egl();
  if (c == nullptr) return EGL_FALSE;
  Session::Get().traffic().frames += 1;
  std::shared_ptr<WindowPresenter> window;
  bool pbuffer = false;
  {
    std::lock_guard lock(G().mu);
    auto it = G().windows.find(H(surface));
    if (it != G().windows.end()) window = it->second;
    pbuffer = G().pbuffers.count(H(surface)) != 0;
  }
  // A pbuffer's swap has no effect and raises no error (EGL 1.5, 3.10.1): it
  // only ends the frame, so the batch goes out without waiting and the
  // renderer runs this frame while the app builds the next.
  HandCall call(*c, slot, pbuffer ? HandCall::kNoAnswer : HandCall::kAnswer);
  call.Handle(dpy).Handle(surface);
  if (slot != api::eglSwapBuffers) {
    call.Blob(rects, rects != nullptr && n_rects > 0 ? static_cast<size_t>(n_rects) * 4 * sizeof(EGLint) : 0)
        .Int(n_rects);
  }
  if (pbuffer) {
    call.End();
    return c->Flush() ? EGL_TRUE : Fail(EGL_CONTEXT_LOST);
  }
  if (window == nullptr) {
    const stream::wire::Reply* r = call.Wait();
    return r != nullptr && r->result.u != 0 ? EGL_TRUE : EGL_FALSE;
  }
  // A window's swap does not wait for its own frame (connection.h): a
  // surface the client made is one the renderer has, so it succeeds.
  call.End();
  // A window that changed size gets a host surface of the new size from the
  // next frame's first draw on, as a native back buffer follows the window.
  NoteWindowSwapped(H(surface), window);
  if (!c->SendWindowSwap(call.sequence(), slot, window)) return Fail(EGL_CONTEXT_LOST);
  window->Pace(t_swap_interval);
  return EGL_TRUE;
}

}  // namespace

EGLBoolean Remote_eglSwapBuffers(EGLDisplay dpy, EGLSurface surface) {
  if (auto native = Native<PFNEGLSWAPBUFFERSPROC>(api::eglSwapBuffers)) return native(dpy, surface);
  return Swap(api::eglSwapBuffers, dpy, surface, nullptr, 0);
}

EGLBoolean Remote_eglSwapBuffersWithDamageKHR(EGLDisplay dpy, EGLSurface surface, EGLint* rects,
                                              EGLint n_rects) {
  if (auto native = Native<PFNEGLSWAPBUFFERSWITHDAMAGEKHRPROC>(api::eglSwapBuffersWithDamageKHR)) {
    return native(dpy, surface, rects, n_rects);
  }
  return Swap(api::eglSwapBuffersWithDamageKHR, dpy, surface, rects, n_rects);
}

EGLBoolean Remote_eglSwapBuffersWithDamageEXT(EGLDisplay dpy, EGLSurface surface, EGLint* rects,
                                              EGLint n_rects) {
  if (auto native = Native<PFNEGLSWAPBUFFERSWITHDAMAGEEXTPROC>(api::eglSwapBuffersWithDamageEXT)) {
    return native(dpy, surface, rects, n_rects);
  }
  return Swap(api::eglSwapBuffersWithDamageEXT, dpy, surface, rects, n_rects);
}

EGLBoolean Remote_eglSwapInterval(EGLDisplay dpy, EGLint interval) {
  if (auto native = Native<PFNEGLSWAPINTERVALPROC>(api::eglSwapInterval)) return native(dpy, interval);
  if (!DisplayReady(dpy)) return EGL_FALSE;
  // The host renders into an off-screen surface: the client paces its windows.
  t_swap_interval = interval < 0 ? 0 : interval;
  return EGL_TRUE;
}

namespace {

// eglCreateSync / eglCreateSyncKHR: the same call with EGLAttrib or EGLint attributes.
template <typename Attrib>
uint64_t CreateSync(api::Slot slot, EGLDisplay dpy, EGLenum type, const Attrib* attrib_list) {
  if (!DisplayReady(dpy)) return 0;
  Connection* c = Egl();
  if (c == nullptr) return 0;
  return HandCall(*c, slot, HandCall::kCreatesWaiting)
      .Handle(dpy).Uint(type).Blob(attrib_list, AttribBytes(attrib_list))
      .Create();
}

// eglCreateImage / eglCreateImageKHR, likewise.
template <typename Attrib>
uint64_t CreateImage(api::Slot slot, EGLDisplay dpy, EGLContext ctx, EGLenum target, EGLClientBuffer buffer,
                     const Attrib* attrib_list) {
  if (!DisplayReady(dpy)) return 0;
  Connection* c = Egl();
  if (c == nullptr) return 0;
  return HandCall(*c, slot, HandCall::kCreatesWaiting)
      .Handle(dpy).Handle(ctx).Uint(target).Handle(buffer).Blob(attrib_list, AttribBytes(attrib_list))
      .Create();
}

// GL fences are named by the client too: creating one never waits.
uint64_t CreateFence(api::Slot slot, GLenum condition, GLbitfield flags) {
  Connection* c = ThreadConnection();
  if (c == nullptr) return 0;
  return HandCall(*c, slot, HandCall::kCreates).Uint(condition).Uint(flags).Create();
}

}  // namespace

EGLSync Remote_eglCreateSync(EGLDisplay dpy, EGLenum type, const EGLAttrib* attrib_list) {
  if (auto native = Native<PFNEGLCREATESYNCPROC>(api::eglCreateSync)) return native(dpy, type, attrib_list);
  return AsHandle<EGLSync>(CreateSync(api::eglCreateSync, dpy, type, attrib_list));
}

EGLSyncKHR Remote_eglCreateSyncKHR(EGLDisplay dpy, EGLenum type, const EGLint* attrib_list) {
  if (auto native = Native<PFNEGLCREATESYNCKHRPROC>(api::eglCreateSyncKHR)) return native(dpy, type, attrib_list);
  return AsHandle<EGLSyncKHR>(CreateSync(api::eglCreateSyncKHR, dpy, type, attrib_list));
}

EGLImage Remote_eglCreateImage(EGLDisplay dpy, EGLContext ctx, EGLenum target, EGLClientBuffer buffer,
                               const EGLAttrib* attrib_list) {
  if (auto native = Native<PFNEGLCREATEIMAGEPROC>(api::eglCreateImage)) {
    return native(dpy, ctx, target, buffer, attrib_list);
  }
  return AsHandle<EGLImage>(CreateImage(api::eglCreateImage, dpy, ctx, target, buffer, attrib_list));
}

EGLImageKHR Remote_eglCreateImageKHR(EGLDisplay dpy, EGLContext ctx, EGLenum target, EGLClientBuffer buffer,
                                     const EGLint* attrib_list) {
  if (auto native = Native<PFNEGLCREATEIMAGEKHRPROC>(api::eglCreateImageKHR)) {
    return native(dpy, ctx, target, buffer, attrib_list);
  }
  return AsHandle<EGLImageKHR>(CreateImage(api::eglCreateImageKHR, dpy, ctx, target, buffer, attrib_list));
}

GLsync Hand_glFenceSync(api::Slot slot, GLenum condition, GLbitfield flags) {
  return AsHandle<GLsync>(CreateFence(slot, condition, flags));
}

}  // namespace strata::remote
