#pragma once
// The process-wide state of tracing: the sink, the call sequence, the clock,
// every thread's ring of raw entries, the encoder thread that turns them into
// records and chunks (bounding what a crash can lose to about kChunkMillis
// milliseconds per thread), and the writer thread that compresses and writes.

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
#include "stream/call_encoder.h"

namespace strata::trace {

inline constexpr size_t kChunkBytes = 256 * 1024;
inline constexpr uint64_t kChunkMillis = 100;
// Each thread's ring of raw entries (raw_entry.h); the encoder is woken each
// kRingKickBytes of new entries, and every kChunkMillis / 4 in any case.
inline constexpr size_t kRingBytes = 2 * 1024 * 1024;
inline constexpr size_t kRingKickBytes = kRingBytes / 8;

// One app thread's trace stream: a single-producer single-consumer ring. The
// thread (producer) writes whole entries and then publishes `committed`; the
// encoder thread (consumer) reads entries up to `committed` and publishes
// `consumed`. Neither ever waits on the other except when the ring is full.
//
// Each side's fields have cache lines of their own: a line the producer writes
// on every call must not be read by the encoder on every call, or every call
// pays a cross-core transfer to take it back (docs/benchmarks.md, fifth
// pass). `committed` shares the producer's line: the encoder reads it once
// per wake-up (about once per kRingKickBytes of entries), and each call
// touches one line of the stream, not two (docs/benchmarks.md, "What a call
// touches of data, in fewer lines").
struct ThreadStream {
  // Producer side, touched on every call. First: every field the state call
  // path touches is then within a one-byte displacement of the stream's
  // address (its wrapper's size decides whether it takes two cache lines or
  // three).
  alignas(64) uint8_t* write = nullptr;  // where the next entry goes: the ring at `committed`
  uint8_t* limit = nullptr;         // the producer may write up to here without looking at `consumed`
  uint8_t* state_limit = nullptr;   // `limit`, or where `committed` reaches `kick_at` if sooner: one test
                                    // for the state call path, which must not kick (StateCallWriter)
  uint64_t context = 0;             // id of the thread's current EGLContext (0: none)
  // Bytes of whole entries written, ever: stored by the producer only (it
  // reads its own value relaxed), read by the encoder (acquire).
  std::atomic<uint64_t> committed{0};
  uint64_t kick_at = 0;             // wake the encoder when `committed` reaches this
  uint64_t last_sequence = 0;       // of the thread's last published call or state call entry: the next delta's base
  uint32_t last_frame = 0;          // of the thread's last published call or encoded entry

  alignas(64) std::atomic<uint64_t> consumed{0};   // bytes the encoder is done with, ever

  // Set once when the stream is created, read by both sides.
  alignas(64) uint8_t* ring = nullptr;  // kRingBytes, mapped once, never unmapped
  uint32_t thread_id = 0;

  // Encoder side: the chunk being built from this thread's entries.
  alignas(64) stream::ByteBuffer chunk;
  uint64_t first_sequence = 0;
  uint32_t records = 0;
  uint32_t first_frame = 0;
  uint64_t chunk_start_ns = 0;      // when the encoder began the chunk
  stream::CallRun run;              // the chunk's calls: deltas from the previous one
  uint64_t last_end_ns = 0;         // where the thread's last timed call ended (untimed calls start there)
  uint64_t entry_context = 0;       // the context of the last context entry: state call entries' context
  uint64_t entry_sequence = 0;      // the sequence of the last call entry read: state call entries' base
  uint32_t entry_frame = 0;         // the frame of the last call or encoded entry read: state call entries' frame
  uint32_t session = 0;             // the session whose numbering the chunk state follows

