#pragma once
// A stand-in for a cheap driver call (about 30 ns on the project's machines):
// a dependent chain of multiplies and stores into a table of 2^kTableBits
// words (12: 32 KiB, L1; 16: 512 KiB, like a driver's larger state), called
// through a volatile pointer so that it is neither inlined nor dropped.
#include <cstdint>

namespace bench {

template <int kTableBits>
struct StandInCall {
  static inline uint64_t table[1 << kTableBits];
  __attribute__((noinline)) static uint64_t Run(uint64_t x) {
    for (int i = 0; i < 24; ++i) {
      x = x * 2862933555777941757ull + 3037000493ull;
      table[(x >> (64 - kTableBits)) & ((uint64_t{1} << kTableBits) - 1)] += x;
    }
    return x;
  }
};

}  // namespace bench
