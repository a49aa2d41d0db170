// libstrata_call_counter.so: counts every EGL/GLES call and prints the counts
// per function when the process exits (to stderr, or to the file named by
// STRATA_CALL_COUNTER_OUTPUT).
#include <strata/gles_layer.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <vector>

#include "common/env.h"
#include "strata/api/functions.h"
#include "strata/api/types.h"

namespace {

using strata::api::kFunctionCount;

void* g_next[kFunctionCount];
std::atomic<uint64_t> g_counts[kFunctionCount];

#define STRATA_FUNCTION(slot, name, ret, params, args)                        \
  ret Count_##name params {                                                   \
    g_counts[slot].fetch_add(1, std::memory_order_relaxed);                   \
    return reinterpret_cast<ret(*) params>(g_next[slot]) args;                \
  }
#include "strata/api/function_list.inc"
#undef STRATA_FUNCTION

void* const kCounters[kFunctionCount] = {
#define STRATA_FUNCTION(slot, name, ret, params, args) reinterpret_cast<void*>(&Count_##name),
#include "strata/api/function_list.inc"
#undef STRATA_FUNCTION
};

void PrintCounts() {
  std::vector<std::pair<uint64_t, int>> rows;
  uint64_t total = 0;
  for (int slot = 0; slot < kFunctionCount; ++slot) {
    uint64_t n = g_counts[slot].load(std::memory_order_relaxed);
    if (n == 0) continue;
    rows.emplace_back(n, slot);
    total += n;
  }
  std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first > b.first
                              : std::strcmp(strata::api::kFunctions[a.second].name, strata::api::kFunctions[b.second].name) < 0;
  });
  const char* path = strata::GetEnv("STRATA_CALL_COUNTER_OUTPUT");
  FILE* out = path ? std::fopen(path, "w") : stderr;
  if (out == nullptr) {
    std::fprintf(stderr, "strata: call counter: cannot write %s; counts follow here\n", path);
    out = stderr;
  }
  std::fprintf(out, "strata call counter: %llu calls to %zu functions\n", static_cast<unsigned long long>(total),
               rows.size());
  for (const auto& [n, slot] : rows) {
    std::fprintf(out, "%12llu  %s\n", static_cast<unsigned long long>(n), strata::api::kFunctions[slot].name);
  }
  if (out != stderr) std::fclose(out);
}

}  // namespace

extern "C" __attribute__((visibility("default"))) void* AndroidGLESLayer_Initialize(
    void*, PFNEGLGETNEXTLAYERPROCADDRESSPROC) {
  std::atexit(PrintCounts);
  return nullptr;
}

extern "C" __attribute__((visibility("default"))) void* AndroidGLESLayer_GetProcAddress(const char* name,
                                                                                      EGLFuncPointer next) {
  int slot = strata::api::FindFunction(name);
  if (slot < 0 || next == nullptr) return reinterpret_cast<void*>(next);  // unknown extension: not counted
  g_next[slot] = reinterpret_cast<void*>(next);
  return kCounters[slot];
}
