#pragma once
// Who the calling process is, as layer settings and trace headers name it.

#include <string>
#include <vector>

namespace strata {

// Absolute path of the running executable ("" if unknown).
std::string ExecutablePath();
// Its file name, argv[0]'s file name and the kernel's name for it (/proc/self/comm,
// which a forked child can change): what an app may be called by.
std::vector<std::string> ProcessNames();

}  // namespace strata
