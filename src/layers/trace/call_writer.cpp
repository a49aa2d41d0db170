#include "layers/trace/call_writer.h"

#include <cstdlib>
#include <optional>

#include "common/log.h"
#include "strata/api/parameters.h"

#include "layers/trace/context_state.h"
#include "layers/trace/next_functions.h"
#include "layers/trace/process_decision.h"
#include "layers/trace/trace_session.h"
#include "stream/event_records.h"
#include "stream/framebuffer_record.h"
#include "stream/record_format.h"

namespace strata::trace {

__thread ThreadLocals t_locals __attribute__((tls_model("initial-exec")));

namespace {
int8_t TracingStateFor(bool on) {
  if (!on) return kTracingOff;
  return TraceSession::Get().time_every_call() ? kTracingOn : kTracingOnStateUntimed;
}

// Where a hand-written entry of `need` bytes goes (entries written whole, outside a CallWriter).
uint8_t* EntryRoom(ThreadStream& stream, size_t need) {
  uint8_t* entry = stream.write;
  if (static_cast<size_t>(stream.limit - entry) < need) entry = TraceSession::Get().MakeRoom(stream, entry, entry, need);
  return entry;
}

// Hands a whole record, encoded, to the encoder: in the entry when small,
// else by pointer to `heap_copy` (malloc'd; the encoder frees it) or to a
// malloc'd copy of `bytes`. Tagged with `frame`.
void PushEncoded(ThreadStream& stream, const uint8_t* bytes, size_t size, uint8_t* heap_copy, uint32_t frame) {
  TraceSession& session = TraceSession::Get();
  const bool external = heap_copy != nullptr || size > raw::kMaxInlineBlob;
  if (external && heap_copy == nullptr) {
    heap_copy = static_cast<uint8_t*>(std::malloc(size));
    if (heap_copy == nullptr) return;  // nothing published
    std::memcpy(heap_copy, bytes, size);
  }
  const size_t need = 3 * raw::kWord + (external ? raw::kWord : raw::Padded(size));
  uint8_t* entry = EntryRoom(stream, need);
  const uint64_t words[3] = {raw::kEntryEncoded | static_cast<uint64_t>(frame) << 32, session.PeekSequence(),
                             size | (external ? raw::kExternal : 0)};
  std::memcpy(entry, words, sizeof words);
  if (external) {
    const uint64_t pointer = reinterpret_cast<uintptr_t>(heap_copy);
    std::memcpy(entry + 3 * raw::kWord, &pointer, raw::kWord);
  } else {
    std::memcpy(entry + 3 * raw::kWord, bytes, size);
  }
  stream.last_frame = frame;  // later state call entries take this frame
  session.Publish(stream, entry + need);
}
}  // namespace

bool JoinTracing() {
  if (!ProcessDecided()) [[unlikely]] {
    // A forked child's threads stay undecided until it opens an EGL display of its own.
    if (TraceSession::Get().forked()) return false;
    DecideTracing();
  }
  bool on = TraceSession::Get().desired();
  SetThreadTracing(TracingStateFor(on));
  if (on) TraceSession::Get().tracing_threads.fetch_add(1);
  return on;
}

void SwitchThread(bool at_swap) {
  bool on = TraceSession::Get().desired();
  if (t_locals.tracing < 0) {
    JoinTracing();
  } else if (on != (t_locals.tracing > 0)) {
    SetThreadTracing(TracingStateFor(on));
    TraceSession::Get().tracing_threads.fetch_add(on ? 1 : -1);
  } else {
    return;
  }
  // Joining at a swap: the context is already current, so the trace gets
  // made-up records that create it and make it current.
  if (on && at_swap) SynthesizeCurrentContext();
}

void JoinAtFrameStart() {
  if (t_locals.tracing != kTracingOff || !TraceSession::Get().desired()) return;
  SetThreadTracing(TracingStateFor(true));
  TraceSession::Get().tracing_threads.fetch_add(1);
  SynthesizeCurrentContext(true);
}

void LeaveTracingNow() {
  if (t_locals.tracing <= 0) return;
  SetThreadTracing(kTracingOff);
  TraceSession::Get().tracing_threads.fetch_sub(1);
}

void SetStreamContext(uint64_t context) {
  ThreadStream& stream = CurrentStream();
  stream.context = context;
  constexpr size_t kBytes = 2 * raw::kWord;
  uint8_t* entry = EntryRoom(stream, kBytes);
  const uint64_t words[2] = {raw::kEntryContext, context};
  std::memcpy(entry, words, sizeof words);
  TraceSession::Get().Publish(stream, entry + kBytes);
}

GLuint BoundBuffer(GLenum target) {
  const GLenum binding = api::BufferBindingOf(target);
  // Asking for a binding the context does not have would raise an error the app could see.
  if (binding == 0 || (CurrentContextVersion() < 3 && api::BufferBindingNeedsGles3(binding))) return 0;
  return static_cast<GLuint>(QueryInteger(binding));
}

CallWriter::Cursor CallWriter::Room(ThreadStream& stream, Cursor c, size_t need) {
  uint8_t* entry = TraceSession::Get().MakeRoom(stream, c.entry, c.p, need);
  if (entry == nullptr) {  // cannot happen: entries are far smaller than a ring (blobs over 16 KiB go to the heap)
    STRATA_ERROR("tracing: a call record of over %zu bytes does not fit the thread's ring", need);
    std::abort();
  }
  return {entry, entry + (c.p - c.entry)};
}

CallWriter::Cursor CallWriter::SlowBytes(ThreadStream& stream, Cursor c, size_t fixed, const void* data,
                                         size_t size) {
  auto word = [&c](uint64_t v) {
    std::memcpy(c.p, &v, raw::kWord);
    c.p += raw::kWord;
  };
  if (size > raw::kMaxInlineBlob) {
    // Through the heap: the encoder copies and frees it.
    void* copy = std::malloc(size);
    if (copy == nullptr) {
      word(0);
      return c;
    }
    std::memcpy(copy, data, size);
    if (static_cast<size_t>(stream.limit - c.p) < 2 * raw::kWord + fixed) c = Room(stream, c, 2 * raw::kWord + fixed);
    word((static_cast<uint64_t>(size) + 1) | raw::kExternal);
    word(reinterpret_cast<uintptr_t>(copy));
    return c;
  }
  size_t padded = raw::Padded(size);
  if (static_cast<size_t>(stream.limit - c.p) < raw::kWord + padded + fixed) {
    c = Room(stream, c, raw::kWord + padded + fixed);
  }
  word(static_cast<uint64_t>(size) + 1);
  if (size > 0) std::memcpy(c.p, data, size);
  c.p += padded;
  return c;
}

void CallWriter::Strings(const GLchar* const* strings, GLsizei count, const GLint* lengths) {
  if (strings == nullptr || count < 0) return NoBlob();
  stream::ByteBuffer blob;
  stream::ByteWriter inner(&blob);
  inner.Varint(static_cast<uint64_t>(count));
  for (GLsizei i = 0; i < count; ++i) {
    const char* s = strings[i] ? strings[i] : "";
    size_t n = (lengths && lengths[i] >= 0) ? static_cast<size_t>(lengths[i]) : std::strlen(s);
    inner.Varint(n);
    inner.Raw(s, n);
  }
  Bytes(blob.storage.data(), blob.size);
}

namespace {

// A record of its own (not a call) on the calling thread's stream, encoded
// here (these are rare) into a scratch buffer and handed to the ring whole as
// an encoded entry.
class RecordScope {
 public:
  // `frame` tags the entry; by default the frame being traced when it is pushed.
  explicit RecordScope(stream::RecordType type, std::optional<uint32_t> frame = std::nullopt)
      : stream_(CurrentStream()), w_(&stream_.record_scratch), frame_(frame) {
    stream_.record_scratch.Clear();
    at_ = w_.BeginRecord(static_cast<uint8_t>(type));
  }
  // The caller writes the whole record, its type and length too, into buffer().
  struct WholeRecord {};
  explicit RecordScope(WholeRecord) : stream_(CurrentStream()), w_(&stream_.record_scratch), whole_(true) {
    stream_.record_scratch.Clear();
  }
  ~RecordScope() {
    if (!whole_) w_.EndRecord(at_);
    Push();
  }
  stream::ByteWriter& w() { return w_; }
  stream::ByteBuffer& buffer() { return stream_.record_scratch; }
  uint64_t context() const { return stream_.context; }

