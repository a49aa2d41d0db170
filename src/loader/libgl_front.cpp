// The hand-written part of Strata's libGL.so.1. glvnd's libGL hands out, from
// glXGetProcAddress, stubs that dispatch through the context the driver made
// current, below Strata; programs that take GLES extension functions from it
// (piglit does, even on EGL) would bypass every layer. Strata's libGL answers
// with its routed exports instead and forwards everything else to the
// system's libGL, found like a driver library (STRATA_DRIVER_GL overrides).
#include "loader/libgl_front.h"

#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <string>

#include "common/log.h"
#include "common/shared_library.h"
#include "loader/driver_locator.h"
#include "loader/export.h"

namespace strata::loader {
namespace {

using GetProcAddressFn = void* (*)(const char*);
GetProcAddressFn g_system_get_proc_address = nullptr;

// What a name the system's libGL does not provide reaches.
extern "C" long StrataLibGlMissingFunction() {
  static std::atomic<bool> reported{false};
  if (!reported.exchange(true)) {
    STRATA_ERROR("a GL/GLX function that the system's libGL does not provide was called through Strata's libGL; "
                 "the call did nothing");
  }
  return 0;
}

void* OpenSystemLibGl() {
  std::string own = DirectoryOf(PathOfObjectContaining(reinterpret_cast<const void*>(&OpenSystemLibGl)));
  DriverLocation location = LocateDriver(DriverLibrary::kGl, own);
  if (location.path.empty()) {
    STRATA_ERROR("Strata's libGL.so.1 cannot find the system's libGL.so.1 (%s); every GL/GLX call through it does "
                 "nothing. Set STRATA_DRIVER_GL to its path.",
                 location.error.empty() ? "not in any library directory" : location.error.c_str());
    return nullptr;
  }
  // Kept out of the global scope, where our same-named exports are the program's.
  void* handle = dlopen(location.path.c_str(), RTLD_NOW | kIsolatedDlopenFlags);
  if (handle == nullptr) STRATA_ERROR("Strata's libGL.so.1 cannot load %s: %s", location.path.c_str(), dlerror());
  return handle;
}

// Runs when the library is loaded, before any of its exports can be called.
__attribute__((constructor)) void ResolveSystemLibGl() {
  void* system = OpenSystemLibGl();
  if (system != nullptr) {
    g_system_get_proc_address = reinterpret_cast<GetProcAddressFn>(dlsym(system, "glXGetProcAddressARB"));
  }
  for (size_t k = 0; k < kLibGlFunctionCount; ++k) {
    void* function = system ? dlsym(system, kLibGlNames[k]) : nullptr;
    if (function == nullptr && g_system_get_proc_address != nullptr) function = g_system_get_proc_address(kLibGlNames[k]);
    strata_libgl_functions[k] = function ? function : reinterpret_cast<void*>(&StrataLibGlMissingFunction);
  }
}

void* GetProcAddress(const char* name) {
  if (name == nullptr) return nullptr;
  const RoutedExport* end = kRoutedExports + kRoutedExportCount;
  const RoutedExport* found = std::lower_bound(kRoutedExports, end, name, [](const RoutedExport& e, const char* n) {
    return std::strcmp(e.name, n) < 0;
  });
  if (found != end && std::strcmp(found->name, name) == 0) return found->function;
  return g_system_get_proc_address ? g_system_get_proc_address(name) : nullptr;
}

}  // namespace
}  // namespace strata::loader

extern "C" STRATA_EXPORT void* glXGetProcAddressARB(const unsigned char* name) {
  return strata::loader::GetProcAddress(reinterpret_cast<const char*>(name));
}
extern "C" STRATA_EXPORT void* glXGetProcAddress(const unsigned char* name) {
  return strata::loader::GetProcAddress(reinterpret_cast<const char*>(name));
}
