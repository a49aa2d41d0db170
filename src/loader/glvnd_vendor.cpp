#include "loader/glvnd_vendor.h"

#include <glvnd/libeglabi.h>

#include <climits>
#include <cstdlib>

#include "common/env.h"
#include "common/log.h"
#include "loader/dispatch.h"
#include "loader/egl_hooks.h"
#include "loader/export.h"
#include "loader/glvnd_vendor_list.h"
#include "loader/loader.h"
#include "strata/api/signatures.h"

namespace strata::loader {
namespace {

using VendorMain = EGLBoolean (*)(uint32_t, const __EGLapiExports*, __EGLvendorInfo*, __EGLapiImports*);

// What glvnd gave __egl_Main, passed on to the next vendor.
uint32_t g_abi_version = 0;
const __EGLapiExports* g_exports = nullptr;
__EGLvendorInfo* g_vendor = nullptr;

// The next vendor's imports; room to spare for a vendor built against a newer
// minor version of the ABI that fills fields this header does not have.
struct {
  __EGLapiImports imports;
  void* spare[32];
} g_next{};

template <typename Fn>
Fn Entry(api::Slot slot) {
  return reinterpret_cast<Fn>(kEntryPoints[slot]);
}

// Displays are made through the loader's entry points, so the layers see them.
EGLDisplay GetPlatformDisplay(EGLenum platform, void* native_display, const EGLAttrib* attrib_list) {
  // EGL_NONE: eglGetDisplay(native_display).
  if (platform == EGL_NONE) {
    return Entry<api::PFN_eglGetDisplay>(api::eglGetDisplay)(static_cast<EGLNativeDisplayType>(native_display));
  }
  return Entry<api::PFN_eglGetPlatformDisplay>(api::eglGetPlatformDisplay)(platform, native_display, attrib_list);
}

EGLBoolean GetSupportsAPI(EGLenum api) {
  return g_next.imports.getSupportsAPI != nullptr ? g_next.imports.getSupportsAPI(api) : EGL_FALSE;
}

const char* GetVendorString(int name) {
  return g_next.imports.getVendorString != nullptr ? g_next.imports.getVendorString(name) : nullptr;
}

EGLenum FindNativeDisplayPlatform(void* native_display) {
  return g_next.imports.findNativeDisplayPlatform != nullptr
             ? g_next.imports.findNativeDisplayPlatform(native_display)
             : EGL_NONE;
}

// glvnd answers the program's EGL_NO_DISPLAY queries itself, from strings it
// gathers from each vendor: those gatherings are glvnd's calls, not the
// program's, and skip the layers.
const char* QueryString(EGLDisplay dpy, EGLint name) {
  if (dpy == EGL_NO_DISPLAY) {
    auto driver = reinterpret_cast<api::PFN_eglQueryString>(Loader::Get().DriverFunction(api::eglQueryString));
    return driver != nullptr ? driver(dpy, name) : nullptr;
  }
  return Entry<api::PFN_eglQueryString>(api::eglQueryString)(dpy, name);
}

// glvnd fills its EGL and GL dispatch from here: the loader's entry points
// for every function the registry knows. A name it does not know goes to the
// driver without the layers: glvnd asks for every function of its own list
// (desktop GL's included) when a context is first made current, so these
// lookups are no request of the program's, and a tracer would take each for one.
void* GetProcAddress(const char* name) {
  if (name == nullptr) return nullptr;
  void* found = g_next.imports.getProcAddress(name);
  int slot = api::FindFunction(name);
  if (slot < 0) return found;
  void* entry = Loader::Get().EntryPointFor(slot, found);
  return entry != nullptr && slot == api::eglQueryString ? reinterpret_cast<void*>(QueryString) : entry;
}

// Extension functions that take a display: the next vendor's dispatch stubs
// find the display's vendor (this one) and ask GetProcAddress for the function.
void* GetDispatchAddress(const char* name) {
  return g_next.imports.getDispatchAddress != nullptr ? g_next.imports.getDispatchAddress(name) : nullptr;
}

void SetDispatchIndex(const char* name, int index) {
  if (g_next.imports.setDispatchIndex != nullptr) g_next.imports.setDispatchIndex(name, index);
}

// The vendor file after Strata's in glvnd's list: the first whose library is
// not in Strata's directory.
bool FindNextVendor(const std::string& own_directory, std::string* library, std::string* error) {
  std::vector<std::string> unreadable;
  const std::vector<std::string> others = OtherGlvndVendorLibraries(own_directory, &unreadable);
  for (const std::string& why : unreadable) STRATA_WARN("%s; skipped", why.c_str());
  if (!others.empty()) {
    *library = others.front();
    return true;
  }
  *error = "glvnd's EGL vendor list names no vendor after Strata's (add the driver's vendor file after Strata's in "
           "__EGL_VENDOR_LIBRARY_FILENAMES, e.g. /usr/share/glvnd/egl_vendor.d/50_mesa.json)";
  return false;
}

}  // namespace

GetProcAddressFunction LoadNextGlvndVendor(const std::string& own_directory, SharedLibrary* library,
                                           DriverLocation* location) {
  std::string path;
  const char* remote = GetEnv("STRATA_REMOTE");
  if (remote != nullptr && *remote != '\0') {
    path = own_directory + "/libstrata_remote.so";  // as in the library-path route
  } else if (!FindNextVendor(own_directory, &path, &location->error)) {
    return nullptr;
  }
  location->path = path;
  if (!library->Open(path, /*isolated=*/true)) {
    location->error = "cannot load glvnd vendor " + path + ": " + library->error();
    return nullptr;
  }
  auto vendor_main = reinterpret_cast<VendorMain>(library->Symbol("__egl_Main"));
  if (vendor_main == nullptr) {
    location->error = path + " is not a glvnd EGL vendor (it has no __egl_Main)";
    return nullptr;
  }
  if (!vendor_main(g_abi_version, g_exports, g_vendor, &g_next.imports) || g_next.imports.getProcAddress == nullptr) {
    location->error = "glvnd vendor " + path + " refused to load";
    return nullptr;
  }
  return g_next.imports.getProcAddress;
}

}  // namespace strata::loader

extern "C" STRATA_EXPORT EGLBoolean __egl_Main(uint32_t version, const __EGLapiExports* exports,
                                               __EGLvendorInfo* vendor, __EGLapiImports* imports) {
  using namespace strata::loader;
  if (EGL_VENDOR_ABI_GET_MAJOR_VERSION(version) != EGL_VENDOR_ABI_MAJOR_VERSION) return EGL_FALSE;
  g_abi_version = version;
  g_exports = exports;
  g_vendor = vendor;
  if (!ClaimProcessForGlvnd()) {
    // Strata's public libraries have the process: this is the system's libEGL
    // they load as their driver, which must not come back up through them.
    return EGL_FALSE;
  }
  if (!Loader::Get().driver_loaded()) return EGL_FALSE;  // the reason is logged; glvnd tries the next vendor
  imports->getPlatformDisplay = GetPlatformDisplay;
  imports->getSupportsAPI = GetSupportsAPI;
  imports->getVendorString = GetVendorString;
  imports->getProcAddress = GetProcAddress;
  imports->getDispatchAddress = GetDispatchAddress;
  imports->setDispatchIndex = SetDispatchIndex;
  if (g_next.imports.findNativeDisplayPlatform != nullptr) imports->findNativeDisplayPlatform = FindNativeDisplayPlatform;
  return EGL_TRUE;
}
