// What the tracer's per-call path cannot avoid, on this machine: two TSC reads
// around the call (start and duration are required fields) and one atomic
// increment (the global call sequence). `Work` stands in for a cheap driver
// call (about 30 ns); the TSC pair is measured around it, as the recorders
// use it, since a lone RDTSC partly overlaps with other work.
#include <benchmark/benchmark.h>
#include <x86intrin.h>

#include <atomic>
#include <cstdint>

namespace {

uint64_t g_table[1 << 12];

__attribute__((noinline)) uint64_t Work(uint64_t x) {
  for (int i = 0; i < 24; ++i) {
    x = x * 2862933555777941757ull + 3037000493ull;
    g_table[(x >> 52) & 0xfff] += x;
  }
  return x;
}
uint64_t (*volatile g_work)(uint64_t) = Work;
std::atomic<uint64_t> g_sequence{0};

void BM_Work(benchmark::State& state) {
  uint64_t x = 1;
  for (auto _ : state) benchmark::DoNotOptimize(x = g_work(x));
}
void BM_WorkBetweenTwoTscReads(benchmark::State& state) {
  uint64_t x = 1;
  for (auto _ : state) {
    uint64_t start = __rdtsc();
    x = g_work(x);
    benchmark::DoNotOptimize(__rdtsc() - start);
  }
}
void BM_WorkAndSequenceIncrement(benchmark::State& state) {
  uint64_t x = 1;
  for (auto _ : state) {
    benchmark::DoNotOptimize(g_sequence.fetch_add(1, std::memory_order_relaxed));
    x = g_work(x);
  }
}
void BM_TscRead(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(__rdtsc());
}

BENCHMARK(BM_Work);
BENCHMARK(BM_WorkBetweenTwoTscReads);
BENCHMARK(BM_WorkAndSequenceIncrement);
BENCHMARK(BM_TscRead);

}  // namespace

BENCHMARK_MAIN();
