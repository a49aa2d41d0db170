// The public entry points that change the loader's own state. Each passes the
// call down like any other, then acts on the result.
#include "loader/egl_hooks.h"

#include <EGL/egl.h>

#include "loader/loader.h"
#include "strata/api/signatures.h"

namespace strata::loader {
namespace {

template <typename Fn>
Fn Below(api::Slot slot) {
  return reinterpret_cast<Fn>(strata_current_dispatch->entries[slot]);
}

}  // namespace

__eglMustCastToProperFunctionPointerType Loader_eglGetProcAddress(const char* procname) {
  if (procname == nullptr) return nullptr;
  auto found = Below<api::PFN_eglGetProcAddress>(api::eglGetProcAddress)(procname);
  int slot = api::FindFunction(procname);
  if (slot < 0) {
    // Unknown to the registry: the answer from below, through every layer that wants it.
    return reinterpret_cast<__eglMustCastToProperFunctionPointerType>(
        Loader::Get().layers().ResolveUnknown(procname, reinterpret_cast<void*>(found)));
  }
  return reinterpret_cast<__eglMustCastToProperFunctionPointerType>(
      Loader::Get().EntryPointFor(slot, reinterpret_cast<void*>(found)));
}

EGLBoolean Loader_eglMakeCurrent(EGLDisplay dpy, EGLSurface draw, EGLSurface read, EGLContext ctx) {
  EGLBoolean ok = Below<api::PFN_eglMakeCurrent>(api::eglMakeCurrent)(dpy, draw, read, ctx);
  if (ok) Loader::Get().SelectTableFor(dpy, ctx);
  return ok;
}

EGLBoolean Loader_eglReleaseThread() {
  EGLBoolean ok = Below<api::PFN_eglReleaseThread>(api::eglReleaseThread)();
  if (ok) Loader::Get().SelectTableFor(EGL_NO_DISPLAY, EGL_NO_CONTEXT);
  return ok;
}

}  // namespace strata::loader
