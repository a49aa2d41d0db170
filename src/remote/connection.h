#pragma once
// One client thread's connection to the renderer (the seed's connection per
// guest thread): its batch of encoded records, its call run, its current
// context's shadow, and the round trip for calls that need an answer.
// Calls without a result are only appended to the batch; the batch goes out
// when a call needs an answer, when it grows past kBatchBytes, or at a swap.

#include <pthread.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>
#include <string_view>
#include <thread>
#include <vector>

#include "remote/client_state.h"
#include "remote/sequence_numbers.h"
#include "remote/session.h"
#include "stream/byte_writer.h"
#include "stream/call_encoder.h"
#include "stream/word_run.h"
#include "stream/wire.h"
#include "transport/byte_stream.h"

namespace strata {

namespace present {
class WindowPresenter;
}

namespace remote {

using present::WindowPresenter;

// Large blobs (texture images, buffer data) go out of line with bulk-v1
// (stream/bulk_blobs.h): straight from the app's memory into the transport,
// never through the batch.
class Connection final : public stream::BulkSink {
 public:
  Connection(Session& session, std::unique_ptr<transport::ByteStream> stream, uint32_t thread_id);
  ~Connection() override;

  // The batch, for a record: a word run being written ends first.
  stream::ByteBuffer& batch() {
    EndWordRun();
    return batch_;
  }
  stream::CallRun& run() { return run_; }
  // Call `sequence` of `slot`, a function of stream::kWordCalls, with its
  // `count` arguments as words: appended to the thread's word run. A run
  // begins at the third of such calls in a row (a run's head costs the
  // renderer more than two calls save in it, so one or two between other
  // calls go as call records), and again where the numbering moved on (a
  // run ends where the context changes: SetCurrent). False where it is not
  // appended: the caller writes a call record.
  bool WordCall(int slot, uint64_t sequence, const stream::PreparedWord* arguments, uint32_t count) {
    if (!word_runs_ || !InWordRun(sequence)) return false;
    word_run_.Add(batch_, run_, static_cast<uint64_t>(slot), arguments, count);
    return true;
  }
  // The same for a function of stream::kWordArrayCalls, its array's bytes
  // after its words: where the renderer agreed to words-v2 and the array is
  // at most stream::kMostWordArrayBytes (a longer one goes in a record).
  bool WordArrayCall(int slot, uint64_t sequence, const stream::PreparedWord* arguments, uint32_t count,
                     const void* array, size_t array_bytes) {
    if (!word_arrays_ || array_bytes > stream::kMostWordArrayBytes || !InWordRun(sequence)) return false;
    word_run_.Add(batch_, run_, static_cast<uint64_t>(slot), arguments, count, array, array_bytes);
    return true;
  }
  // In a forked child: closes the child's copies of the stream's descriptors
  // and memory, sending nothing; the connection is never used again.
  void LetGoInForkedChild() { stream_.reset(); }
  uint64_t NextSequence() {
    ++calls_encoded_;
    return session_.sequence_numbers().Next(sequence_taker_);
  }
  // The renderer is gone.
  bool SessionLost() const { return session_.lost(); }
  uint64_t batch_ns() const { return batch_ns_; }
  uint64_t context_id() const { return context_id_; }

  // The shadow of the current context (a context-less one before the first
  // eglMakeCurrent), and the capture rules' view of it.
  ContextShadow& shadow() { return *shadow_; }
  const ContextShadow& shadow() const { return *shadow_; }
  capture::CaptureState& state() { return *shadow_; }
  void SetCurrent(uint64_t context_id, ContextShadow* shadow);

  // The state calls held back (deferred_state.h); any call that is not one
  // of them sends them first.
  DeferredState& deferred() { return deferred_; }
  void SendDeferred() {
    if (!deferred_.empty()) [[unlikely]] deferred_.Send(*this);
  }

  // glGetError said GL_NO_ERROR: until a call goes out that may raise an
  // error, it would again (a call found valid calls ErrorsClean again).
  void ErrorsClean() { clean_after_ = calls_encoded_; }
  bool NothingSentSinceCleanError() const { return clean_after_ == calls_encoded_; }
  // A call the client answered itself (client_answers.cpp), for STRATA_REMOTE_STATS.
  void Answered() { ++answered_; }

