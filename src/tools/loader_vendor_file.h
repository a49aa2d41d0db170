#pragma once
// The glvnd vendor file `strata run` and `strata trace` put first in glvnd's
// list: one naming the loader of the running Strata, wherever its tree was
// copied or moved. glvnd passes a vendor file's "library_path" to dlopen as
// it stands (a relative path would be the working directory's), so the file
// names the loader by absolute path, and a file written for another place
// would load another Strata's loader into the program beside this one.

#include <string>

namespace strata::tools {

// A vendor file naming `lib_dir`/libstrata_loader.so: the one in `lib_dir`
// when it names that loader (the build's or the installation's, where it was
// made), else one written for it under the user's cache directory
// ($XDG_CACHE_HOME/strata, else ~/.cache/strata), named after the loader's
// path. "" with `error` saying why when neither can be had.
std::string LoaderVendorFile(const std::string& lib_dir, std::string* error);

}  // namespace strata::tools
