#pragma once
// "N" or "A-B" (either end may be left out: "A-", "-B") for --frames and --calls.

#include <cstdint>
#include <cstdlib>
#include <string>

namespace strata::tools {

struct Range {
  uint64_t first = 0, last = UINT64_MAX;
  bool Contains(uint64_t v) const { return v >= first && v <= last; }
};

inline bool ParseRange(const std::string& text, Range* range) {
  auto number = [](const std::string& s, uint64_t* out) {
    if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos) return false;
    *out = std::strtoull(s.c_str(), nullptr, 10);
    return true;
  };
  auto dash = text.find('-');
  if (dash == std::string::npos) {
    if (!number(text, &range->first)) return false;
    range->last = range->first;
    return true;
  }
  std::string a = text.substr(0, dash), b = text.substr(dash + 1);
  if (a.empty() && b.empty()) return false;
  if (!a.empty() && !number(a, &range->first)) return false;
  if (!b.empty() && !number(b, &range->last)) return false;
  return range->first <= range->last;
}

}  // namespace strata::tools
