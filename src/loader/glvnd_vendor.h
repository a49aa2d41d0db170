#pragma once
// libstrata_loader.so as a glvnd EGL vendor (glvnd's libeglabi.h). A program
// that reaches EGL only through the system's libEGL (glvnd) -- its library
// path reset by a launcher, a driver taken from its RPATH -- still passes the
// loader and its layers when Strata's vendor file comes first in glvnd's list:
// glvnd calls __egl_Main, the loader takes the next vendor in the list (Mesa,
// NVIDIA, ...) as its driver, and glvnd reaches every EGL and GL function
// through the loader's entry points. When Strata's public libraries were
// loaded first the process is theirs and the vendor declines.

#include <string>

#include "common/shared_library.h"
#include "loader/driver_locator.h"

namespace strata::loader {

using GetProcAddressFunction = void* (*)(const char*);

// For the loader's constructor in the glvnd route: loads the vendor after
// Strata's in glvnd's list (or Strata's remote client driver when
// STRATA_REMOTE is set) and hands it glvnd's interface. Returns the vendor's
// getProcAddress, or null with `location->error` set.
GetProcAddressFunction LoadNextGlvndVendor(const std::string& own_directory, SharedLibrary* library,
                                           DriverLocation* location);

}  // namespace strata::loader
