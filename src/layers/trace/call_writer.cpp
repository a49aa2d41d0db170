#include "layers/trace/call_writer.h"

#include "layers/trace/context_state.h"
#include "layers/trace/next_functions.h"
#include "layers/trace/trace_session.h"
#include "stream/record_format.h"

namespace strata::trace {
namespace {

thread_local ThreadStream* t_stream = nullptr;

void Acquire(ThreadStream& stream) {
  // Only the flusher ever holds another thread's flag, and only for a moment.
  while (stream.busy.exchange(true, std::memory_order_acquire)) {
  }
}

}  // namespace

bool Tracing() { return TraceSession::Get().active(); }

ThreadStream& CurrentStream() {
  if (t_stream == nullptr) t_stream = &TraceSession::Get().RegisterThread();
  return *t_stream;
}

bool BufferBound(GLenum target) {
  GLenum binding = 0;
  switch (target) {
    case GL_ARRAY_BUFFER: binding = GL_ARRAY_BUFFER_BINDING; break;
    case GL_ELEMENT_ARRAY_BUFFER: binding = GL_ELEMENT_ARRAY_BUFFER_BINDING; break;
    case GL_PIXEL_PACK_BUFFER: binding = GL_PIXEL_PACK_BUFFER_BINDING; break;
    case GL_PIXEL_UNPACK_BUFFER: binding = GL_PIXEL_UNPACK_BUFFER_BINDING; break;
    case GL_DRAW_INDIRECT_BUFFER: binding = GL_DRAW_INDIRECT_BUFFER_BINDING; break;
    default: return false;
  }
  // GLES 1 has only array and element buffers; asking for others would raise an error the app could see.
  if (CurrentContextVersion() < 2 && binding != GL_ARRAY_BUFFER_BINDING && binding != GL_ELEMENT_ARRAY_BUFFER_BINDING) {
    return false;
  }
  GLint bound = 0;
  Next<PFNGLGETINTEGERVPROC>(api::glGetIntegerv)(binding, &bound);
  return bound != 0;
}

CallWriter::CallWriter(int slot, bool has_reply, bool covered) : stream_(CurrentStream()), w_(&stream_.buffer) {
  Acquire(stream_);
  TraceSession& session = TraceSession::Get();
  uint64_t sequence = session.NextSequence();
  if (stream_.records == 0) {
    stream_.first_sequence = sequence;
    stream_.first_frame = session.frame();
    stream_.chunk_start_ns = session.NowNs();
  }
  record_start_ = w_.BeginRecord(static_cast<uint8_t>(stream::RecordType::kCall));
  w_.Varint(static_cast<uint64_t>(slot));
  w_.Varint(sequence);
  w_.Varint(stream_.thread_id);
  w_.Varint(stream_.context);
  w_.U8(static_cast<uint8_t>((has_reply ? stream::kCallHasReply : 0) | (covered ? 0 : stream::kCallUncovered)));
}

CallWriter::~CallWriter() {
  if (!committed_) {
    stream_.buffer.resize(record_start_);  // never leave half a record behind
    stream_.busy.store(false, std::memory_order_release);
  }
}

void CallWriter::Strings(const GLchar* const* strings, GLsizei count, const GLint* lengths) {
  if (strings == nullptr || count < 0) return w_.Absent();
  std::vector<uint8_t> blob;
  stream::ByteWriter inner(&blob);
  inner.Varint(static_cast<uint64_t>(count));
  for (GLsizei i = 0; i < count; ++i) {
    const char* s = strings[i] ? strings[i] : "";
    size_t n = (lengths && lengths[i] >= 0) ? static_cast<size_t>(lengths[i]) : std::strlen(s);
    inner.Varint(n);
    inner.Raw(s, n);
  }
  w_.Blob(blob.data(), blob.size());
}

void CallWriter::StartCall() { start_ns_ = TraceSession::Get().NowNs(); }

void CallWriter::EndCall() {
  uint64_t end = TraceSession::Get().NowNs();
  w_.Varint(start_ns_);
  w_.Varint(end - start_ns_);
  start_ns_ = end;
}

void CallWriter::Commit() {
  w_.EndRecord(record_start_);
  ++stream_.records;
  TraceSession::Get().MaybeFlush(stream_, start_ns_);
  committed_ = true;
  stream_.busy.store(false, std::memory_order_release);
}

void EmitMemory(const void* address, size_t size) {
  if (!Tracing() || address == nullptr) return;
  ThreadStream& stream = CurrentStream();
  Acquire(stream);
  TraceSession& session = TraceSession::Get();
  if (stream.records == 0) {
    stream.first_sequence = session.PeekSequence();
    stream.first_frame = session.frame();
    stream.chunk_start_ns = session.NowNs();
  }
  stream::ByteWriter w(&stream.buffer);
  size_t at = w.BeginRecord(static_cast<uint8_t>(stream::RecordType::kMemory));
  w.Varint(reinterpret_cast<uintptr_t>(address));
  w.Blob(address, size);
  w.EndRecord(at);
  ++stream.records;
  stream.busy.store(false, std::memory_order_release);
}

void EmitFrameEnd() {
  if (!Tracing()) return;
  ThreadStream& stream = CurrentStream();
  Acquire(stream);
  TraceSession& session = TraceSession::Get();
  stream::ByteWriter w(&stream.buffer);
  size_t at = w.BeginRecord(static_cast<uint8_t>(stream::RecordType::kFrame));
  w.Varint(session.frame());
  w.EndRecord(at);
  ++stream.records;
  session.EndFrame();
  session.MaybeFlush(stream, session.NowNs());
  stream.busy.store(false, std::memory_order_release);
}

}  // namespace strata::trace
