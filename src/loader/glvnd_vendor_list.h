#pragma once
// glvnd's list of EGL vendors, read as glvnd's libEGL reads it. Shared by the
// loader (which vendor comes after Strata's when glvnd loads the loader as a
// vendor) and `strata run`/`strata trace` (which put the loader first in it).

#include <string>
#include <vector>

namespace strata::loader {

// The vendor files glvnd would read, in its order: those named by
// __EGL_VENDOR_LIBRARY_FILENAMES, else the *.json files of each directory of
// __EGL_VENDOR_LIBRARY_DIRS (default /etc/glvnd/egl_vendor.d, then
// /usr/share/glvnd/egl_vendor.d), sorted by name within a directory. Like
// glvnd, a setuid/setgid process reads only the default directories.
std::vector<std::string> GlvndVendorFiles();

// The "library_path" of one vendor file (a file name or an absolute path).
// False with `error` naming the file when it cannot be read or has none.
bool ReadGlvndVendorLibrary(const std::string& vendor_file, std::string* library, std::string* error);

// The libraries of glvnd's EGL vendors in glvnd's order, those in Strata's
// directory `own_directory` (its loader, its remote driver) left out. A vendor
// file that cannot be read is left out too, with why in `unreadable`.
std::vector<std::string> OtherGlvndVendorLibraries(const std::string& own_directory,
                                                   std::vector<std::string>* unreadable);

// Name of the vendor file Strata's loader has in its library directory, both
// in the build tree and installed.
inline constexpr const char* kLoaderVendorFileName = "glvnd_loader_vendor.json";

}  // namespace strata::loader
