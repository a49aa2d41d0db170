// What the tracer's per-call path cannot avoid, on this machine: two TSC reads
// around the call (start and duration are required fields) and one atomic
// increment (the global call sequence). `Work` stands in for a cheap driver
// call (about 30 ns); the TSC pair is measured around it, as the recorders
// use it, since a lone RDTSC partly overlaps with other work.
#include <benchmark/benchmark.h>
#include <x86intrin.h>

#include <atomic>
#include <cstdint>

#include "stand_in_call.h"

namespace {

uint64_t (*volatile g_work)(uint64_t) = bench::StandInCall<12>::Run;
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