  // Producer side, rare: where records that are not calls (memory, frame
  // images, trace events) are encoded. Not thread_local: records are still
  // made by exit handlers after the thread's thread_local storage is gone.
  alignas(64) stream::ByteBuffer record_scratch;
};

// A value alone on its cache line: padded to the line's end too.
template <typename T>
struct alignas(64) OwnLine {
  T value{};
};

// What every traced call reads of the process's, all of it rarely changed, on
// one cache line of its own; the sequence, which every call increments, has
// another (OwnLine, in TraceSession). Not the session's: the state call path
// reaches them without loading the session's address. After a draw the
// driver has emptied the caches, and every line the next calls touch is
// fetched again (docs/benchmarks.md, "What a call touches of data, in fewer lines").
struct alignas(64) PerCallSettings {
  std::atomic<uint32_t> frame{0};    // TraceSession::frame()
  bool use_tsc = false;              // the clock: TSC ticks, else CLOCK_MONOTONIC ns
  bool capture_after_draws = false;  // STRATA_TRACE_CAPTURE asks for a frame after every draw
};
extern PerCallSettings g_per_call __attribute__((visibility("hidden")));

class TraceSession {
 public:
  // Relaxed: replaced only in a forked child, before it traces (RenewAfterFork).
  static TraceSession& Get() { return *instance_.load(std::memory_order_relaxed); }
  // In a child forked from this process: whether the session is the parent's.
  bool forked() const { return forked_.load(); }
  // Makes every child forked from now on mark the session as the parent's.
  static void WatchForks();
  void MarkForked() {
    forked_.store(true);
    desired_.store(false);
    active_.store(false);
  }
  // In a forked child that decided to trace: a fresh session in place of the
  // parent's, whose threads are gone and whose locks may be held for good.
  static void RenewAfterFork();

  // Opens the sink named by `destination` ("file:PATH", "PATH" or
  // "listen:ADDRESS") and asks every thread to trace. A session can be started
  // again after it finished (attach, detach, attach ...). With `switch_on`
  // false no thread traces until SwitchOn (a frame range: frame_range.h).
  bool Start(const std::string& destination, const std::string& compression, std::string* error,
             bool switch_on = true);
  // Asks every thread to trace, from now: the trace's clock starts here.
  void SwitchOn();
  // Asks every thread to stop tracing at its next switch point; Stop finishes the trace.
  void SwitchOff() { desired_.store(false); }
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

  static uint64_t NextSequence() { return sequence_.value.fetch_add(1, std::memory_order_relaxed); }
  static uint64_t PeekSequence() { return sequence_.value.load(std::memory_order_relaxed); }
  // Nanoseconds since the trace started, from the invariant TSC where the CPU has one.
  uint64_t NowNs() const { return ToNs(RawNow()); }
  // STRATA_TRACE_TIMING=all: read the clock for state-setting calls too.
  bool time_every_call() const { return time_every_call_; }
  void set_time_every_call(bool every) { time_every_call_ = every; }
  // The clock as recorded per call: TSC ticks, or CLOCK_MONOTONIC ns without a usable TSC.
  static inline __attribute__((always_inline)) uint64_t RawNow() {
    return g_per_call.use_tsc ? __rdtsc() : MonotonicNs();
  }
  uint64_t ToNs(uint64_t raw) const {
    if (g_per_call.use_tsc) return static_cast<uint64_t>(static_cast<double>(raw - tsc_start_) * ns_per_tick_);
    return raw - start_ns_;
  }
  static uint64_t MonotonicNs();
  static uint32_t frame() { return g_per_call.frame.load(std::memory_order_relaxed); }
  // Called after eglSwapBuffers: the next call starts frame + 1. Returns the
  // number of the frame that ended (each swap gets its own, whatever thread).
  uint32_t EndFrame();

