#pragma once
// The process-wide state of tracing: the sink, the call sequence, the clock,
// every thread's stream, and the background flusher that bounds what a crash
// can lose (kChunkBytes bytes or kChunkMillis milliseconds per thread).

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "layers/trace/trace_sink.h"

namespace strata::trace {

inline constexpr size_t kChunkBytes = 256 * 1024;
inline constexpr uint64_t kChunkMillis = 100;

struct ThreadStream {
  uint32_t thread_id = 0;
  std::vector<uint8_t> buffer;
  uint64_t first_sequence = 0;
  uint32_t records = 0;
  uint32_t first_frame = 0;
  uint64_t chunk_start_ns = 0;
  uint64_t context = 0;             // the thread's current EGLContext
  std::atomic<bool> busy{false};    // owner is writing; the flusher keeps out
};

class TraceSession {
 public:
  static TraceSession& Get();

  // Opens the sink named by `destination` ("file:PATH" or "PATH").
  bool Start(const std::string& destination, const std::string& compression, std::string* error);
  bool active() const { return active_.load(std::memory_order_relaxed); }

  uint64_t NextSequence() { return sequence_.fetch_add(1, std::memory_order_relaxed); }
  uint64_t PeekSequence() const { return sequence_.load(std::memory_order_relaxed); }
  uint64_t NowNs() const;
  uint32_t frame() const { return frame_.load(std::memory_order_relaxed); }
  // Called after eglSwapBuffers: the next call starts frame + 1.
  void EndFrame();

  ThreadStream& RegisterThread();
  // Hands the stream's records to the sink; the caller holds stream.busy.
  void Flush(ThreadStream& stream);
  // Flushes when the stream's chunk is big or old enough.
  void MaybeFlush(ThreadStream& stream, uint64_t now_ns) {
    if (stream.buffer.size() >= kChunkBytes || now_ns - stream.chunk_start_ns >= kChunkMillis * 1000000) {
      Flush(stream);
    }
  }
  // Ends the trace: flushes every thread and finishes the sink.
  void Finish();

 private:
  TraceSession() = default;
  void Fail(const std::string& error);
  void FlusherLoop();

  std::atomic<bool> active_{false};
  std::atomic<uint64_t> sequence_{0};
  std::atomic<uint32_t> frame_{0};
  uint64_t start_ns_ = 0;
  std::unique_ptr<TraceSink> sink_;
  std::mutex streams_mutex_;
  std::vector<std::shared_ptr<ThreadStream>> streams_;
  std::thread flusher_;
  std::atomic<bool> stopping_{false};
  std::once_flag failed_once_;
};

}  // namespace strata::trace