  // A call was appended: sends the batch once it is large, or at once after
  // a bulk segment (its message follows it, and the renderer can start).
  void Sent() {
    if (batch_.size >= flush_at_) Flush();
  }
  // The call being encoded has a blob of `size` bytes at `data`: sent now, as a bulk segment.
  void PutBulk(const void* data, size_t size) override;
  // Sends the batch. False once the renderer is gone (the session says why).
  bool Flush();
  // Sends the batch and waits for the reply to call `sequence` of function
  // `slot`. Null when the renderer is gone or the reply is malformed (the
  // session is then lost). Valid until the next round trip.
  const stream::wire::Reply* Roundtrip(uint64_t sequence, int slot);

  // A trace event or memory record, appended to the batch.
  void PutMemory(const void* address, size_t size);
  void PutSurfaceEvent(uint64_t surface, int width, int height);

  // A string result, kept for the life of the process (apps keep the pointer).
  static const char* Intern(const stream::DecodedValue& value);
  // The EGL error the reply carries becomes the thread's.
  void TakeEglError(const stream::wire::Reply& reply);

  // A window's swap, call `sequence` (already in the batch, wanting a
  // reply): sends the batch and returns once the frame before it is on
  // screen. The connection's frame thread reads the reply and its frame and
  // shows it, while the app's thread goes on with the next frame: the
  // renderer renders frame N+1 while frame N is shown. Reading anything else
  // waits until every frame sent is shown (replies come in order).
  bool SendWindowSwap(uint64_t sequence, int slot, std::shared_ptr<WindowPresenter> presenter);
  // Waits until no more than `at_most` window swaps are in flight.
  void WaitForFrames(size_t at_most);

  uint32_t thread_id() const { return thread_id_; }

  // Under a Unix socket's default buffer (208 KiB): the renderer reads a
  // message whole before running it, so a batch larger than the buffer makes
  // it wait, at every batch, for the client to be woken to send the rest
  // (draw-heavy: 0.79x native with 256 KiB batches, 0.86x with 64 KiB).
  static constexpr size_t kBatchBytes = 64 * 1024;
  static constexpr int kReplySpinMicroseconds = 200;

 private:
  void BeginWordRun(uint64_t sequence);
  void EndWordRun() {
    if (word_run_.open()) [[unlikely]] {
      word_calls_ += word_run_.calls();
      word_run_.Close(batch_);
    }
  }
  // The renderer is gone (Session::Lose); `ask_why`: it said nothing first.
  void Fail(const std::string& why, bool ask_why = false);
  // Reads the next message into `incoming`, or with `may_view` a large one
  // where it lies in the ring (a window's frame: one copy fewer; the caller
  // releases the view when done with it); false once the renderer is gone
  // (the session is then lost).
  bool ReadMessage(std::vector<uint8_t>& incoming, bool may_view, std::span<const uint8_t>* message, bool* viewed);
  void ShowFrames();  // the frame thread
  // Reads messages until the reply to call `sequence` of function `slot`,
  // into *reply, showing the framebuffer records before it in `presenter`
  // (the frame thread; its reply's output bytes are not kept: they may lie in the ring).
  // False once the renderer is gone or sent a malformed message (the
  // session is then lost).
  bool Await(uint64_t sequence, int slot, std::vector<uint8_t>& incoming, stream::wire::Reply* reply,
             WindowPresenter* presenter);
  struct WindowSwap {
    uint64_t sequence;
    int slot;
    std::shared_ptr<WindowPresenter> presenter;
  };

