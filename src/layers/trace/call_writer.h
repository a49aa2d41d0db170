#pragma once
// Records one call into the calling thread's ring as a raw entry (the
// generated wrappers drive it; layout in raw_entry.h): plain stores of whole
// words, no varints, no lock and no atomic read-modify-write besides the
// global call sequence. The encoder thread turns entries into the records of
// docs/trace-format.md.

#include <GLES3/gl32.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "layers/trace/raw_entry.h"
#include "layers/trace/thread_locals.h"
#include "layers/trace/trace_session.h"
#include "stream/byte_writer.h"
#include "stream/record_format.h"

namespace strata::trace {

// Whether the calling thread traces: undecided until its first call decides,
// then it changes only at switch points (eglSwapBuffers, eglMakeCurrent), as
// in Android's design: a context follows tracing being switched on or off at
// its next swap, other contexts at their next eglMakeCurrent.
enum TracingState : int8_t {
  kTracingUndecided = -1,
  kTracingOff = 0,
  kTracingOn = 1,               // every call timed (STRATA_TRACE_TIMING=all)
  kTracingOnStateUntimed = 3,   // state-setting calls untimed: they may take StateCallWriter's path
};
// t_locals.tracing (thread_locals.h), which starts undecided.
static_assert(ThreadLocals{}.tracing == kTracingUndecided);
bool JoinTracing();
// Decided and off: the wrappers' whole test before they hand a call on.
inline bool TracingOff() { return t_locals.tracing == kTracingOff; }
inline bool Tracing() {
  int8_t tracing = t_locals.tracing;
  if (tracing < 0) [[unlikely]] return JoinTracing();
  return tracing != kTracingOff;
}
// Made-up records that create the current context and make it current, for a
// thread that starts tracing with a context already current (trace_hooks.cpp);
// `at_frame_start`: where a frame begins, after a swap (frame_range.h), not at
// the swap that shows the frame being drawn.
void SynthesizeCurrentContext(bool at_frame_start = false);
// Called by the recorders of eglSwapBuffers and eglMakeCurrent before anything else.
void SwitchThread(bool at_swap);
// A frame range (frame_range.h): the calling thread joins the trace now,
// right after its swap returned, or leaves it now, right after its swap was
// recorded, rather than at its next switch point.
void JoinAtFrameStart();
void LeaveTracingNow();
inline void SwitchPoint(bool at_swap) {
  if ((t_locals.tracing > 0) != TraceSession::Get().desired()) [[unlikely]] SwitchThread(at_swap);
}

// t_locals.stream: the calling thread's stream, created on first use.
// t_locals.state_stream: what a state call wrapper does, in one load (StateCallWriter): the
// thread's stream (its address) while it traces with state calls untimed;
// kStateUntraced when it does not trace; kStateGeneral when its calls take
// the general recorder (undecided, every call timed, or no stream yet).
// Derived from t_locals.tracing and t_locals.stream: set only through SetThreadTracing
// and SetThreadStream, which keep the three in step. Signed, so that the
// wrapper's test is `> 0` (an address is positive in user space): one byte
// shorter than `> 1`, which took a one-parameter wrapper's path from two
// cache lines to three.
inline constexpr intptr_t kStateUntraced = 0;
inline constexpr intptr_t kStateGeneral = -1;
static_assert(ThreadLocals{}.state_stream == kStateGeneral);
inline void RefreshStateStream() {
  if (t_locals.tracing == kTracingOff) {
    t_locals.state_stream = kStateUntraced;
  } else if (t_locals.tracing == kTracingOnStateUntimed && t_locals.stream != nullptr) {
    t_locals.state_stream = reinterpret_cast<intptr_t>(t_locals.stream);
  } else {
    t_locals.state_stream = kStateGeneral;
  }
}
inline void SetThreadTracing(int8_t tracing) {
  t_locals.tracing = tracing;
  RefreshStateStream();
}
inline void SetThreadStream(ThreadStream* stream) {
  t_locals.stream = stream;
  RefreshStateStream();
}
inline ThreadStream& CurrentStream() {
  if (t_locals.stream == nullptr) [[unlikely]] SetThreadStream(&TraceSession::Get().RegisterThread());
  return *t_locals.stream;
}

// The calling thread's current context changed to `context` (an id; 0: none):
// the stream's later entries belong to it, state call entries included, which
// do not carry it (a context entry in the ring says so; raw_entry.h).
void SetStreamContext(uint64_t context);

// The buffer object bound to `target` on the current context (0: none, or a
// target the context's version does not have).
GLuint BoundBuffer(GLenum target);
// True when a buffer is bound to `target`, so a pointer argument is an offset
// into it rather than app memory.
inline bool BufferBound(GLenum target) { return BoundBuffer(target) != 0; }

// Records of their own, written by the hooks: bytes of app memory a later call
// reads (client arrays, mapped buffers), and the end of a frame.
void EmitMemory(const void* address, size_t size);
// The frame's end: returns the number of the frame that ended (UINT32_MAX
// when the thread does not trace).
uint32_t EmitFrameEnd();
// What the driver says of a context (GL_VENDOR, GL_RENDERER, GL_VERSION, ...),
// once per context and trace: a trace event record of key/value strings.
void EmitContextInfo(const std::vector<std::pair<std::string, std::string>>& info);
// The size of a window or pixmap surface, which a replayer cannot learn from
// the calls: a trace event after the surface's creation, and before a
// synthesized eglMakeCurrent that uses it.
void EmitSurfaceInfo(uintptr_t surface, int32_t width, int32_t height);
// The attributes of a config a context or surface is created with, so a
// replayer on another display can pick a config of the same format: a trace
// event before the creating call.
void EmitConfigInfo(uintptr_t config, const std::vector<std::pair<int32_t, int32_t>>& attributes);
// What glGetError gave the tracer at the end of a frame (0: no error).
void EmitGlError(uint32_t error);
// Where a framebuffer read puts its width * height * 4 bytes, asked once
// their order is known (bgra: BGRA8, else RGBA8) and before anything is read;
// null: nothing is read.
using PixelPlace = std::function<uint8_t*(bool bgra)>;
// A framebuffer image: which framebuffer (0: the surface), the rectangle;
// `read` asks `place` for room in the record and writes the pixels straight
// there, and the record goes to the encoder without another copy; when it
// returns false nothing is recorded.
void EmitFramebuffer(uint32_t framebuffer, int32_t x, int32_t y, uint32_t width, uint32_t height, bool final_frame,
                     const std::function<bool(const PixelPlace& place)>& read);

// The per-call path is a few dozen instructions: keep it in the recorder.
#define STRATA_INLINE inline __attribute__((always_inline))

class CallWriter {
 public:
  // `fixed_bytes`: an upper bound of the entry's size without blob contents
  // (the generated recorders pass the exact figure).
  STRATA_INLINE CallWriter(int slot, bool has_reply, bool covered, uint8_t extra_flags = 0,
                           size_t fixed_bytes = 64 * raw::kWord)
      // `write` is loaded on its own: merged with `limit` into one 16-byte load
      // it could not be forwarded from the last call's 8-byte store, and the
      // call would wait for that store to reach the cache.
      : stream_(CurrentStream()), fixed_(fixed_bytes), entry_(__atomic_load_n(&stream_.write, __ATOMIC_RELAXED)),
        p_(entry_) {
    if (static_cast<size_t>(stream_.limit - entry_) < fixed_bytes) [[unlikely]] {
      entry_ = p_ = Room(stream_, {entry_, p_}, fixed_bytes).entry;
    }
    // The recorders pass kCallUntimed as a constant: timed calls never test the thread's state.
    untimed_ = (extra_flags & stream::kCallUntimed) && t_locals.tracing == kTracingOnStateUntimed;
    if (!untimed_) extra_flags &= ~stream::kCallUntimed;
    uint64_t flags = (has_reply ? stream::kCallHasReply : 0) | (covered ? 0 : stream::kCallUncovered) | extra_flags;
    frame_ = TraceSession::frame();
    Put(raw::kEntryCall | flags << 8 | static_cast<uint64_t>(slot) << 16 | static_cast<uint64_t>(frame_) << 32, 0);
    Put(stream_.context, 1);
    sequence_ = TraceSession::NextSequence();
    Put(sequence_, 2);
    p_ = entry_ + 3 * raw::kWord;
  }
  CallWriter(const CallWriter&) = delete;
  CallWriter& operator=(const CallWriter&) = delete;
  // An entry not committed is never published: nothing to undo.
  ~CallWriter() = default;

