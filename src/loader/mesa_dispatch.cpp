#include "loader/mesa_dispatch.h"

#include <dlfcn.h>

#include <vector>

#include "common/env.h"
#include "common/shared_library.h"
#include "loader/glvnd_vendor_list.h"

namespace strata::loader {

GlProcAddressFunction MesaGlDispatchBelowGlvnd(const std::string& own_directory, std::string* why) {
  const char* forced = GetEnv("STRATA_GLVND_DISPATCH");
  if (forced != nullptr && std::string(forced) == "1") {
    *why = "STRATA_GLVND_DISPATCH=1";
    return nullptr;
  }
  if (dlopen("libGLdispatch.so.0", RTLD_NOW | RTLD_NOLOAD) == nullptr) {
    *why = "the driver is not glvnd's";
    return nullptr;
  }
  std::vector<std::string> unreadable;  // glvnd skips them too
  const std::vector<std::string> vendors = OtherGlvndVendorLibraries(own_directory, &unreadable);
  if (vendors.size() != 1 || FileNameOf(vendors[0]) != "libEGL_mesa.so.0") {
    *why = vendors.empty() ? "glvnd lists no EGL vendor" : "glvnd's EGL vendors are not Mesa's alone";
    return nullptr;
  }
  // By soname, as libEGL_mesa's own dependency: the one copy, whose
  // per-thread table Mesa's make-current sets. Never closed.
  void* glapi = dlopen("libglapi.so.0", RTLD_NOW | RTLD_LOCAL);
  if (glapi == nullptr) {
    *why = "Mesa has no shared glapi (libglapi.so.0)";
    return nullptr;
  }
  auto get_proc = reinterpret_cast<GlProcAddressFunction>(dlsym(glapi, "_glapi_get_proc_address"));
  if (get_proc == nullptr) *why = "libglapi.so.0 has no _glapi_get_proc_address";
  return get_proc;
}

}  // namespace strata::loader
