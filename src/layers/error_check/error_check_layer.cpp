// libstrata_error_check.so: calls glGetError after every GLES call and reports
// each call site that raised an error once, with the function, its arguments
// and the error. The error is kept for the app: its next glGetError returns it.
#include <GLES2/gl2.h>
#include <dlfcn.h>
#include <strata/gles_layer.h>

#include <atomic>
#include <cinttypes>
#include <cstdio>
#include <initializer_list>
#include <mutex>
#include <set>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "common/log.h"
#include "strata/api/functions.h"
#include "strata/api/types.h"

namespace {

using strata::api::ArgKind;
using strata::api::kFunctionCount;

void* g_next[kFunctionCount];
thread_local GLenum t_pending_error = GL_NO_ERROR;  // taken from GL, not yet returned to the app
std::atomic<uint64_t> g_error_calls{0};
std::mutex g_sites_mutex;
std::set<std::pair<int, const void*>> g_sites;  // (slot, caller) already reported

union ArgValue {
  int64_t i;
  uint64_t u;
  double f;
  const void* p;
};

template <typename T>
ArgValue Capture(T value) {
  ArgValue v{};
  if constexpr (std::is_pointer_v<T>) {
    v.p = reinterpret_cast<const void*>(value);
  } else if constexpr (std::is_floating_point_v<T>) {
    v.f = value;
  } else if constexpr (std::is_signed_v<T>) {
    v.i = value;
  } else {
    v.u = value;
  }
  return v;
}

std::string FormatArg(ArgKind kind, ArgValue v) {
  char buffer[96];
  switch (kind) {
    case ArgKind::kEnum:
      if (const char* name = strata::api::GlEnumName(static_cast<uint32_t>(v.u))) return name;
      std::snprintf(buffer, sizeof buffer, "0x%" PRIx64, v.u);
      break;
    case ArgKind::kBitfield: std::snprintf(buffer, sizeof buffer, "0x%" PRIx64, v.u); break;
    case ArgKind::kBoolean: return v.u ? "GL_TRUE" : "GL_FALSE";
    case ArgKind::kFloat:
    case ArgKind::kDouble: std::snprintf(buffer, sizeof buffer, "%g", v.f); break;
    case ArgKind::kInt: std::snprintf(buffer, sizeof buffer, "%" PRId64, v.i); break;
    case ArgKind::kUInt: std::snprintf(buffer, sizeof buffer, "%" PRIu64, v.u); break;
    case ArgKind::kString:
      if (v.p) {
        std::snprintf(buffer, sizeof buffer, "\"%.40s\"", static_cast<const char*>(v.p));
        break;
      }
      [[fallthrough]];
    default:
      if (v.p == nullptr) return "NULL";
      std::snprintf(buffer, sizeof buffer, "%p", v.p);
  }
  return buffer;
}

std::string CallSite(const void* caller) {
  Dl_info info{};
  if (dladdr(caller, &info) == 0 || info.dli_fname == nullptr) return "unknown caller";
  std::string object = info.dli_fname;
  object = object.substr(object.rfind('/') + 1);
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "+0x%zx",
                static_cast<size_t>(static_cast<const char*>(caller) - static_cast<const char*>(info.dli_fbase)));
  return object + buffer + (info.dli_sname ? std::string(" (") + info.dli_sname + ")" : "");
}

void Report(int slot, const void* caller, GLenum error, std::initializer_list<ArgValue> args) {
  g_error_calls.fetch_add(1, std::memory_order_relaxed);
  {
    std::lock_guard<std::mutex> lock(g_sites_mutex);
    if (!g_sites.emplace(slot, caller).second) return;
  }
  const strata::api::FunctionInfo& info = strata::api::kFunctions[slot];
  std::string call = std::string(info.name) + "(";
  int i = 0;
  for (ArgValue v : args) {
    call += (i ? ", " : "") + FormatArg(info.params[i].kind, v);
    ++i;
  }
  call += ")";
  STRATA_WARN("error check: %s from %s at %s (reported once per call site)", FormatArg(ArgKind::kEnum, Capture(error)).c_str(),
              call.c_str(), CallSite(caller).c_str());
}

GLenum CheckedError() { return reinterpret_cast<GLenum (*)()>(g_next[strata::api::glGetError])(); }

// Runs the call, then takes GL's error: remembered for the app, reported once per site.
template <typename Ret, typename Fn, typename... A>
Ret CallChecked(int slot, const void* caller, Fn fn, std::tuple<A...> args) {
  auto after = [&] {
    GLenum error = CheckedError();
    if (error == GL_NO_ERROR) return;
    if (t_pending_error == GL_NO_ERROR) t_pending_error = error;
    std::apply([&](A... a) { Report(slot, caller, error, {Capture(a)...}); }, args);
  };
  if constexpr (std::is_void_v<Ret>) {
    std::apply(fn, args);
    after();
  } else {
    Ret result = std::apply(fn, args);
    after();
    return result;
  }
}

#define STRATA_FUNCTION(slot, name, ret, params, args)                                                  \
  ret Check_##name params {                                                                             \
    return CallChecked<ret>(slot, __builtin_return_address(0), reinterpret_cast<ret(*) params>(g_next[slot]), \
                            std::make_tuple args);                                                      \
  }
#include "strata/api/function_list.inc"
#undef STRATA_FUNCTION

void* const kCheckers[kFunctionCount] = {
#define STRATA_FUNCTION(slot, name, ret, params, args) reinterpret_cast<void*>(&Check_##name),
#include "strata/api/function_list.inc"
#undef STRATA_FUNCTION
};

// The app's glGetError sees the error the layer took from GL first.
GLenum GetErrorForApp() {
  if (GLenum pending = t_pending_error; pending != GL_NO_ERROR) {
    t_pending_error = GL_NO_ERROR;
    return pending;
  }
  return CheckedError();
}

void PrintSummary() {
  uint64_t calls = g_error_calls.load();
  if (calls == 0) return;
  std::lock_guard<std::mutex> lock(g_sites_mutex);
  STRATA_WARN("error check: %llu erroring GL calls at %zu call sites", static_cast<unsigned long long>(calls),
              g_sites.size());
}

}  // namespace

extern "C" __attribute__((visibility("default"))) void* AndroidGLESLayer_Initialize(
    void*, PFNEGLGETNEXTLAYERPROCADDRESSPROC) {
  std::atexit(PrintSummary);
  return nullptr;
}

extern "C" __attribute__((visibility("default"))) void* AndroidGLESLayer_GetProcAddress(const char* name,
                                                                                      EGLFuncPointer next) {
  int slot = strata::api::FindFunction(name);
  if (slot < 0 || next == nullptr || strata::api::kFunctions[slot].is_egl) return reinterpret_cast<void*>(next);
  g_next[slot] = reinterpret_cast<void*>(next);
  if (slot == strata::api::glGetError) return reinterpret_cast<void*>(&GetErrorForApp);
  return kCheckers[slot];
}