  Session& session_;
  std::unique_ptr<transport::ByteStream> stream_;
  uint32_t thread_id_;
  SequenceNumbers::Taker sequence_taker_;  // this connection's thread takes its calls' numbers with it
  stream::ByteBuffer batch_;
  size_t flush_at_ = kBatchBytes;  // 0 after a bulk segment
  stream::CallRun run_;
  bool word_runs_ = false;    // the renderer agreed to words-v1
  bool word_arrays_ = false;  // and to words-v2
  stream::WordRunWriter word_run_;
  uint64_t word_calls_ = 0;  // in the batch's runs (STRATA_REMOTE_STATS)
  // Whether call `sequence` goes in the open run, or one opened for it.
  bool InWordRun(uint64_t sequence) {
    if (!word_run_.open() || sequence != run_.last_sequence + 1) [[unlikely]] {
      word_calls_in_a_row_ = last_word_call_ + 1 == sequence ? word_calls_in_a_row_ + 1 : 1;
      last_word_call_ = sequence;
      if (word_calls_in_a_row_ < kWordCallsBeforeARun + 1) return false;
      BeginWordRun(sequence);
    }
    return true;
  }
  // Outside a run: the sequence of the last call WordCall was asked for,
  // and how many such calls came in a row up to it.
  uint64_t last_word_call_ = 0;
  uint32_t word_calls_in_a_row_ = 0;
  static constexpr uint32_t kWordCallsBeforeARun = 2;
  uint64_t batch_ns_ = 0;
  uint64_t context_id_ = 0;
  uint64_t calls_encoded_ = 0;           // on this thread (eglMakeCurrent among them)
  uint64_t clean_after_ = ~uint64_t{0};  // calls_encoded_ when glGetError last said GL_NO_ERROR
  int64_t answered_ = 0;
  ContextShadow* shadow_;
  ContextShadow no_context_;
  DeferredState deferred_;
  std::vector<uint8_t> incoming_;
  stream::wire::Reply reply_;
  // Window swaps in flight, in order; the frame thread owns the reading
  // side while there are any.
  std::mutex frames_mu_;
  std::condition_variable frames_cv_;
  std::deque<WindowSwap> swaps_;
  bool stopping_ = false;
  std::thread frame_thread_;
  std::vector<uint8_t> frame_incoming_;  // the frame thread's
  stream::wire::Reply frame_reply_;
};

// The first thread that connects, and its connection: found by comparing
// pthread_self() (one load from the thread pointer), where a thread_local of
// a shared library costs a call to __tls_get_addr on every GL call. Written
// by that thread only; cleared before its connection goes, so a later
// thread given the same pthread_t finds nothing.
extern std::atomic<pthread_t> g_first_thread;
extern Connection* g_first_connection;
// ThreadConnectionHolding for any other thread, or a session lost.
Connection* OtherThreadConnectionHolding();
// In a forked child: the connection the forking thread had is its parent's
// (the same ring and socket), dropped without a word, never flushed (its
// descriptors were let go: Connection::LetGoInForkedChild); the thread's
// next call connects anew.
void ForgetInheritedConnections();

// The calling thread's connection without sending what is held (for the
// calls that may be held), made on first use (it joins the process's
// session); null when the renderer cannot be reached or is gone. Inline for
// the first thread, which is every call of most programs.
inline Connection* ThreadConnectionHolding() {
  if (g_first_thread.load(std::memory_order_relaxed) == pthread_self() && !g_first_connection->SessionLost())
      [[likely]] {
    return g_first_connection;
  }
  return OtherThreadConnectionHolding();
}
// The same, with what the thread held back sent first: the caller's call may read it.
inline Connection* ThreadConnection() {
  Connection* c = ThreadConnectionHolding();
  if (c != nullptr) c->SendDeferred();
  return c;
}

// The native driver's function for `slot` when the process fell back to it
// (STRATA_REMOTE_FALLBACK=native), else null: one load and a test per call.
extern void* const* g_native_functions;
inline void* NativeFunction(int slot) { return g_native_functions ? g_native_functions[slot] : nullptr; }

// A call made with no renderer: what it gives back. EGL calls get
// EGL_CONTEXT_LOST (or EGL_NOT_INITIALIZED before one was reached) and
// return EGL_FALSE or EGL_NO_*; GL calls do nothing and return 0, as in a
// lost context, except in a context made with EGL_LOSE_CONTEXT_ON_RESET:
// there glGetGraphicsResetStatus says GL_UNKNOWN_CONTEXT_RESET, and
// glGetError GL_CONTEXT_LOST after other calls (KHR_robustness).
uint64_t LostCall(int slot);
// The EGL part of it: the thread's EGL error.
void LostEglCall();
template <typename T>
T LostResult(int slot) {
  if constexpr (std::is_pointer_v<T>) {
    return reinterpret_cast<T>(static_cast<uintptr_t>(LostCall(slot)));
  } else {
    return static_cast<T>(LostCall(slot));
  }
}

// A string kept for the life of the process, one copy per distinct text.
const char* InternString(std::string_view s);

// The thread's EGL error (eglGetError): set by the client's own EGL checks
// and by replies, read and reset by eglGetError.
int32_t TakeThreadEglError();
void SetThreadEglError(int32_t error);

}  // namespace remote
}  // namespace strata
