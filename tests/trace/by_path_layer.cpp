// A layer from outside Strata's directory that opens the system's libEGL by
// absolute path, as a layer that talks to the driver itself may: it must get
// the driver, not Strata's libEGL. Prints where its library came from.
#include <dlfcn.h>

#include <cstdio>

#include "strata/gles_layer.h"

extern "C" __attribute__((visibility("default"))) void* AndroidGLESLayer_Initialize(void*, void*) {
  void* egl = dlopen(STRATA_SYSTEM_LIB_DIR "/libEGL.so.1", RTLD_NOW | RTLD_LOCAL);
  Dl_info info{};
  void* function = egl ? dlsym(egl, "eglGetProcAddress") : nullptr;
  if (function && dladdr(function, &info) && info.dli_fname) {
    std::fprintf(stderr, "by_path_layer: libEGL from %s\n", info.dli_fname);
  } else {
    std::fprintf(stderr, "by_path_layer: no libEGL: %s\n", dlerror());
  }
  return nullptr;
}

extern "C" __attribute__((visibility("default"))) void* AndroidGLESLayer_GetProcAddress(const char*,
                                                                                      EGLFuncPointer next) {
  return reinterpret_cast<void*>(next);
}
