// libstrata_trace.so: the trace layer. An ordinary Android-ABI layer: with
// STRATA_TRACE set (and STRATA_TRACE_PROCESS, if set, naming this process) it
// wraps every function it knows with a generated recorder; otherwise it hands
// back `next` for everything and costs nothing.
#include <dlfcn.h>

#include <cstring>
#include <string>

#include "common/env.h"
#include "common/log.h"
#include "common/process_info.h"
#include "layers/trace/control_server.h"
#include "layers/trace/framebuffer_capture.h"
#include "layers/trace/trace_session.h"
#include "layers/trace/trace_wrappers.h"
#include "strata/gles_layer.h"

namespace strata::trace {
namespace {

bool g_wrapping = false;

bool ThisProcessIsTraced() {
  const char* only = GetEnv("STRATA_TRACE_PROCESS");
  if (only == nullptr) return true;
  for (const std::string& name : ProcessNames()) {
    if (name == only) return true;
  }
  return false;
}

}  // namespace

}  // namespace strata::trace

using namespace strata::trace;

extern "C" __attribute__((visibility("default"))) void* AndroidGLESLayer_Initialize(
    void* layer_id, PFNEGLGETNEXTLAYERPROCADDRESSPROC get_next_layer_proc_address) {
  const char* destination = strata::GetEnv("STRATA_TRACE");
  bool controllable = strata::GetEnv("STRATA_TRACE_CONTROL") != nullptr;
  if ((destination == nullptr && !controllable) || !ThisProcessIsTraced()) return nullptr;
  // The library that answers below us names the driver in trace headers.
  Dl_info below{};
  void* next_get_proc = get_next_layer_proc_address(layer_id, "eglGetProcAddress");
  if (next_get_proc && dladdr(next_get_proc, &below) && below.dli_fname) TraceSession::Get().set_driver(below.dli_fname);
  std::string error;
  ConfigureCapture(strata::GetEnv("STRATA_TRACE_CAPTURE"));
  if (const char* timing = strata::GetEnv("STRATA_TRACE_TIMING")) {
    if (std::strcmp(timing, "all") == 0) {
      TraceSession::Get().set_time_every_call(true);
    } else if (std::strcmp(timing, "work") != 0) {
      STRATA_ERROR("STRATA_TRACE_TIMING='%s': use work or all; state-setting calls are not timed", timing);
    }
  }
  // A traceable process can be switched on and off later (strata trace --attach/--detach PID).
  if (!StartControlServer(&error)) STRATA_WARN("tracing cannot be switched at run time: %s", error.c_str());
  g_wrapping = true;
  if (destination == nullptr) return nullptr;
  const char* compression = strata::GetEnv("STRATA_TRACE_COMPRESSION");
  if (!TraceSession::Get().Start(destination, compression ? compression : "", &error)) {
    STRATA_ERROR("tracing disabled: %s", error.c_str());
    g_wrapping = controllable;
  }
  return nullptr;
}

extern "C" __attribute__((visibility("default"))) void* AndroidGLESLayer_GetProcAddress(const char* name,
                                                                                      EGLFuncPointer next) {
  int slot = strata::api::FindFunction(name);
  if (!g_wrapping || slot < 0 || next == nullptr) return reinterpret_cast<void*>(next);
  g_next_functions[slot] = reinterpret_cast<void*>(next);
  return kTraceWrappers[slot];
}
