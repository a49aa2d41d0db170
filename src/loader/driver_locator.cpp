#include "loader/driver_locator.h"

#include <climits>
#include <cstdlib>
#include <sstream>
#include <unistd.h>

#include "common/env.h"
#include "common/shared_library.h"

namespace strata::loader {
namespace {

bool IsInside(const std::string& path, const std::string& directory) {
  return !directory.empty() && path.rfind(directory + "/", 0) == 0;
}

}  // namespace

const char* SonameOf(DriverLibrary library) {
  switch (library) {
    case DriverLibrary::kEgl: return "libEGL.so.1";
    case DriverLibrary::kGlesV2: return "libGLESv2.so.2";
    case DriverLibrary::kGlesV1: return "libGLESv1_CM.so.1";
    case DriverLibrary::kGl: return "libGL.so.1";
  }
  return "";
}

const char* OverrideVariableOf(DriverLibrary library) {
  switch (library) {
    case DriverLibrary::kEgl: return "STRATA_DRIVER_EGL";
    case DriverLibrary::kGlesV2: return "STRATA_DRIVER_GLESV2";
    case DriverLibrary::kGlesV1: return "STRATA_DRIVER_GLESV1";
    case DriverLibrary::kGl: return "STRATA_DRIVER_GL";
  }
  return "";
}

std::vector<std::string> DriverSearchDirectories() {
  std::vector<std::string> dirs;
  // A user's LD_LIBRARY_PATH may name a driver build of their own; honour it first.
  if (const char* ld_path = GetEnv("LD_LIBRARY_PATH")) {
    std::stringstream stream(ld_path);
    for (std::string dir; std::getline(stream, dir, ':');) {
      if (!dir.empty()) dirs.push_back(dir);
    }
  }
  for (const char* dir : {"/usr/lib/" STRATA_MULTIARCH, "/lib/" STRATA_MULTIARCH, "/usr/lib64", "/lib64",
                          "/usr/local/lib", "/usr/lib", "/lib"}) {
    dirs.push_back(dir);
  }
  return dirs;
}

DriverLocation LocateDriver(DriverLibrary library, const std::string& own_directory) {
  DriverLocation location;
  const std::string own = RealPath(own_directory);
  if (const char* override_path = GetEnv(OverrideVariableOf(library))) {
    location.from_override = true;
    std::string resolved = RealPath(override_path);
    if (resolved.empty()) {
      location.error = std::string(OverrideVariableOf(library)) + "='" + override_path + "' does not exist";
    } else if (access(resolved.c_str(), R_OK) != 0) {
      location.error = std::string(OverrideVariableOf(library)) + "='" + override_path + "' is not readable";
    } else if (IsInside(resolved, own)) {
      location.error = std::string(OverrideVariableOf(library)) + "='" + override_path +
                       "' is Strata's own library, not a driver";
    } else {
      location.path = resolved;
    }
    return location;
  }
  for (const std::string& dir : DriverSearchDirectories()) {
    std::string resolved = RealPath(dir + "/" + SonameOf(library));
    if (resolved.empty() || IsInside(resolved, own) || access(resolved.c_str(), R_OK) != 0) continue;
    location.path = resolved;
    return location;
  }
  location.error = std::string("no system ") + SonameOf(library) +
                   " found outside Strata's directory; install the driver (Debian: libegl1, libgles2, "
                   "libgles1) or set " + OverrideVariableOf(library);
  return location;
}

}  // namespace strata::loader
