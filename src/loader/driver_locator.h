#pragma once
// Finds the system's EGL/GLES libraries that Strata's own libraries stand in
// front of. Shared by the loader and the `strata` command (preflight, info).

#include <string>
#include <vector>

namespace strata::loader {

// kGl is the system's libGL, which only Strata's own libGL.so.1 loads (for
// programs that reach GLES through glXGetProcAddress); the loader's driver is
// the other three.
enum class DriverLibrary { kEgl, kGlesV2, kGlesV1, kGl };
inline constexpr DriverLibrary kAllDriverLibraries[] = {DriverLibrary::kEgl, DriverLibrary::kGlesV2,
                                                        DriverLibrary::kGlesV1};

const char* SonameOf(DriverLibrary library);       // "libEGL.so.1"
const char* OverrideVariableOf(DriverLibrary library);  // "STRATA_DRIVER_EGL"

struct DriverLocation {
  std::string path;             // absolute path, empty when not found
  bool from_override = false;   // named by the STRATA_DRIVER_* variable
  std::string error;            // why `path` is empty or unusable
};

// Locates one driver library. `own_directory` is where Strata's libraries are:
// nothing there (or anything that resolves to it) is ever taken as the driver.
DriverLocation LocateDriver(DriverLibrary library, const std::string& own_directory);

// Directories searched when no override is given, in order.
std::vector<std::string> DriverSearchDirectories();

}  // namespace strata::loader
