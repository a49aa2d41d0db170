#pragma once
// The functions below the trace layer, by dispatch slot. Capture rules use
// them for their own queries (glGetIntegerv, ...), which are never traced.

#include <GLES3/gl32.h>

#include "common/gl_queries.h"
#include "stream/capture_sizes.h"
#include "strata/api/functions.h"

namespace strata::trace {

// The next layer's (or the driver's) function per slot, as the loader offered
// them to the trace layer. Hidden: every wrapper's tail call then jumps
// through its slot directly, not through the address loaded from the GOT
// first (-fvisibility=hidden does not reach an extern declaration).
extern void* g_next_functions[api::kFunctionCount] __attribute__((visibility("hidden"), aligned(64)));

inline void* NextFunction(int slot) { return g_next_functions[slot]; }

template <typename Fn>
Fn Next(api::Slot slot) {
  return reinterpret_cast<Fn>(NextFunction(slot));
}

// What the capture rules ask of the context, answered by the layer below.
capture::CaptureState& TraceCaptureState();

// glGetIntegerv below the tracer: the tracer's own questions are never traced.
inline GLint QueryInteger(GLenum pname) { return IntegerOf(Next<PFNGLGETINTEGERVPROC>(api::glGetIntegerv), pname); }

}  // namespace strata::trace
