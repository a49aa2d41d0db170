#include "common/process_info.h"

#include <errno.h>
#include <unistd.h>

#include <fstream>

#include "common/shared_library.h"

namespace strata {

std::string ExecutablePath() {
  char buffer[4096];
  ssize_t n = readlink("/proc/self/exe", buffer, sizeof buffer - 1);
  return n > 0 ? std::string(buffer, static_cast<size_t>(n)) : std::string();
}

std::vector<std::string> ProcessNames() {
  std::string path = ExecutablePath();
  std::vector<std::string> names = {FileNameOf(path), program_invocation_short_name};
  // What a forked child that renamed itself (prctl PR_SET_NAME, as app launchers do) is called now.
  std::ifstream comm("/proc/self/comm");
  std::string kernel_name;
  if (std::getline(comm, kernel_name) && !kernel_name.empty()) names.push_back(kernel_name);
  return names;
}

}  // namespace strata
