// libstrata_trace.so: the trace layer. An ordinary Android-ABI layer: with
// STRATA_TRACE or STRATA_TRACE_CONTROL set it wraps every function it knows
// with a generated recorder, and each process decides whether it traces when
// it first opens an EGL display (process_decision.h); otherwise it hands back
// `next` for everything and costs nothing.
#include <dlfcn.h>

#include <cstring>
#include <string>

#include "common/env.h"
#include "common/log.h"
#include "layers/trace/framebuffer_capture.h"
#include "layers/trace/process_decision.h"
#include "layers/trace/trace_session.h"
#include "layers/trace/trace_wrappers.h"
#include "layers/trace/unknown_functions.h"
#include "strata/gles_layer.h"

namespace strata::trace {
namespace {

bool g_wrapping = false;

}  // namespace
}  // namespace strata::trace

using namespace strata::trace;

extern "C" __attribute__((visibility("default"))) void* AndroidGLESLayer_Initialize(
    void* layer_id, PFNEGLGETNEXTLAYERPROCADDRESSPROC get_next_layer_proc_address) {
  // The library that answers below us names the driver in trace headers.
  Dl_info below{};
  std::string driver;
  void* next_get_proc = get_next_layer_proc_address(layer_id, "eglGetProcAddress");
  if (next_get_proc && dladdr(next_get_proc, &below) && below.dli_fname) driver = below.dli_fname;
  if (!PrepareTracing(driver)) return nullptr;
  ConfigureCapture(strata::GetEnv("STRATA_TRACE_CAPTURE"));
  if (const char* timing = strata::GetEnv("STRATA_TRACE_TIMING")) {
    if (std::strcmp(timing, "all") == 0) {
      TraceSession::Get().set_time_every_call(true);
    } else if (std::strcmp(timing, "work") != 0) {
      STRATA_ERROR("STRATA_TRACE_TIMING='%s': use work or all; state-setting calls are not timed", timing);
    }
  }
  g_wrapping = true;
  return nullptr;
}

extern "C" __attribute__((visibility("default"))) void* AndroidGLESLayer_GetProcAddress(const char* name,
                                                                                      EGLFuncPointer next) {
  int slot = strata::api::FindFunction(name);
  if (!g_wrapping || next == nullptr) return reinterpret_cast<void*>(next);
  if (slot < 0) return WrapUnknownFunction(name, reinterpret_cast<void*>(next));
  g_next_functions[slot] = reinterpret_cast<void*>(next);
  return kTraceWrappers[slot];
}
