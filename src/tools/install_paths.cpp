#include "tools/install_paths.h"

#include <climits>
#include <cstdlib>
#include <unistd.h>

#include "common/env.h"

namespace strata::tools {

std::string StrataLibraryDirectory() {
  if (const char* dir = GetEnv("STRATA_LIB_DIR")) return dir;
  char exe[PATH_MAX];
  if (!realpath("/proc/self/exe", exe)) return STRATA_INSTALL_LIB_DIR;
  std::string bin_dir(exe);
  bin_dir.resize(bin_dir.rfind('/'));
  std::string prefix = bin_dir.substr(0, bin_dir.rfind('/'));
  return prefix + "/" STRATA_LIB_SUBDIR;
}

}  // namespace strata::tools
