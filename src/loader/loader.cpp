#include "loader/loader.h"

#include <EGL/egl.h>
#include <dlfcn.h>
#include <unistd.h>

#include <atomic>

#include "common/env.h"
#include "common/log.h"
#include "common/process_info.h"
#include "loader/driverless.h"
#include "loader/glvnd_vendor.h"
#include "loader/layer_settings.h"
#include "loader/own_entry_points.h"

namespace strata::loader {

namespace {

// Indexed by ContextApi. Static storage so that every thread's TLS pointer can
// start at the no-context table, whenever the thread was created.
DispatchTable g_tables[3];

std::atomic<Route> g_route{Route::kUnclaimed};

bool IsGles1Function(const api::FunctionInfo& info) {
  return info.api_mask & (api::kGLES1_1 | api::kGLES1extensions);
}

}  // namespace

__thread const DispatchTable* strata_current_dispatch __attribute__((tls_model("initial-exec"))) = &g_tables[0];
__thread bool strata_egl_context_current __attribute__((tls_model("initial-exec"))) = false;

void ClaimProcessForPublicLibraries() {
  // Only the first claim builds: the public libraries the loader itself opens
  // (ClaimPublicSonames) claim again from inside the build.
  Route expected = Route::kUnclaimed;
  if (g_route.compare_exchange_strong(expected, Route::kPublicLibraries)) Loader::Get();
}

bool ClaimProcessForGlvnd() {
  Route expected = Route::kUnclaimed;
  return g_route.compare_exchange_strong(expected, Route::kGlvndVendor) || expected == Route::kGlvndVendor;
}

Loader& Loader::Get() {
  // Reached unclaimed only by the loader's diagnostics (strata info): the public libraries' route.
  Route expected = Route::kUnclaimed;
  g_route.compare_exchange_strong(expected, Route::kPublicLibraries);
  static Loader loader;
  return loader;
}

Loader::Loader() : route_(g_route.load()) {
  own_directory_ = DirectoryOf(PathOfObjectContaining(reinterpret_cast<const void*>(&Loader::Get)));
  // Through glvnd the program has the system's libraries, and keeps them.
  if (route_ == Route::kPublicLibraries) ClaimPublicSonames();
  LoadDriver();
  BuildTables();
  BuildLayerChain();
  if (driver_loaded()) {
    STRATA_INFO("loader ready in process %d: driver %s%s", static_cast<int>(getpid()),
                driver(DriverLibrary::kEgl).path().c_str(), route_ == Route::kGlvndVendor ? " (through glvnd)" : "");
  }
}

void Loader::ClaimPublicSonames() {
  // The driver's libraries carry the same sonames as ours. Whichever is loaded
  // first answers a later dlopen("libGLESv2.so.2") by name (piglit, glmark2 and
  // waffle do that), so ours must all be loaded before the driver's.
  for (DriverLibrary library : kAllDriverLibraries) {
    std::string path = own_directory_ + "/" + SonameOf(library);
    if (dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL) == nullptr) {
      STRATA_WARN("cannot load Strata's own %s (%s): programs that dlopen it by name may bypass Strata", path.c_str(),
                  dlerror());
    }
  }
}

void Loader::LoadDriver() {
  if (route_ == Route::kGlvndVendor) {
    // One vendor library serves EGL and GL alike, every function by its getProcAddress.
    DriverLocation& location = location_[Index(DriverLibrary::kEgl)];
    driver_get_proc_address_ = LoadNextGlvndVendor(own_directory_, &driver_[Index(DriverLibrary::kEgl)], &location);
    if (driver_get_proc_address_ == nullptr) {
      STRATA_ERROR("%s", location.error.c_str());
    } else {
      STRATA_DEBUG("driver: glvnd vendor %s", location.path.c_str());
    }
    return;
  }
  // STRATA_REMOTE: the remote client driver stands where the system's would,
  // for EGL and both GLES libraries, below the layers.
  const char* remote = GetEnv("STRATA_REMOTE");
  for (DriverLibrary library : kAllDriverLibraries) {
    DriverLocation& location = location_[Index(library)];
    if (remote != nullptr && *remote != '\0') {
      location = DriverLocation{own_directory_ + "/libstrata_remote.so", true, ""};
    } else {
      location = LocateDriver(library, own_directory_);
    }
    // Only EGL is required: GLES functions can also come from eglGetProcAddress.
    bool required = library == DriverLibrary::kEgl || location.from_override;
    if (location.path.empty()) {
      if (required) STRATA_ERROR("%s", location.error.c_str());
      continue;
    }
    if (!driver_[Index(library)].Open(location.path, /*isolated=*/true)) {
      location.error = "cannot load driver " + location.path + ": " + driver_[Index(library)].error();
      if (required) STRATA_ERROR("%s", location.error.c_str());
    } else {
      STRATA_DEBUG("driver %s: %s", SonameOf(library), location.path.c_str());
    }
  }
}

