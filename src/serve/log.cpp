#include "serve/log.h"

#include <cstdio>
#include <mutex>

namespace strata::serve {

void Log(const std::string& line) {
  static std::mutex mu;
  std::lock_guard lock(mu);
  std::fprintf(stderr, "strata serve: %s\n", line.c_str());
  std::fflush(stderr);
}

}  // namespace strata::serve