  STRATA_INLINE void Signed(int64_t v) { Word(static_cast<uint64_t>(v)); }
  STRATA_INLINE void Unsigned(uint64_t v) { Word(v); }
  STRATA_INLINE void Float(float v) {
    uint32_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    Word(bits);
  }
  STRATA_INLINE void Double(double v) {
    uint64_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    Word(bits);
  }
  STRATA_INLINE void Pointer(uintptr_t v) { Word(v); }
  STRATA_INLINE void NoBlob() { Word(0); }

  template <typename SizeFn>
  void InBlob(const void* p, SizeFn size) {
    if (p == nullptr) return NoBlob();
    Bytes(p, size());
  }
  template <typename SizeFn>
  void InBlobUnlessBuffer(GLenum target, const void* p, SizeFn size) {
    if (p == nullptr || BufferBound(target)) return NoBlob();
    Bytes(p, size());
  }
  template <typename SizeFn>
  void OutBlob(const void* p, SizeFn size) { InBlob(p, size); }
  template <typename SizeFn>
  void OutBlobUnlessBuffer(GLenum target, const void* p, SizeFn size) { InBlobUnlessBuffer(target, p, size); }

  // An array of `count` strings with optional lengths (NULL or negative: NUL-terminated).
  void Strings(const GLchar* const* strings, GLsizei count, const GLint* lengths);
  void StringBlob(const char* s) {
    if (s == nullptr) return NoBlob();
    Bytes(s, std::strlen(s) + 1);
  }