 private:
  void Push() {
    stream::ByteBuffer& record = stream_.record_scratch;
    PushEncoded(stream_, record.storage.data(), record.size, nullptr,
                frame_ ? *frame_ : TraceSession::Get().frame());
    if (record.storage.size() > 1024 * 1024) record.storage = {};  // keep no big buffer per thread
  }

  ThreadStream& stream_;
  stream::ByteWriter w_;
  std::optional<uint32_t> frame_;
  size_t at_ = 0;
  bool whole_ = false;
};

}  // namespace

void EmitMemory(const void* address, size_t size) {
  if (!Tracing() || address == nullptr) return;
  RecordScope record(stream::RecordType::kMemory);
  stream::EncodeMemory(record.w(), address, size);
}

uint32_t EmitFrameEnd() {
  if (!Tracing()) return UINT32_MAX;
  // The frame's number is taken and advanced in one step: read first and
  // advanced after, two threads swapping at once both ended the same frame.
  const uint32_t ended = TraceSession::Get().EndFrame();
  RecordScope record(stream::RecordType::kFrame, ended);
  record.w().Varint(ended);
  return ended;
}

void EmitFramebuffer(uint32_t framebuffer, int32_t x, int32_t y, uint32_t width, uint32_t height, bool final_frame,
                     const std::function<bool(const PixelPlace& place)>& read) {
  if (!Tracing()) return;
  TraceSession& session = TraceSession::Get();
  ThreadStream& stream = CurrentStream();
  stream::FramebufferImage image;
  image.frame = session.frame();
  image.sequence = session.PeekSequence();
  image.context = stream.context;
  image.framebuffer = framebuffer;
  image.x = x;
  image.y = y;
  image.width = width;
  image.height = height;
  image.final_frame = final_frame;
  // The record laid out in the memory the encoder takes: its head, the
  // pixels read straight after it, the final frame's marker.
  stream::ByteBuffer& head = stream.record_scratch;
  const size_t pixels = stream::PixelBytes(image);
  size_t trailer = 0, size = 0;
  uint8_t* record = nullptr;
  const auto place = [&](bool bgra) -> uint8_t* {
    image.format = bgra ? stream::kFramebufferBgra8 : stream::kFramebufferRgba8;
    head.Clear();
    trailer = stream::WriteFramebufferRecordHead(head, image);
    size = head.size + pixels + trailer;
    record = static_cast<uint8_t*>(std::malloc(size));
    if (record == nullptr) return nullptr;
    std::memcpy(record, head.storage.data(), head.size);
    return record + head.size;
  };
  if (!read(place) || record == nullptr) {
    std::free(record);
    return;
  }
  if (trailer != 0) stream::PutFinalFrameMarker(record + head.size + pixels);
  PushEncoded(stream, nullptr, size, record, static_cast<uint32_t>(image.frame));
}

void EmitContextInfo(const std::vector<std::pair<std::string, std::string>>& info) {
  if (!Tracing()) return;
  RecordScope record(stream::RecordType::kTraceEvent);
  stream::EncodeContextEvent(record.w(), record.context(), info);
}

void EmitSurfaceInfo(uintptr_t surface, int32_t width, int32_t height) {
  if (!Tracing()) return;
  RecordScope record(stream::RecordType::kTraceEvent);
  stream::EncodeSurfaceEvent(record.w(), surface, static_cast<uint64_t>(width), static_cast<uint64_t>(height));
}

void EmitGlError(uint32_t error) {
  if (!Tracing()) return;
  RecordScope record(stream::RecordType::kTraceEvent);
  stream::EncodeGlErrorEvent(record.w(), record.context(), error);
}

void EmitConfigInfo(uintptr_t config, const std::vector<std::pair<int32_t, int32_t>>& attributes) {
  if (!Tracing()) return;
  RecordScope record(stream::RecordType::kTraceEvent);
  stream::ByteWriter& w = record.w();
  w.String("config");
  w.Varint(config);
  w.Varint(attributes.size());
  for (auto [name, value] : attributes) {
    w.Zigzag(name);
    w.Zigzag(value);
  }
}

}  // namespace strata::trace