  ThreadStream& RegisterThread();
  // The producer's slow path: makes `need` contiguous bytes writable after
  // `cursor` in an entry that began at `entry` (moving the entry to the start
  // of the ring when it would cross the end), waiting for the encoder when the
  // ring is full. Returns the entry's (possibly new) start, or nullptr when
  // `need` cannot fit even in an empty ring.
  uint8_t* MakeRoom(ThreadStream& stream, uint8_t* entry, uint8_t* cursor, size_t need);
  // The producer's own count of what it published (it alone stores it).
  static uint64_t Produced(const ThreadStream& stream) { return stream.committed.load(std::memory_order_relaxed); }
  // Sets `state_limit` after `limit` or `kick_at` changed (`write` is where
  // `committed` is).
  static void SetStateLimit(ThreadStream& stream) {
    const uint64_t produced = Produced(stream);
    const uint64_t to_kick = stream.kick_at > produced ? stream.kick_at - produced : 0;
    const auto write = reinterpret_cast<uintptr_t>(stream.write), limit = reinterpret_cast<uintptr_t>(stream.limit);
    stream.state_limit = limit - write < to_kick ? stream.limit : stream.write + to_kick;
  }
  // Publishes the entry that ends at `end` (the producer's commit).
  static inline __attribute__((always_inline)) void Publish(ThreadStream& stream, uint8_t* end) {
    PublishWithoutKick(stream, end, static_cast<size_t>(end - stream.write));
    if (Produced(stream) >= stream.kick_at) [[unlikely]] Get().Kick(stream);
  }
  // The same without waking the encoder, for a caller that must not make a
  // call (its room ends where the kick is due, `state_limit`, so the call
  // after it takes the general path, which kicks); `bytes` is the
  // entry's size, `end - stream.write`, which such a caller knows as a constant.
  static inline __attribute__((always_inline)) void PublishWithoutKick(ThreadStream& stream, uint8_t* end,
                                                                       size_t bytes) {
    const uint64_t committed = Produced(stream) + bytes;
    stream.write = end;
    stream.committed.store(committed, std::memory_order_release);
  }
  // Ends the trace: encodes every thread's entries and finishes the sink.
  void Finish();

 private:
  TraceSession() = default;
  void CalibrateClock();
  static std::atomic<TraceSession*> instance_;
  void Fail(const std::string& error);
  void Kick(ThreadStream& stream);
  void EncoderLoop();
  void WriterLoop();
  // Encodes the committed entries of every stream (the caller holds
  // encode_mutex_); `finish` also hands over every partial chunk.
  void EncodeAll(bool finish);
  void EncodeStream(ThreadStream& stream, bool finish);
  // Encodes one entry at `p` into stream.chunk (or, with `discard`, only
  // frees what it holds); returns its raw size.
  size_t EncodeEntry(ThreadStream& stream, const uint8_t* p, bool discard);
  size_t EncodeStateCall(ThreadStream& stream, const uint8_t* p, bool discard);
  size_t EncodeUnknownCall(ThreadStream& stream, const uint8_t* p, bool discard);
  // Drops the stream's committed entries and its chunk (the caller holds encode_mutex_).
  void Discard(ThreadStream& stream);
  void BeginChunk(ThreadStream& stream, uint64_t sequence, uint32_t frame);
  // Queues the stream's chunk for the writer thread.
  void HandOver(ThreadStream& stream);
  void ResetChunk(ThreadStream& stream);

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

  // The encoder thread and the producers that wait for room in their ring.
  std::mutex encode_mutex_;     // held while entries are encoded (encoder thread, Finish, discards)
  std::mutex kick_mutex_;
  std::condition_variable kicked_, room_;
  bool kick_ = false;
  std::thread encoder_;

  std::atomic<bool> active_{false};
  std::atomic<bool> desired_{false};
  std::atomic<uint32_t> session_number_{0};
  std::atomic<bool> failed_{false};
  std::mutex lifecycle_mutex_;  // Start, Stop and Finish
  // Every tracing thread increments the sequence: it has a cache line of its
  // own, apart from what every call only reads (g_per_call). The process's,
  // not the session's (Start resets it), as g_per_call.
  static inline OwnLine<std::atomic<uint64_t>> sequence_;
  bool time_every_call_ = false;
  uint64_t start_ns_ = 0;
  uint64_t tsc_start_ = 0;
  double ns_per_tick_ = 0;
  alignas(64) std::string driver_;
  // Set in a child forked from a traced process: it has none of the tracer's
  // threads, so it records nothing and drops what its threads had written.
  std::atomic<bool> forked_{false};
  std::unique_ptr<TraceSink> sink_;
  std::mutex streams_mutex_;
  std::vector<std::shared_ptr<ThreadStream>> streams_;
  std::atomic<bool> stopping_{false};

};

}  // namespace strata::trace
