#include "transport/spin_wait.h"

#include <fcntl.h>
#include <unistd.h>

namespace strata::transport {
namespace {

struct LoadAverage {
  int fd = open("/proc/loadavg", O_RDONLY | O_CLOEXEC);
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
};

const LoadAverage& Machine() {
  static const LoadAverage machine;  // kept open for the process's life
  return machine;
}

}  // namespace

bool CoreToSpare() {
  const LoadAverage& machine = Machine();
  if (machine.fd < 0 || machine.cores <= 0) return true;
  // "0.52 0.58 0.59 3/245 1234": the fourth field is runnable/total.
  char text[128];
  const ssize_t n = pread(machine.fd, text, sizeof text - 1, 0);
  if (n <= 0) return true;
  text[n] = '\0';
  int spaces = 0;
  const char* p = text;
  for (; *p != '\0' && spaces < 3; ++p) spaces += *p == ' ';
  long runnable = 0;
  for (; *p >= '0' && *p <= '9'; ++p) runnable = runnable * 10 + (*p - '0');
  if (*p != '/') return true;
  return runnable <= machine.cores;
}

namespace {

struct Verdict {
  std::chrono::steady_clock::time_point at{};
  bool full = false;
};
thread_local Verdict t_verdict;

}  // namespace

bool RecentlyFull(std::chrono::steady_clock::time_point now) {
  if (now - t_verdict.at > std::chrono::nanoseconds(kVerdictNs)) return false;
  return t_verdict.full;
}

bool CoreToSpareNow(std::chrono::steady_clock::time_point now) {
  const bool spare = CoreToSpare();
  t_verdict = {now, !spare};
  return spare;
}

}  // namespace strata::transport
