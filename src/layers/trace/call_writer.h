#pragma once
// Encodes one call record into the calling thread's buffer (the generated
// wrappers drive it; layout in docs/trace-format.md). No lock is shared
// between threads on this path: each thread owns its buffer, and only a
// per-thread flag keeps the background flusher out while a record is written.

#include <GLES3/gl32.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <vector>

#include "stream/byte_writer.h"

namespace strata::trace {

struct ThreadStream;

// True while this process is being traced.
bool Tracing();

// The calling thread's stream, created on first use.
ThreadStream& CurrentStream();

// True when a buffer object is bound to `target` on the current context, so a
// pointer argument is an offset into it rather than app memory.
bool BufferBound(GLenum target);

// Records of their own, written by the hooks: bytes of app memory a later call
// reads (client arrays, mapped buffers), and the end of a frame.
void EmitMemory(const void* address, size_t size);
void EmitFrameEnd();

class CallWriter {
 public:
  CallWriter(int slot, bool has_reply, bool covered);
  CallWriter(const CallWriter&) = delete;
  CallWriter& operator=(const CallWriter&) = delete;
  ~CallWriter();  // commits if Commit() was not reached (never leaves the stream busy)

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

  void StartCall();
  void EndCall();
  void Commit();

 private:
  ThreadStream& stream_;
  stream::ByteWriter w_;
  size_t record_start_;
  uint64_t start_ns_ = 0;  // the call's start, then (after EndCall) its end
  bool committed_ = false;
};

}  // namespace strata::trace
