// The floor of a remote texture upload on this machine, with none of
// Strata's code: natively a 4 MiB upload is one copy (the app's pixels into
// the driver's texture); remotely it is at least two, on two cores: the
// client's into shared memory, and the driver's out of it. Here a producer
// thread copies each 4 MiB frame into one of `slots` slots of shared memory
// and a consumer thread on the other core copies it into its "texture" (as
// the renderer's driver does from a ring view), handing slots over with
// atomics and never sleeping. More slots let the two run further apart but
// spread the copies over more memory than the caches hold. The ratio of
// OneCopy's time to TwoCopiesThroughSlots' is the best an upload over shared
// memory can reach against native here. docs/benchmarks.md has the figures.
#include <benchmark/benchmark.h>
#include <immintrin.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

namespace {

constexpr size_t kFrameBytes = size_t{4} << 20;  // a 1024x1024 RGBA image

void OneCopy(benchmark::State& state) {
  std::vector<uint8_t> pixels(kFrameBytes, 1), texture(kFrameBytes, 2);
  size_t frame = 0;
  for (auto _ : state) {
    pixels[frame * 64 % kFrameBytes] = static_cast<uint8_t>(frame);  // the app changes its image
    ++frame;
    std::memcpy(texture.data(), pixels.data(), kFrameBytes);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * kFrameBytes));
}
BENCHMARK(OneCopy)->UseRealTime();

void TwoCopiesThroughSlots(benchmark::State& state) {
  const auto slots = static_cast<size_t>(state.range(0));
  std::vector<uint8_t> pixels(kFrameBytes, 1), texture(kFrameBytes, 2), shared(slots * kFrameBytes, 3);
  std::atomic<uint64_t> produced{0}, consumed{0};
  std::atomic<bool> stop{false};
  std::thread consumer([&] {
    for (uint64_t i = 0;; ++i) {
      while (produced.load(std::memory_order_acquire) <= i) {
        if (stop.load(std::memory_order_relaxed)) return;
        _mm_pause();
      }
      std::memcpy(texture.data(), shared.data() + (i % slots) * kFrameBytes, kFrameBytes);
      consumed.store(i + 1, std::memory_order_release);
    }
  });
  uint64_t frame = 0;
  for (auto _ : state) {
    while (frame - consumed.load(std::memory_order_acquire) >= slots) _mm_pause();
    pixels[frame * 64 % kFrameBytes] = static_cast<uint8_t>(frame);
    std::memcpy(shared.data() + (frame % slots) * kFrameBytes, pixels.data(), kFrameBytes);
    produced.store(++frame, std::memory_order_release);
  }
  // The frames in flight are part of the work.
  while (consumed.load(std::memory_order_acquire) < frame) _mm_pause();
  stop = true;
  consumer.join();
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * kFrameBytes));
}
BENCHMARK(TwoCopiesThroughSlots)->Arg(2)->Arg(3)->Arg(4)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