GlProcAddressFunction Loader::MesaGlDispatch() const {
  // Not through glvnd's vendor route (its functions are the vendor's already),
  // nor with a driver library named (STRATA_DRIVER_*, the remote driver): its
  // contexts need not be Mesa's.
  if (route_ == Route::kGlvndVendor) return nullptr;
  for (DriverLibrary library : kAllDriverLibraries) {
    if (location(library).from_override) {
      STRATA_DEBUG("GL calls: through the named driver's entry points");
      return nullptr;
    }
  }
  std::string why;
  GlProcAddressFunction mesa_gl = MesaGlDispatchBelowGlvnd(own_directory_, &why);
  if (mesa_gl != nullptr) {
    STRATA_DEBUG("GL calls: Mesa's glapi directly, without glvnd's stub");
  } else {
    STRATA_DEBUG("GL calls: through glvnd's stubs (%s)", why.c_str());
  }
  return mesa_gl;
}

void Loader::BuildTables() {
  const SharedLibrary& egl = driver(DriverLibrary::kEgl);
  auto get_proc = driver_get_proc_address_ != nullptr
                      ? driver_get_proc_address_
                      : reinterpret_cast<void* (*)(const char*)>(egl.Symbol("eglGetProcAddress"));
  const GlProcAddressFunction mesa_gl = driver_loaded() ? MesaGlDispatch() : nullptr;
  gl_dispatch_direct_ = mesa_gl != nullptr;
  // `direct`: for a function the libraries export, the entry point to take instead (Mesa's, for GL).
  auto find = [&](const char* name, const SharedLibrary& first, const SharedLibrary& second,
                  GlProcAddressFunction direct) -> void* {
    if (driver_get_proc_address_ != nullptr) return get_proc(name);  // a glvnd vendor exports only __egl_Main
    void* fn = first.Symbol(name);
    if (fn == nullptr) fn = second.Symbol(name);
    if (fn == nullptr) return get_proc ? get_proc(name) : nullptr;
    void* instead = direct != nullptr ? direct(name) : nullptr;
    return instead != nullptr ? instead : fn;
  };
  // An entry point of Strata's own, found where the driver looked names up,
  // would jump through its own slot for ever: the driver has none.
  const OwnEntryPoints own(own_directory_);
  int refused = 0;
  const char* first_refused = nullptr;
  auto resolve = [&](const char* name, const SharedLibrary& first, const SharedLibrary& second,
                     GlProcAddressFunction direct) -> void* {
    void* fn = find(name, first, second, direct);
    if (!own.Contains(fn)) return fn;
    if (refused++ == 0) first_refused = name;
    return nullptr;
  };
  const SharedLibrary& v1 = driver(DriverLibrary::kGlesV1);
  const SharedLibrary& v2 = driver(DriverLibrary::kGlesV2);
  DispatchTable& none = g_tables[static_cast<int>(ContextApi::kNone)];
  DispatchTable& gles1 = g_tables[static_cast<int>(ContextApi::kGles1)];
  DispatchTable& gles2 = g_tables[static_cast<int>(ContextApi::kGles2)];
  for (int slot = 0; slot < api::kFunctionCount; ++slot) {
    const api::FunctionInfo& info = api::kFunctions[slot];
    void* stub = kUnavailableStubs[slot];
    if (!driver_loaded()) {
      void* fn = DriverlessFunction(slot);
      none.entries[slot] = gles1.entries[slot] = gles2.entries[slot] = fn ? fn : stub;
      continue;
    }
    if (info.is_egl) {
      void* fn = resolve(info.name, egl, egl, nullptr);
      driver_functions_.entries[slot] = fn;
      none.entries[slot] = gles1.entries[slot] = gles2.entries[slot] = fn ? fn : stub;
      continue;
    }
    void* fn1 = resolve(info.name, v1, v2, mesa_gl);
    void* fn2 = resolve(info.name, v2, v1, mesa_gl);
    driver_functions_.entries[slot] = IsGles1Function(info) && !fn2 ? fn1 : fn2;
    none.entries[slot] = stub;
    gles1.entries[slot] = fn1 ? fn1 : stub;
    gles2.entries[slot] = fn2 ? fn2 : stub;
  }
  if (refused > 0) {
    STRATA_WARN("the driver %s handed out Strata's own entry point for %d lookup(s) (%s first), found where it looks "
                "names up in the process: left unavailable, as they would call themselves",
                driver(DriverLibrary::kEgl).path().c_str(), refused, first_refused);
  }
}

