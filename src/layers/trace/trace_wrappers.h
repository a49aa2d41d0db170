#pragma once
// What the generated wrappers (build/generated/src/trace_wrappers.cpp) use.

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl32.h>
#include <GLES2/gl2ext.h>

#include <cstdint>

#include "layers/trace/app_errors.h"
#include "layers/trace/call_writer.h"
#include "layers/trace/draw_hooks.h"
#include "layers/trace/final_frame.h"
#include "layers/trace/frame_range.h"
#include "layers/trace/next_functions.h"
#include "layers/trace/process_decision.h"
#include "strata/api/functions.h"
#include "strata/api/traits.h"
#include "stream/capture_sizes.h"
#include "stream/client_arrays.h"
#include "strata/api/types.h"

namespace strata::trace {

#include "layers/trace/trace_hook_declarations.inc"

// What the generated recorders call by a function's traits
// (api/function_traits.txt), in trace_hooks.cpp: the client-side arrays a
// client-array call changes; a swap's work before and after it.
void NoteClientArrays(const capture::ArrayCall& call);
void BeforeSwap();
void AfterSwap();

// The wrapper per function, by slot.
extern void* const kTraceWrappers[api::kFunctionCount];

}  // namespace strata::trace
