#include "common/process_info.h"

#include <errno.h>
#include <unistd.h>

namespace strata {

std::string ExecutablePath() {
  char buffer[4096];
  ssize_t n = readlink("/proc/self/exe", buffer, sizeof buffer - 1);
  return n > 0 ? std::string(buffer, static_cast<size_t>(n)) : std::string();
}

std::vector<std::string> ProcessNames() {
  std::string path = ExecutablePath();
  return {path.substr(path.rfind('/') + 1), program_invocation_short_name};
}

}  // namespace strata
