#include "serve/log.h"

#include <unistd.h>

#include <cerrno>

namespace strata::serve {

void Log(const std::string& line) {
  // One write a line: the listener and its workers share the descriptor,
  // and a line must not be cut by another process's.
  const std::string text = "strata serve: " + line + "\n";
  for (size_t at = 0; at < text.size();) {
    const ssize_t n = write(STDERR_FILENO, text.data() + at, text.size() - at);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    at += static_cast<size_t>(n);
  }
}

}  // namespace strata::serve
