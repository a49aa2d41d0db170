#include "common/byte_size.h"

#include <unistd.h>

namespace strata {

bool ParseByteSize(std::string_view text, uint64_t* bytes) {
  uint64_t value = 0;
  size_t at = 0;
  for (; at < text.size() && text[at] >= '0' && text[at] <= '9'; ++at) {
    if (__builtin_mul_overflow(value, 10, &value) || __builtin_add_overflow(value, text[at] - '0', &value)) {
      return false;
    }
  }
  if (at == 0) return false;
  std::string_view unit = text.substr(at);
  unsigned shift = 0;
  if (unit == "K" || unit == "KiB") shift = 10;
  else if (unit == "M" || unit == "MiB") shift = 20;
  else if (unit == "G" || unit == "GiB") shift = 30;
  else if (!unit.empty()) return false;
  if (shift != 0 && value > (UINT64_MAX >> shift)) return false;
  *bytes = value << shift;
  return true;
}

uint64_t PhysicalMemoryBytes() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? static_cast<uint64_t>(pages) * static_cast<uint64_t>(page) : 0;
}

}  // namespace strata
