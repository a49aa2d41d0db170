#include "loader/driverless.h"

#include <EGL/egl.h>

#include "strata/api/functions.h"

namespace strata::loader {
namespace {

const char* DriverlessQueryString(EGLDisplay display, EGLint name) {
  // EGL_EXT_client_extensions: the client extension string exists and is empty.
  return (display == EGL_NO_DISPLAY && name == EGL_EXTENSIONS) ? "" : nullptr;
}

EGLint DriverlessGetError() { return EGL_NOT_INITIALIZED; }

}  // namespace

void* DriverlessFunction(int slot) {
  switch (slot) {
    case api::eglQueryString: return reinterpret_cast<void*>(&DriverlessQueryString);
    case api::eglGetError: return reinterpret_cast<void*>(&DriverlessGetError);
    default: return nullptr;
  }
}

}  // namespace strata::loader
