#include "loader/mesa_dispatch.h"

#include <dlfcn.h>

#include <vector>

#include "common/env.h"
#include "loader/glvnd_vendor_list.h"

namespace strata::loader {
namespace {

std::string BaseName(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// The libraries of glvnd's EGL vendors, Strata's own aside (`strata run` puts
// the loader's vendor file first in the list).
std::vector<std::string> OtherVendorLibraries() {
  std::vector<std::string> libraries;
  for (const std::string& file : GlvndVendorFiles()) {
    if (BaseName(file) == kLoaderVendorFileName) continue;
    std::string library, error;
    if (!ReadGlvndVendorLibrary(file, &library, &error)) continue;  // glvnd skips it too
    if (BaseName(library).rfind("libstrata_", 0) == 0) continue;
    libraries.push_back(library);
  }
  return libraries;
}

}  // namespace

GlProcAddressFunction MesaGlDispatchBelowGlvnd(std::string* why) {
  const char* forced = GetEnv("STRATA_GLVND_DISPATCH");
  if (forced != nullptr && std::string(forced) == "1") {
    *why = "STRATA_GLVND_DISPATCH=1";
    return nullptr;
  }
  if (dlopen("libGLdispatch.so.0", RTLD_NOW | RTLD_NOLOAD) == nullptr) {
    *why = "the driver is not glvnd's";
    return nullptr;
  }
  const std::vector<std::string> vendors = OtherVendorLibraries();
  if (vendors.size() != 1 || BaseName(vendors[0]) != "libEGL_mesa.so.0") {
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
