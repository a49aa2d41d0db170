#include "remote/glvnd_vendor.h"

#include <glvnd/libeglabi.h>

#include <atomic>

#include "remote/generated_support.h"
#include "remote/session.h"

namespace strata::remote {
namespace {

const __EGLapiExports* g_exports = nullptr;
std::atomic<bool> g_loaded{false};

EGLDisplay GetPlatformDisplay(EGLenum platform, void* native_display, const EGLAttrib* attrib_list) {
  Session& session = Session::Get();
  // Installed system-wide, the vendor stays out of programs that did not ask
  // for a renderer.
  if (!session.requested()) return EGL_NO_DISPLAY;
  // Unreachable with STRATA_REMOTE_FALLBACK=native: glvnd's next vendor.
  if (!session.Start() && session.fell_back()) return EGL_NO_DISPLAY;
  // EGL_NONE: eglGetDisplay(EGL_DEFAULT_DISPLAY).
  if (platform == EGL_NONE) return Remote_eglGetDisplay(static_cast<EGLNativeDisplayType>(native_display));
  return Remote_eglGetPlatformDisplay(platform, native_display, attrib_list);
}

EGLBoolean GetSupportsAPI(EGLenum api) { return api == EGL_OPENGL_ES_API ? EGL_TRUE : EGL_FALSE; }

const char* GetVendorString(int name) {
  return name == __EGL_VENDOR_STRING_PLATFORM_EXTENSIONS ? ClientPlatformExtensions() : nullptr;
}

void* GetProcAddress(const char* name) { return reinterpret_cast<void*>(Remote_eglGetProcAddress(name)); }

}  // namespace

bool LoadedByGlvnd() { return g_loaded.load(std::memory_order_acquire); }

void* GlvndDispatchEntry(EGLDisplay dpy, int index) {
  g_exports->threadInit();
  __EGLvendorInfo* vendor = g_exports->getVendorFromDisplay(dpy);
  __eglMustCastToProperFunctionPointerType entry =
      vendor != nullptr ? g_exports->fetchDispatchEntry(vendor, index) : nullptr;
  if (entry == nullptr) {
    g_exports->setEGLError(EGL_BAD_DISPLAY);
    return nullptr;
  }
  g_exports->setLastVendor(vendor);
  return reinterpret_cast<void*>(entry);
}

}  // namespace strata::remote

extern "C" __attribute__((visibility("default"))) EGLBoolean __egl_Main(uint32_t version,
                                                                        const __EGLapiExports* exports,
                                                                        __EGLvendorInfo* /*vendor*/,
                                                                        __EGLapiImports* imports) {
  using namespace strata::remote;
  if (EGL_VENDOR_ABI_GET_MAJOR_VERSION(version) != EGL_VENDOR_ABI_MAJOR_VERSION) return EGL_FALSE;
  g_exports = exports;
  imports->getPlatformDisplay = GetPlatformDisplay;
  imports->getSupportsAPI = GetSupportsAPI;
  imports->getVendorString = GetVendorString;
  imports->getProcAddress = GetProcAddress;
  imports->getDispatchAddress = GlvndDispatchAddress;
  imports->setDispatchIndex = GlvndSetDispatchIndex;
  g_loaded.store(true, std::memory_order_release);
  return EGL_TRUE;
}
