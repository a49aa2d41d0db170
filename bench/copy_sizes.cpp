// Counts the memcpy and memmove calls a process makes through the PLT (a
// driver's own copies, a library's), by size, and prints them when it exits:
//
//   LD_PRELOAD=build/bench/libcopy_sizes.so PROGRAM...
//
// Each line on stderr: "copy_sizes (pid N): ..." with the calls and bytes of
// every power-of-two class, then the most frequent exact sizes of 4 KiB and
// more (what empties the caches between two calls). A renderer's workers
// inherit LD_PRELOAD and print into the renderer's log when they end.
// Calls from inside libc itself (its own internal copies) are not seen.

#include <dlfcn.h>
#include <unistd.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>

namespace {

using CopyFunction = void* (*)(void*, const void*, size_t);

constexpr int kClasses = 64;
constexpr size_t kLargeFrom = 4096;
constexpr int kLargeSlots = 256;  // distinct large sizes kept; more are counted as "other"

std::atomic<uint64_t> calls[kClasses], bytes[kClasses];
std::atomic<uint64_t> large_size[kLargeSlots], large_calls[kLargeSlots], large_other;

void Count(size_t n) {
  const int size_class = n == 0 ? 0 : 63 - __builtin_clzll(n);
  calls[size_class].fetch_add(1, std::memory_order_relaxed);
  bytes[size_class].fetch_add(n, std::memory_order_relaxed);
  if (n < kLargeFrom) return;
  // Open addressing by size; a slot once claimed keeps its size.
  for (int probe = 0; probe < kLargeSlots; ++probe) {
    std::atomic<uint64_t>& slot = large_size[(n + probe) % kLargeSlots];
    uint64_t seen = slot.load(std::memory_order_relaxed);
    if (seen == 0 && slot.compare_exchange_strong(seen, n)) seen = n;
    if (seen == n) {
      large_calls[(n + probe) % kLargeSlots].fetch_add(1, std::memory_order_relaxed);
      return;
    }
  }
  large_other.fetch_add(1, std::memory_order_relaxed);
}

// libc's own, found when the module is loaded; a copy made before then (in
// constructors that run earlier) goes byte by byte, uncounted.
CopyFunction next_memcpy = nullptr, next_memmove = nullptr;

__attribute__((constructor)) void FindLibcCopies() {
  next_memmove = reinterpret_cast<CopyFunction>(dlsym(RTLD_NEXT, "memmove"));
  next_memcpy = reinterpret_cast<CopyFunction>(dlsym(RTLD_NEXT, "memcpy"));
}

void* CopyBytes(void* to, const void* from, size_t n) {
  auto* t = static_cast<volatile unsigned char*>(to);
  const auto* f = static_cast<const unsigned char*>(from);
  if (t < f) {
    for (size_t i = 0; i < n; ++i) t[i] = f[i];
  } else {
    for (size_t i = n; i-- > 0;) t[i] = f[i];
  }
  return to;
}

}  // namespace

extern "C" void* memcpy(void* to, const void* from, size_t n) {
  if (next_memcpy == nullptr) return CopyBytes(to, from, n);
  Count(n);
  return next_memcpy(to, from, n);
}

extern "C" void* memmove(void* to, const void* from, size_t n) {
  if (next_memmove == nullptr) return CopyBytes(to, from, n);
  Count(n);
  return next_memmove(to, from, n);
}

__attribute__((destructor)) static void PrintCopySizes() {
  const int pid = static_cast<int>(getpid());
  uint64_t total = 0;
  for (const auto& c : calls) total += c.load();
  if (total == 0) return;
  for (int i = 0; i < kClasses; ++i) {
    if (calls[i].load() == 0) continue;
    std::fprintf(stderr, "copy_sizes (pid %d): %llu calls of %llu to %llu bytes, %llu bytes in all\n", pid,
                 static_cast<unsigned long long>(calls[i].load()), i == 0 ? 0ULL : 1ULL << i,
                 (2ULL << i) - 1, static_cast<unsigned long long>(bytes[i].load()));
  }
  // The large sizes, most frequent first (a selection: there are few).
  bool shown[kLargeSlots] = {};
  for (int printed = 0; printed < 8; ++printed) {
    int best = -1;
    for (int i = 0; i < kLargeSlots; ++i) {
      if (!shown[i] && large_calls[i].load() != 0 && (best < 0 || large_calls[i].load() > large_calls[best].load())) {
        best = i;
      }
    }
    if (best < 0) break;
    shown[best] = true;
    std::fprintf(stderr, "copy_sizes (pid %d): %llu calls of exactly %llu bytes\n", pid,
                 static_cast<unsigned long long>(large_calls[best].load()),
                 static_cast<unsigned long long>(large_size[best].load()));
  }
  if (large_other.load() != 0) {
    std::fprintf(stderr, "copy_sizes (pid %d): %llu calls of 4 KiB or more of other sizes\n", pid,
                 static_cast<unsigned long long>(large_other.load()));
  }
}
