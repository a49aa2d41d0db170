#pragma once
// The process-wide state of tracing: the sink, the call sequence, the clock,
// every thread's stream, and the background flusher that bounds what a crash
// can lose (kChunkBytes bytes or kChunkMillis milliseconds per thread).

#include <x86intrin.h>

#include <atomic>
#include <condition_variable>
#include <deque>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "layers/trace/trace_sink.h"
#include "stream/byte_writer.h"

namespace strata::trace {

inline constexpr size_t kChunkBytes = 256 * 1024;
inline constexpr uint64_t kChunkMillis = 100;

struct ThreadStream {
  uint32_t thread_id = 0;
  stream::ByteBuffer buffer;
  uint64_t first_sequence = 0;
  uint32_t records = 0;
  uint32_t first_frame = 0;
  uint64_t chunk_start_ns = 0;
  uint64_t context = 0;             // id of the thread's current EGLContext (0: none)
  uint32_t calls_in_chunk = 0;      // the first call of a chunk carries absolute numbers
  uint64_t last_sequence = 0;
  uint64_t last_start_ns = 0;
  std::atomic<bool> busy{false};    // owner is writing; the flusher keeps out
};

class TraceSession {
 public:
  static TraceSession& Get() { return *instance_; }

  // Opens the sink named by `destination` ("file:PATH", "PATH" or
  // "listen:ADDRESS") and asks every thread to trace. A session can be started
  // again after it finished (attach, detach, attach ...).
  bool Start(const std::string& destination, const std::string& compression, std::string* error);
  // The sink is open and taking chunks.
  bool active() const { return active_.load(std::memory_order_relaxed); }
  // Whether threads should be tracing; each follows at its next switch point.
  bool desired() const { return desired_.load(std::memory_order_relaxed); }
  // Where the calls below the tracer go (the driver library), for trace headers.
  void set_driver(const std::string& driver) { driver_ = driver; }
  // Detach: threads stop at their next eglSwapBuffers/eglMakeCurrent; the
  // trace is finished when all have, or after `grace_ms`.
  void Stop(int grace_ms);
  // Threads currently tracing (they switch at eglSwapBuffers/eglMakeCurrent).
  std::atomic<int> tracing_threads{0};
  // Counts sessions, so per-context "already in this trace" marks expire.
  uint32_t session_number() const { return session_number_.load(std::memory_order_relaxed); }

  uint64_t NextSequence() { return sequence_.fetch_add(1, std::memory_order_relaxed); }
  uint64_t PeekSequence() const { return sequence_.load(std::memory_order_relaxed); }
  // Nanoseconds since the trace started, from the invariant TSC where the CPU has one.
  uint64_t NowNs() const {
    if (ns_per_tick_ > 0) return static_cast<uint64_t>(static_cast<double>(__rdtsc() - tsc_start_) * ns_per_tick_);
    return MonotonicNs() - start_ns_;
  }
  static uint64_t MonotonicNs();
  uint32_t frame() const { return frame_.load(std::memory_order_relaxed); }
  // Called after eglSwapBuffers: the next call starts frame + 1.
  void EndFrame();

  ThreadStream& RegisterThread();
  // Hands the stream's records to the sink; the caller holds stream.busy.
  void Flush(ThreadStream& stream);
  // Flushes when the stream's chunk is big or old enough.
  void MaybeFlush(ThreadStream& stream, uint64_t now_ns) {
    if (stream.buffer.size >= kChunkBytes || now_ns - stream.chunk_start_ns >= kChunkMillis * 1000000) {
      Flush(stream);
    }
  }
  // Ends the trace: flushes every thread and finishes the sink.
  void Finish();

 private:
  TraceSession() = default;
  void CalibrateClock();
  static TraceSession* const instance_;
  void Fail(const std::string& error);
  void FlusherLoop();
  void WriterLoop();

  // Chunks on their way to the sink, compressed and written by the writer thread.
  struct PendingChunk {
    std::vector<uint8_t> storage;
    size_t size = 0;
    stream::ChunkInfo info;
  };
  static constexpr size_t kMaxQueuedChunks = 32;  // 8 MiB: then the app waits for the disk
  std::mutex queue_mutex_;
  std::condition_variable queue_ready_, queue_space_;
  std::deque<PendingChunk> queue_;
  std::vector<std::vector<uint8_t>> spare_;
  bool writer_done_ = false;
  std::thread writer_;

  std::atomic<bool> active_{false};
  std::atomic<bool> desired_{false};
  std::atomic<uint32_t> session_number_{0};
  std::atomic<bool> failed_{false};
  std::mutex lifecycle_mutex_;  // Start, Stop and Finish
  std::atomic<uint64_t> sequence_{0};
  std::atomic<uint32_t> frame_{0};
  std::string driver_;
  uint64_t start_ns_ = 0;
  uint64_t tsc_start_ = 0;
  double ns_per_tick_ = 0;  // 0: no usable TSC, use CLOCK_MONOTONIC
  std::unique_ptr<TraceSink> sink_;
  std::mutex streams_mutex_;
  std::vector<std::shared_ptr<ThreadStream>> streams_;
  std::thread flusher_;
  std::atomic<bool> stopping_{false};

};

}  // namespace strata::trace
