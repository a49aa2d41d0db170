// The floor of handing per-call data to another thread, on this machine,
// with none of the tracer's code: a producer runs a stand-in for a cheap
// driver call (`Work`, about 30 ns) and then writes `bytes` per call into a
// 2 MiB single-producer single-consumer ring, as the tracer's recorders do;
// a consumer thread on the other core reads what was published, either
// right behind the producer or in 256 KiB batches (as the encoder is woken).
// Compares with the same calls writing nothing, writing with nobody reading,
// and writing always the same bytes (the recorder's stores without fresh
// lines). docs/benchmarks.md has the command and the figures.
#include <benchmark/benchmark.h>
#include <immintrin.h>
#include <pthread.h>
#include <sched.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

#include "stand_in_call.h"

namespace {

uint64_t (*volatile g_work)(uint64_t) = bench::StandInCall<12>::Run;
// The same with a 512 KiB working set, as a driver's state is larger than L1.
uint64_t (*volatile g_work_on_large_state)(uint64_t) = bench::StandInCall<16>::Run;

constexpr size_t kRingBytes = size_t{2} << 20;
constexpr size_t kBatchBytes = size_t{256} << 10;

// kBatches spins on `committed` between batches; kSleepingBatches sleeps
// 50 µs between looks, as the encoder sleeps between wake-ups.
enum class Reader { kNone, kRightBehind, kBatches, kSleepingBatches };

struct Ring {
  alignas(64) uint8_t* bytes = nullptr;
  alignas(64) std::atomic<uint64_t> committed{0};
  alignas(64) std::atomic<uint64_t> consumed{0};
  alignas(64) std::atomic<bool> stop{false};
  uint64_t sink = 0;
};

// The consumer runs on another CPU than the producer, as the encoder does
// while the app runs (the scheduler could otherwise time-share one CPU).
void PinTo(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

void Consume(Ring& ring, Reader reader) {
  PinTo(1);
  uint64_t read = 0;
  uint64_t sum = 0;
  while (true) {
    uint64_t committed = ring.committed.load(std::memory_order_acquire);
    bool stopping = ring.stop.load(std::memory_order_relaxed);
    if (committed - read < (reader == Reader::kRightBehind ? 64 : kBatchBytes) && !stopping) {
      if (reader == Reader::kSleepingBatches) {
        std::this_thread::sleep_for(std::chrono::microseconds(50));
      } else {
        _mm_pause();
      }
      continue;
    }
    for (; read + 8 <= committed; read += 8) {
      uint64_t word;
      std::memcpy(&word, ring.bytes + (read % kRingBytes), 8);
      sum += word;
    }
    read = committed;
    ring.consumed.store(read, std::memory_order_release);
    if (stopping) break;
  }
  ring.sink = sum;
}

std::atomic<uint64_t> g_sequence{0};

// `bytes` per call (a multiple of 8); `fresh`: false writes the same slot
// every call; `sequence`: each call also takes a number from a global atomic
// counter (a locked instruction, which waits for the call's earlier stores).
void RunRing(benchmark::State& state, Reader reader, bool fresh, bool sequence = false, bool large = false) {
  const size_t bytes = static_cast<size_t>(state.range(0));
  std::vector<uint8_t> storage(kRingBytes + 4096);
  Ring ring;
  ring.bytes = storage.data();
  PinTo(0);
  std::thread consumer;
  if (reader != Reader::kNone) consumer = std::thread(Consume, std::ref(ring), reader);
  uint64_t produced = 0;
  uint64_t room_until = kRingBytes - 4096;
  uint64_t x = 1;
  uint64_t (*work)(uint64_t) = large ? g_work_on_large_state : g_work;
  for (auto _ : state) {
    x = work(x);
    if (sequence) x += g_sequence.fetch_add(1, std::memory_order_relaxed);
    uint8_t* p = ring.bytes + (fresh ? produced % kRingBytes : 0);
    for (size_t i = 0; i < bytes; i += 8) std::memcpy(p + i, &x, 8);
    if (!fresh) continue;
    produced += bytes;
    ring.committed.store(produced, std::memory_order_release);
    if (reader == Reader::kNone) {
      ring.consumed.store(produced, std::memory_order_relaxed);
    } else if (produced > room_until) [[unlikely]] {
      while (produced + 4096 > ring.consumed.load(std::memory_order_acquire) + kRingBytes) _mm_pause();
      room_until = ring.consumed.load(std::memory_order_acquire) + kRingBytes - 4096;
    }
  }
  ring.stop.store(true);
  if (consumer.joinable()) consumer.join();
  state.SetItemsProcessed(state.iterations());
}

void BM_Work(benchmark::State& state) {
  uint64_t x = 1;
  for (auto _ : state) benchmark::DoNotOptimize(x = g_work(x));
}
void BM_SameSlot(benchmark::State& state) { RunRing(state, Reader::kNone, false); }
void BM_RingNobodyReads(benchmark::State& state) { RunRing(state, Reader::kNone, true); }
void BM_RingReadRightBehind(benchmark::State& state) { RunRing(state, Reader::kRightBehind, true); }
void BM_RingReadInBatches(benchmark::State& state) { RunRing(state, Reader::kBatches, true); }
void BM_RingReadInSleepingBatches(benchmark::State& state) { RunRing(state, Reader::kSleepingBatches, true); }
void BM_SameSlotAndSequence(benchmark::State& state) { RunRing(state, Reader::kNone, false, true); }
void BM_RingNobodyReadsAndSequence(benchmark::State& state) { RunRing(state, Reader::kNone, true, true); }
void BM_RingReadInSleepingBatchesAndSequence(benchmark::State& state) {
  RunRing(state, Reader::kSleepingBatches, true, true);
}

void BM_WorkOnLargeState(benchmark::State& state) {
  uint64_t x = 1;
  for (auto _ : state) benchmark::DoNotOptimize(x = g_work_on_large_state(x));
}
void BM_LargeStateRingNobodyReads(benchmark::State& state) { RunRing(state, Reader::kNone, true, true, true); }
void BM_LargeStateRingReadInSleepingBatches(benchmark::State& state) {
  RunRing(state, Reader::kSleepingBatches, true, true, true);
}

BENCHMARK(BM_Work);
BENCHMARK(BM_WorkOnLargeState);
BENCHMARK(BM_LargeStateRingNobodyReads)->Arg(16)->Arg(64);
BENCHMARK(BM_LargeStateRingReadInSleepingBatches)->Arg(16)->Arg(64);
BENCHMARK(BM_SameSlot)->Arg(16)->Arg(64);
BENCHMARK(BM_RingNobodyReads)->Arg(16)->Arg(24)->Arg(64)->Arg(80);
BENCHMARK(BM_RingReadRightBehind)->Arg(16)->Arg(24)->Arg(64)->Arg(80);
BENCHMARK(BM_RingReadInBatches)->Arg(16)->Arg(24)->Arg(64)->Arg(80);
BENCHMARK(BM_RingReadInSleepingBatches)->Arg(16)->Arg(24)->Arg(64)->Arg(80);
BENCHMARK(BM_SameSlotAndSequence)->Arg(64);
BENCHMARK(BM_RingNobodyReadsAndSequence)->Arg(16)->Arg(64);
BENCHMARK(BM_RingReadInSleepingBatchesAndSequence)->Arg(16)->Arg(64);

}  // namespace

BENCHMARK_MAIN();