void Loader::BuildLayerChain() {
  application_directory_ = DirectoryOf(ExecutablePath());
  LayerPlan plan = PlanLayers(ProcessNames());
  if (!plan.notice.empty()) STRATA_WARN("%s", plan.notice.c_str());
  if (plan.layers.empty() || !driver_loaded()) return;
  STRATA_DEBUG("layers from %s: %s", plan.source.c_str(), JoinColonList(plan.layers).c_str());

  DispatchTable bottom{}, top{};
  for (int slot = 0; slot < api::kFunctionCount; ++slot) {
    void* fn = driver_functions_.entries[slot];
    bottom.entries[slot] = fn ? fn : kUnavailableStubs[slot];
  }
  auto get_proc = reinterpret_cast<void* (*)(const char*)>(driver_functions_.entries[api::eglGetProcAddress]);
  layers_.Build(plan.layers, LayerSearchDirectories(plan.extra_search_paths, application_directory_, own_directory_),
                bottom, get_proc, &top);
  for (int slot = 0; slot < api::kFunctionCount; ++slot) {
    if (top.entries[slot] == bottom.entries[slot]) continue;  // untouched: keep each table's own driver entry
    intercepted_[slot] = true;
    if (api::kFunctions[slot].is_egl) g_tables[static_cast<int>(ContextApi::kNone)].entries[slot] = top.entries[slot];
    g_tables[static_cast<int>(ContextApi::kGles1)].entries[slot] = top.entries[slot];
    g_tables[static_cast<int>(ContextApi::kGles2)].entries[slot] = top.entries[slot];
  }
}

const DispatchTable& Loader::table(ContextApi api) const { return g_tables[static_cast<int>(api)]; }

int Loader::ResolvedCount(ContextApi api) const {
  int count = 0;
  for (int slot = 0; slot < api::kFunctionCount; ++slot) {
    if (table(api).entries[slot] != kUnavailableStubs[slot]) ++count;
  }
  return count;
}

void Loader::SelectTableFor(EGLDisplay display, EGLContext context) const {
  ContextApi api = ContextApi::kNone;
  if (context != EGL_NO_CONTEXT) {
    auto query = reinterpret_cast<EGLBoolean (*)(EGLDisplay, EGLContext, EGLint, EGLint*)>(
        DriverFunction(api::eglQueryContext));
    EGLint type = EGL_OPENGL_ES_API, version = 2;
    if (query) {
      query(display, context, EGL_CONTEXT_CLIENT_TYPE, &type);
      query(display, context, EGL_CONTEXT_CLIENT_VERSION, &version);
    }
    // A desktop GL context takes the GLES 2+ table: it holds the GLES 1.1
    // functions desktop GL shares too, from whichever GLES library has them.
    api = (type == EGL_OPENGL_ES_API && version == 1) ? ContextApi::kGles1 : ContextApi::kGles2;
  }
  strata_current_dispatch = &table(api);
  strata_egl_context_current = context != EGL_NO_CONTEXT;
}

}  // namespace strata::loader
