#pragma once
// Encodes one call record into the calling thread's buffer (the generated
// wrappers drive it; layout in docs/trace-format.md). No lock is shared
// between threads on this path: each thread owns its buffer, and only a
// per-thread flag keeps the background flusher out while a record is written.

#include <GLES3/gl32.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "layers/trace/trace_session.h"
#include "stream/byte_writer.h"
#include "stream/record_format.h"

namespace strata::trace {

// Whether the calling thread traces: -1 until its first call decides, then
// it changes only at switch points (eglSwapBuffers, eglMakeCurrent), as in
// Android's design: a context follows tracing being switched on or off at
// its next swap, other contexts at their next eglMakeCurrent.
extern __thread int8_t t_tracing __attribute__((tls_model("initial-exec")));
bool JoinTracing();
inline bool Tracing() {
  int8_t tracing = t_tracing;
  if (tracing < 0) [[unlikely]] return JoinTracing();
  return tracing != 0;
}
// Made-up records that create the current context and make it current, for a
// thread that starts tracing with a context already current (trace_hooks.cpp).
void SynthesizeCurrentContext();
// Called by the recorders of eglSwapBuffers and eglMakeCurrent before anything else.
void SwitchThread(bool at_swap);
inline void SwitchPoint(bool at_swap) {
  if ((t_tracing == 1) != TraceSession::Get().desired()) [[unlikely]] SwitchThread(at_swap);
}

// The calling thread's stream, created on first use.
extern __thread ThreadStream* t_stream __attribute__((tls_model("initial-exec")));
inline ThreadStream& CurrentStream() {
  if (t_stream == nullptr) [[unlikely]] t_stream = &TraceSession::Get().RegisterThread();
  return *t_stream;
}

// Waits out the flusher, which holds another thread's flag only for a moment.
inline void AcquireStream(ThreadStream& stream) {
  while (stream.busy.exchange(true, std::memory_order_acquire)) [[unlikely]] {
  }
}

// The buffer object bound to `target` on the current context (0: none, or a
// target the context's version does not have).
GLuint BoundBuffer(GLenum target);
// True when a buffer is bound to `target`, so a pointer argument is an offset
// into it rather than app memory.
inline bool BufferBound(GLenum target) { return BoundBuffer(target) != 0; }

// Records of their own, written by the hooks: bytes of app memory a later call
// reads (client arrays, mapped buffers), and the end of a frame.
void EmitMemory(const void* address, size_t size);
void EmitFrameEnd();
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
// A framebuffer image: which framebuffer (0: the surface), the rectangle, RGBA8 pixels.
void EmitFramebuffer(uint32_t framebuffer, int32_t x, int32_t y, uint32_t width, uint32_t height,
                     const std::vector<uint8_t>& pixels);

class CallWriter {
 public:
  CallWriter(int slot, bool has_reply, bool covered, uint8_t extra_flags = 0)
      : stream_(CurrentStream()), w_(&stream_.buffer) {
    AcquireStream(stream_);
    uint64_t sequence = TraceSession::Get().NextSequence();
    if (stream_.records == 0) [[unlikely]] BeginChunk(sequence);
    record_start_ = w_.BeginRecord(static_cast<uint8_t>(stream::RecordType::kCall));
    w_.Varint(static_cast<uint64_t>(slot));
    // Within a chunk: the distance from this thread's previous call (usually 0).
    w_.Varint(stream_.calls_in_chunk == 0 ? sequence : sequence - stream_.last_sequence - 1);
    stream_.last_sequence = sequence;
    w_.Varint(stream_.context);
    w_.U8(static_cast<uint8_t>((has_reply ? stream::kCallHasReply : 0) | (covered ? 0 : stream::kCallUncovered) |
                               extra_flags));
  }
  CallWriter(const CallWriter&) = delete;
  CallWriter& operator=(const CallWriter&) = delete;
  ~CallWriter() {
    if (!committed_) [[unlikely]] Abandon();
  }

  void Signed(int64_t v) { w_.Zigzag(v); }
  void Unsigned(uint64_t v) { w_.Varint(v); }
  void Float(float v) { w_.Float(v); }
  void Double(double v) { w_.Double(v); }
  void Pointer(uintptr_t v) { w_.Varint(v); }
  void NoBlob() { w_.Absent(); }

  template <typename SizeFn>
  void InBlob(const void* p, SizeFn size) {
    if (p == nullptr) return w_.Absent();
    Bytes(p, size());
  }
  template <typename SizeFn>
  void InBlobUnlessBuffer(GLenum target, const void* p, SizeFn size) {
    if (p == nullptr || BufferBound(target)) return w_.Absent();
    Bytes(p, size());
  }
  template <typename SizeFn>
  void OutBlob(const void* p, SizeFn size) { InBlob(p, size); }
  template <typename SizeFn>
  void OutBlobUnlessBuffer(GLenum target, const void* p, SizeFn size) { InBlobUnlessBuffer(target, p, size); }

  // An array of `count` strings with optional lengths (NULL or negative: NUL-terminated).
  void Strings(const GLchar* const* strings, GLsizei count, const GLint* lengths);
  void StringBlob(const char* s) {
    if (s == nullptr) return w_.Absent();
    w_.Blob(s, std::strlen(s) + 1);
  }

  // A size from a rule; a negative count turned huge (the GL rejects the call
  // without reading) is not captured.
  void Bytes(const void* p, size_t size) {
    if (size > kMaxCaptureBytes) return w_.Absent();
    w_.Blob(p, size);
  }
  static constexpr size_t kMaxCaptureBytes = size_t{1} << 31;

  void StartCall() { start_ns_ = TraceSession::Get().NowNs(); }
  void EndCall() {
    uint64_t end = TraceSession::Get().NowNs();
    w_.Varint(stream_.calls_in_chunk == 0 ? start_ns_ : start_ns_ - stream_.last_start_ns);
    w_.Varint(end - start_ns_);
    stream_.last_start_ns = start_ns_;
    ++stream_.calls_in_chunk;
    start_ns_ = end;
  }
  void Commit() {
    w_.EndRecord(record_start_);
    ++stream_.records;
    TraceSession::Get().MaybeFlush(stream_, start_ns_);
    committed_ = true;
    stream_.busy.store(false, std::memory_order_release);
  }

 private:
  void BeginChunk(uint64_t sequence);
  void Abandon();
  ThreadStream& stream_;
  stream::ByteWriter w_;
  size_t record_start_;
  uint64_t start_ns_ = 0;  // the call's start, then (after EndCall) its end
  bool committed_ = false;
};

}  // namespace strata::trace
