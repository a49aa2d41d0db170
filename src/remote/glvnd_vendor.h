#pragma once
// libstrata_remote.so as a glvnd EGL vendor (glvnd's libeglabi.h): installed
// with a vendor JSON, the system's libEGL loads it beside Mesa, without
// Strata's loader. The vendor takes a display only when STRATA_REMOTE names
// a renderer; otherwise, or when the renderer cannot be reached and
// STRATA_REMOTE_FALLBACK=native, it declines and glvnd's next vendor renders.

#include <EGL/egl.h>

namespace strata::remote {

// True once glvnd's libEGL has loaded this driver (__egl_Main ran).
bool LoadedByGlvnd();

// For the generated dispatch stubs (build/generated/src/remote_glvnd_dispatch.cpp):
// the function of `dpy`'s vendor at glvnd's dispatch `index`, after the
// bookkeeping glvnd asks of a stub; null with the EGL error set when none.
void* GlvndDispatchEntry(EGLDisplay dpy, int index);
// Generated: the stub for an EGL display extension function, or null.
void* GlvndDispatchAddress(const char* name);
void GlvndSetDispatchIndex(const char* name, int index);

// client_egl.cpp: the platforms this client offers (EGL client extensions).
const char* ClientPlatformExtensions();

}  // namespace strata::remote
