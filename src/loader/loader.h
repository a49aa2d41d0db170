#pragma once
// The loader's process-wide state: the native driver and the dispatch tables
// built from it. Set up once, when libstrata_loader.so is loaded.

#include <string>

#include "common/shared_library.h"
#include "loader/dispatch.h"
#include "loader/driver_locator.h"
#include "loader/layer_chain.h"
#include "loader/mesa_dispatch.h"
#include "strata/api/types.h"

namespace strata::loader {

// How the program reached the loader: through Strata's public libraries
// (found on LD_LIBRARY_PATH, or handed over by the audit module), or through
// the system's libEGL with the loader as a glvnd vendor (glvnd_vendor.h).
// The first to arrive claims the process; the other steps aside.
enum class Route { kUnclaimed, kPublicLibraries, kGlvndVendor };

// Called by each public library as it loads: builds the loader then, before
// any call of the program's.
STRATA_EXPORT void ClaimProcessForPublicLibraries();
// Called by __egl_Main; false when the public libraries have the process.
bool ClaimProcessForGlvnd();

// Which table a thread uses, decided by its current context.
enum class ContextApi { kNone, kGles1, kGles2 };

class Loader {
 public:
  static Loader& Get();

  Route route() const { return route_; }
  // Through glvnd the driver also had to accept glvnd's interface.
  bool driver_loaded() const {
    return driver_[Index(DriverLibrary::kEgl)].loaded() &&
           (route_ != Route::kGlvndVendor || driver_get_proc_address_ != nullptr);
  }
  const SharedLibrary& driver(DriverLibrary library) const { return driver_[Index(library)]; }
  const DriverLocation& location(DriverLibrary library) const { return location_[Index(library)]; }
  const std::string& own_directory() const { return own_directory_; }

  const DispatchTable& table(ContextApi api) const;
  bool IsNoContextTable(const DispatchTable* table) const { return table == &this->table(ContextApi::kNone); }
  // GL functions reach Mesa's glapi without glvnd's stub (mesa_dispatch.h).
  bool gl_dispatch_direct() const { return gl_dispatch_direct_; }
  // Number of slots of a table that reach a driver function.
  int ResolvedCount(ContextApi api) const;

  // The driver's own function in `slot`, bypassing every layer; for the
  // loader's private queries.
  void* DriverFunction(int slot) const { return driver_functions_.entries[slot]; }

  // True when a call to `slot` reaches something: the driver or a layer.
  bool Serves(int slot) const { return DriverFunction(slot) != nullptr || intercepted_[slot]; }
  // What eglGetProcAddress (or glvnd) is handed for a known function the
  // driver answered with `found`: the loader's own entry point, so the call
  // follows the thread's table whatever context is current; null when
  // nothing serves it.
  void* EntryPointFor(int slot, void* found) const {
    return found == nullptr && !Serves(slot) ? nullptr : kEntryPoints[slot];
  }

  LayerChain& layers() { return layers_; }
  const std::string& application_directory() const { return application_directory_; }

  // Points the calling thread at the table for `context` (EGL_NO_CONTEXT: none).
  void SelectTableFor(EGLDisplay display, EGLContext context) const;

 private:
  Loader();
  static int Index(DriverLibrary library) { return static_cast<int>(library); }
  void ClaimPublicSonames();
  void LoadDriver();
  // Mesa's entry points for GL below glvnd, where they may stand for glvnd's (mesa_dispatch.h).
  GlProcAddressFunction MesaGlDispatch() const;
  void BuildTables();
  void BuildLayerChain();

  Route route_;
  std::string own_directory_;
  void* (*driver_get_proc_address_)(const char*) = nullptr;
  DriverLocation location_[3];
  SharedLibrary driver_[3];
  DispatchTable driver_functions_{};  // raw driver function per slot, or nullptr
  std::string application_directory_;
  LayerChain layers_;
  bool intercepted_[api::kFunctionCount] = {};
  bool gl_dispatch_direct_ = false;  // some layer returned its own function
};

}  // namespace strata::loader
