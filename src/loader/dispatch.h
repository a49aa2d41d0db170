#pragma once
// The per-thread dispatch table every public entry point jumps through.

#include "loader/export.h"
#include "strata/api/functions.h"

namespace strata::loader {

// Line-aligned: the hot functions' slots (api/hot_functions.txt) then share
// as few lines as they can.
struct alignas(64) DispatchTable {
  void* entries[api::kFunctionCount];
};

// The table of the calling thread: the GLES 1 or GLES 2+ table while a context
// is current, the "unavailable" table otherwise. Initial-exec TLS keeps a
// public entry point at three instructions and a jump.
STRATA_EXPORT extern __thread const DispatchTable* strata_current_dispatch
    __attribute__((tls_model("initial-exec")));
// Whether the thread has a context current through Strata's eglMakeCurrent
// (OpenGL ES, or desktop OpenGL made through EGL). Strata's libGL routes GLES
// functions through the table only then, so that a context's GLES calls pass
// the layers whichever library they came from; with no such context (none,
// or one GLX made current) they belong to the system's libGL.
STRATA_EXPORT extern __thread bool strata_egl_context_current __attribute__((tls_model("initial-exec")));

// Generated: the loader's own entry point per function (what eglGetProcAddress
// hands out) and the stub per function for calls that cannot be served.
extern void* const kEntryPoints[api::kFunctionCount];
extern void* const kUnavailableStubs[api::kFunctionCount];

}  // namespace strata::loader