  // A size from a rule; a negative count turned huge (the GL rejects the call
  // without reading) is not captured.
  STRATA_INLINE void Bytes(const void* p, size_t size) {
    if (size > kMaxCaptureBytes) return NoBlob();
    size_t padded = raw::Padded(size);
    if (size > raw::kMaxInlineBlob || static_cast<size_t>(stream_.limit - p_) < padded + fixed_) [[unlikely]] {
      Cursor c = SlowBytes(stream_, {entry_, p_}, fixed_, p, size);
      entry_ = c.entry;
      p_ = c.p;
      return;
    }
    Word(static_cast<uint64_t>(size) + 1);
    if (size > 0) {
      std::memcpy(p_, p, size);
      p_ += padded;
    }
  }
  static constexpr size_t kMaxCaptureBytes = size_t{1} << 31;

  // An untimed call's entry has no time words: reading the clock would cost
  // more than the call (docs/benchmarks.md, "Clock reads and shared cache lines").
  STRATA_INLINE void StartCall() {
    if (untimed_) return;
    time_at_ = p_;
    p_ += 2 * raw::kWord;
    uint64_t start = TraceSession::RawNow();
    std::memcpy(time_at_, &start, raw::kWord);
  }
  STRATA_INLINE void EndCall() {
    if (untimed_) return;
    uint64_t end = TraceSession::RawNow();
    std::memcpy(time_at_ + raw::kWord, &end, raw::kWord);
  }
  // Later state call entries count from this entry's sequence and take its frame.
  STRATA_INLINE void Commit() {
    stream_.last_sequence = sequence_;
    stream_.last_frame = frame_;
    TraceSession::Publish(stream_, p_);
  }

 private:
  STRATA_INLINE void Put(uint64_t v, size_t word) { std::memcpy(entry_ + word * raw::kWord, &v, raw::kWord); }
  STRATA_INLINE void Word(uint64_t v) {
    std::memcpy(p_, &v, raw::kWord);
    p_ += raw::kWord;
  }
  // The slow paths take and return the cursor by value, so that the recorder
  // keeps it in registers (a CallWriter whose address escaped would be
  // reloaded after every store).
  struct Cursor {
    uint8_t* entry;  // where the entry starts
    uint8_t* p;      // where the next word goes
  };
  // Makes `need` contiguous bytes writable at c.p (the entry may move).
  static Cursor Room(ThreadStream& stream, Cursor c, size_t need);
  static Cursor SlowBytes(ThreadStream& stream, Cursor c, size_t fixed, const void* data, size_t size);

