#pragma once
// Who the calling process is, as layer settings and trace headers name it.

#include <string>
#include <vector>

namespace strata {

// Absolute path of the running executable ("" if unknown).
std::string ExecutablePath();
// Its file name, and the kernel's short name: what an app may be called by.
std::vector<std::string> ProcessNames();

}  // namespace strata
