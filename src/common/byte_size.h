#pragma once
// Sizes of memory as users write them on command lines: 1073741824, 512K,
// 256M, 4G (binary units), and this machine's physical memory for defaults.

#include <cstdint>
#include <string_view>

namespace strata {

// False for anything but digits with an optional K, M or G (or KiB, MiB, GiB), or a size past 2^64.
bool ParseByteSize(std::string_view text, uint64_t* bytes);
// The machine's physical memory in bytes (0 when unknown).
uint64_t PhysicalMemoryBytes();

}  // namespace strata