  ThreadStream& stream_;
  size_t fixed_;
  uint8_t* entry_;
  uint8_t* p_;
  uint8_t* time_at_ = nullptr;
  uint64_t sequence_ = 0;
  uint32_t frame_ = 0;
  bool untimed_ = false;
};

// The recorder of a state-setting call whose parameters are all 32-bit
// scalars, on its common path, inlined in the wrapper. It writes a state call
// entry (raw_entry.h: no context, no time, 4 bytes per parameter, so 24-40
// bytes where a call entry takes 32-64). The entry is complete before the
// driver runs, so it is published first and the driver call is the wrapper's
// tail call: the wrapper keeps no register across a call and needs no stack
// frame. (Both halve what a state call costs the app: docs/benchmarks.md,
// "The state-call path".) The encoder is kicked by the next call that takes the general
// path.
class StateCallWriter {
 public:
  // Takes the call when it can take this path: the thread traces with state
  // calls untimed and has its stream (`state`, t_locals.state_stream), has room for `bytes`
  // (the entry's padded size) and a sequence entry before the ring's end or a
  // due kick of the encoder (state_limit), and is in the frame of its last
  // entry. Otherwise ready() is false and the wrapper goes on to the general
  // recorder. Every test is one load and compare: each byte of this path is
  // fetched again on every call (docs/benchmarks.md, instruction cache).
  explicit STRATA_INLINE StateCallWriter(intptr_t state, size_t bytes) {
    if (state <= 0) [[unlikely]] return;
    ThreadStream* stream = reinterpret_cast<ThreadStream*>(state);
    uint8_t* write = __atomic_load_n(&stream->write, __ATOMIC_RELAXED);  // alone: see CallWriter
    // The room as an end compared with the limit: a load and an add shorter than a difference.
    if (reinterpret_cast<uintptr_t>(write) + bytes + raw::kSequenceEntryBytes >
            reinterpret_cast<uintptr_t>(stream->state_limit) ||
        TraceSession::frame() != stream->last_frame) [[unlikely]] {
      return;
    }
    stream_ = stream;
    entry_ = p_ = write;
    bytes_ = bytes;
  }
  STRATA_INLINE bool ready() const { return stream_ != nullptr; }
  // The entry's first word; then Param() per parameter.
  STRATA_INLINE void Begin(int slot, uint8_t flags) {
    const uint64_t sequence = TraceSession::NextSequence();
    uint64_t delta = sequence - stream_->last_sequence;
    stream_->last_sequence = sequence;
    if (delta >> 32) [[unlikely]] {  // a sequence entry first, inline: a call here would cost every call a frame
      Word(raw::kEntrySequence);
      Word(sequence);
      TraceSession::PublishWithoutKick(*stream_, p_, raw::kSequenceEntryBytes);
      entry_ = p_;
      delta = 0;
    }
    Word(raw::kEntryStateCall | static_cast<uint64_t>(flags | stream::kCallUntimed) << 8 |
         static_cast<uint64_t>(slot) << 16 | delta << 32);
  }
  StateCallWriter(const StateCallWriter&) = delete;
  StateCallWriter& operator=(const StateCallWriter&) = delete;

  STRATA_INLINE void Param(uint32_t v) {
    std::memcpy(p_, &v, sizeof v);
    p_ += sizeof v;
  }
  STRATA_INLINE void Param(int32_t v) { Param(static_cast<uint32_t>(v)); }
  STRATA_INLINE void Param(float v) {
    uint32_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    Param(bits);
  }
  // Publishes without waking the encoder (which would be a call); the
  // constructor sends the call after a due kick to the general path instead.
  STRATA_INLINE void Commit() { TraceSession::PublishWithoutKick(*stream_, entry_ + bytes_, bytes_); }

 private:
  STRATA_INLINE void Word(uint64_t v) {
    std::memcpy(p_, &v, raw::kWord);
    p_ += raw::kWord;
  }
  ThreadStream* stream_ = nullptr;
  uint8_t* entry_ = nullptr;
  uint8_t* p_ = nullptr;
  size_t bytes_ = 0;
};

}  // namespace strata::trace
