#pragma once
// Where Strata's pieces are, relative to the running `strata` binary: the build
// tree and the install tree share the layout bin/strata + lib*/strata/.

#include <string>

namespace strata::tools {

// Directory holding libEGL.so.1, libGLESv2.so.2, libGLESv1_CM.so.1 and
// libstrata_loader.so. STRATA_LIB_DIR overrides it.
std::string StrataLibraryDirectory();

}  // namespace strata::tools
