#pragma once
// Frame and call selections for --frames, --calls and --snapshot: a
// comma-separated list of N, A-B, A- or -B, e.g. 0,5,10-20 or 3-.

#include <cstdint>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

namespace strata {

struct Range {
  // Inclusive [first, last] intervals; none: everything.
  std::vector<std::pair<uint64_t, uint64_t>> parts;
  bool Contains(uint64_t v) const {
    if (parts.empty()) return true;
    for (const auto& [first, last] : parts) {
      if (v >= first && v <= last) return true;
    }
    return false;
  }
  bool All() const { return parts.empty(); }
};

// One item: N, A-B, A- or -B.
inline bool ParseRangeItem(const std::string& text, std::pair<uint64_t, uint64_t>* part) {
  auto number = [](const std::string& s, uint64_t* out) {
    if (s.empty() || s.size() > 19 || s.find_first_not_of("0123456789") != std::string::npos) return false;
    *out = std::strtoull(s.c_str(), nullptr, 10);
    return true;
  };
  part->first = 0;
  part->second = UINT64_MAX;
  const auto dash = text.find('-');
  if (dash == std::string::npos) {
    if (!number(text, &part->first)) return false;
    part->second = part->first;
    return true;
  }
  const std::string a = text.substr(0, dash), b = text.substr(dash + 1);
  if (a.empty() && b.empty()) return false;
  if (!a.empty() && !number(a, &part->first)) return false;
  if (!b.empty() && !number(b, &part->second)) return false;
  return part->first <= part->second;
}

// The whole list; false (and `range` unchanged) when any item is malformed.
inline bool ParseRange(const std::string& text, Range* range) {
  Range parsed;
  size_t start = 0;
  for (;;) {
    const size_t comma = text.find(',', start);
    std::pair<uint64_t, uint64_t> part;
    if (!ParseRangeItem(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start), &part)) {
      return false;
    }
    parsed.parts.push_back(part);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  *range = std::move(parsed);
  return true;
}

}  // namespace strata
