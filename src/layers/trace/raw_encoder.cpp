// The encoder thread's half of recording: raw entries (raw_entry.h), as app
// threads wrote them into their rings, become the stream's records
// (docs/trace-format.md) in the thread's chunk. Output is written through a
// plain pointer into room reserved once per record (and again per blob).
#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "layers/trace/raw_entry.h"
#include "layers/trace/trace_session.h"
#include "stream/record_format.h"
#include "strata/api/functions.h"

namespace strata::trace {
namespace {

using api::ArgKind;

inline uint64_t Word(const uint8_t*& p) {
  uint64_t v;
  std::memcpy(&v, p, sizeof v);
  p += raw::kWord;
  return v;
}

inline uint8_t* PutVarint(uint8_t* o, uint64_t v) {
  while (v >= 0x80) {
    *o++ = static_cast<uint8_t>(v | 0x80);
    v >>= 7;
  }
  *o++ = static_cast<uint8_t>(v);
  return o;
}

inline bool IsDataPointer(ArgKind kind) { return kind == ArgKind::kPointer || kind == ArgKind::kString; }

// A scalar as the recorders encode its kind.
inline uint8_t* PutScalar(uint8_t* o, ArgKind kind, uint64_t word) {
  switch (kind) {
    case ArgKind::kInt: {
      int64_t v = static_cast<int64_t>(word);
      return PutVarint(o, (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63));
    }
    case ArgKind::kFloat: {
      uint32_t bits = static_cast<uint32_t>(word);
      std::memcpy(o, &bits, sizeof bits);
      return o + sizeof bits;
    }
    case ArgKind::kDouble:
      std::memcpy(o, &word, sizeof word);
      return o + sizeof word;
    default: return PutVarint(o, word);
  }
}

// Where a record is written: a cursor into the chunk buffer, with room for
// at least `bound_` more bytes of anything but blob contents.
class Output {
 public:
  Output(stream::ByteBuffer& buffer, size_t bound) : buffer_(buffer), bound_(bound) {
    o_ = buffer_.Reserve(bound);
  }
  uint8_t*& o() { return o_; }
  // A blob from the raw words at `p` (external memory is freed).
  void Blob(const uint8_t*& p) {
    uint64_t word = Word(p);
    if (word == 0) {
      *o_++ = 0;
      return;
    }
    size_t size = static_cast<size_t>((word & ~raw::kExternal) - 1);
    const uint8_t* data = p;
    if (word & raw::kExternal) {
      data = reinterpret_cast<const uint8_t*>(static_cast<uintptr_t>(Word(p)));
    } else {
      p += raw::Padded(size);
    }
    // Room for the blob and, after it, the rest of the record.
    size_t at = static_cast<size_t>(o_ - buffer_.storage.data());
    buffer_.size = at;
    o_ = buffer_.Reserve(size + bound_);
    o_ = PutVarint(o_, static_cast<uint64_t>(size) + 1);
    std::memcpy(o_, data, size);
    o_ += size;
    if (word & raw::kExternal) std::free(const_cast<uint8_t*>(data));
  }
  // Ends the record that began at `at` (type byte, one length byte kept).
  void EndRecord(size_t at) {
    uint8_t* start = buffer_.storage.data() + at;
    size_t length = static_cast<size_t>(o_ - start) - 2;
    buffer_.size = static_cast<size_t>(o_ - buffer_.storage.data());
    if (length < 0x80) {
      start[1] = static_cast<uint8_t>(length);
      return;
    }
    // A long record: widen the length field (cost proportional to its payload anyway).
    uint8_t bytes[10];
    size_t n = static_cast<size_t>(PutVarint(bytes, length) - bytes);
    buffer_.Reserve(n - 1);
    uint8_t* payload = buffer_.storage.data() + at + 2;
    std::memmove(payload + n - 1, payload, length);
    std::memcpy(payload - 1, bytes, n);
    buffer_.size += n - 1;
  }

 private:
  stream::ByteBuffer& buffer_;
  size_t bound_;
  uint8_t* o_;
};

// Skips a blob's raw words, freeing external memory.
void SkipBlob(const uint8_t*& p) {
  uint64_t word = Word(p);
  if (word == 0) return;
  size_t size = static_cast<size_t>((word & ~raw::kExternal) - 1);
  if (word & raw::kExternal) {
    std::free(reinterpret_cast<void*>(static_cast<uintptr_t>(Word(p))));
  } else {
    p += raw::Padded(size);
  }
}

// The fields a call record opens with (trace-format.md), after its type and
// length bytes: slot, sequence (within a chunk, the distance from the
// thread's previous call: usually 0), context, flags.
uint8_t* PutCallHead(uint8_t* o, ThreadStream& stream, uint16_t slot, uint64_t sequence, uint64_t context,
                     uint8_t flags) {
  o = PutVarint(o, slot);
  o = PutVarint(o, stream.calls_in_chunk == 0 ? sequence : sequence - stream.last_sequence - 1);
  stream.last_sequence = sequence;
  o = PutVarint(o, context);
  *o++ = flags;
  return o;
}

// An untimed call has no clock readings: it starts, as far as the trace
// knows, where the thread's previous timed call ended.
uint64_t UntimedStart(const ThreadStream& stream) { return std::max(stream.last_end_ns, stream.last_start_ns); }

// A call record's start (within a chunk, from the thread's previous call) and duration.
uint8_t* PutCallTimes(uint8_t* o, ThreadStream& stream, uint64_t start, uint64_t end) {
  o = PutVarint(o, stream.calls_in_chunk == 0 ? start : start - stream.last_start_ns);
  o = PutVarint(o, end - start);
  stream.last_start_ns = start;
  ++stream.calls_in_chunk;
  return o;
}

}  // namespace

size_t TraceSession::EncodeEntry(ThreadStream& stream, const uint8_t* entry, bool discard) {
  const uint8_t* p = entry;
  const uint64_t head = Word(p);
  const uint32_t frame = static_cast<uint32_t>(head >> 32);
  if ((head & 0xff) == raw::kEntryEncoded) {
    uint64_t next_sequence = Word(p);
    uint64_t length = Word(p);
    size_t size = static_cast<size_t>(length & ~raw::kExternal);
    const uint8_t* bytes = p;
    if (length & raw::kExternal) {
      bytes = reinterpret_cast<const uint8_t*>(static_cast<uintptr_t>(Word(p)));
    } else {
      p += raw::Padded(size);
    }
    if (!discard) {
      if (stream.records == 0) BeginChunk(stream, next_sequence, frame);
      std::memcpy(stream.chunk.Reserve(size), bytes, size);
      stream.chunk.size += size;
      ++stream.records;
    }
    if (length & raw::kExternal) std::free(const_cast<uint8_t*>(bytes));
    return static_cast<size_t>(p - entry);
  }

  if ((head & 0xff) == raw::kEntryContext) {
    stream.entry_context = Word(p);  // discarded or not: later entries depend on it
    return static_cast<size_t>(p - entry);
  }
  if ((head & 0xff) == raw::kEntryStateCall) return EncodeStateCall(stream, entry, discard);

  // A call.
  const uint8_t flags = static_cast<uint8_t>(head >> 8);
  const uint16_t slot = static_cast<uint16_t>(head >> 16);
  const api::FunctionInfo& info = api::kFunctions[slot];
  const uint64_t context = Word(p);
  const uint64_t sequence = Word(p);
  if (discard) {
    for (int i = 0; i < info.param_count; ++i) {
      p += raw::kWord;
      if (IsDataPointer(info.params[i].kind)) SkipBlob(p);
    }
    if (!(flags & stream::kCallUntimed)) p += 2 * raw::kWord;
    if (flags & stream::kCallHasReply) {
      if (info.return_kind == ArgKind::kString) {
        SkipBlob(p);
      } else if (info.return_kind != ArgKind::kVoid) {
        p += raw::kWord;
      }
      for (int i = 0; i < info.param_count; ++i) {
        if (IsDataPointer(info.params[i].kind)) SkipBlob(p);
      }
    }
    return static_cast<size_t>(p - entry);
  }

  if (stream.records == 0) BeginChunk(stream, sequence, frame);
  // Every field but blob contents is at most a 10-byte varint (a double: 8 bytes).
  const size_t at = stream.chunk.size;
  Output out(stream.chunk, 2 + 10 * 6 + 10 * 2 * info.param_count + 10);
  uint8_t*& o = out.o();
  *o++ = static_cast<uint8_t>(stream::RecordType::kCall);
  *o++ = 0;  // the length, once known
  o = PutCallHead(o, stream, slot, sequence, context, flags);
  for (int i = 0; i < info.param_count; ++i) {
    const ArgKind kind = info.params[i].kind;
    o = PutScalar(o, kind, Word(p));
    if (IsDataPointer(kind)) out.Blob(p);
  }
  uint64_t start = UntimedStart(stream);
  uint64_t end = start;
  if (!(flags & stream::kCallUntimed)) {
    start = ToNs(Word(p));
    end = std::max(start, ToNs(Word(p)));
    stream.last_end_ns = end;
  }
  o = PutCallTimes(o, stream, start, end);
  if (flags & stream::kCallHasReply) {
    switch (info.return_kind) {
      case ArgKind::kVoid: break;
      case ArgKind::kString: out.Blob(p); break;
      case ArgKind::kDouble: o = PutVarint(o, Word(p)); break;  // as the recorders write it
      default: o = PutScalar(o, info.return_kind, Word(p)); break;
    }
    for (int i = 0; i < info.param_count; ++i) {
      if (IsDataPointer(info.params[i].kind)) out.Blob(p);
    }
  }
  out.EndRecord(at);
  ++stream.records;
  return static_cast<size_t>(p - entry);
}

// The record is the one a call entry with the same values would give.
size_t TraceSession::EncodeStateCall(ThreadStream& stream, const uint8_t* entry, bool discard) {
  const uint8_t* p = entry;
  const uint64_t head = Word(p);
  const uint32_t frame = static_cast<uint32_t>(head >> 32);
  const uint8_t flags = static_cast<uint8_t>(head >> 8);
  const uint16_t slot = static_cast<uint16_t>(head >> 16);
  const api::FunctionInfo& info = api::kFunctions[slot];
  const uint64_t sequence = Word(p);
  const size_t size = raw::StateCallBytes(static_cast<size_t>(info.param_count));
  if (discard) return size;

  if (stream.records == 0) BeginChunk(stream, sequence, frame);
  const size_t at = stream.chunk.size;
  Output out(stream.chunk, 2 + 10 * 6 + 10 * info.param_count);
  uint8_t*& o = out.o();
  *o++ = static_cast<uint8_t>(stream::RecordType::kCall);
  *o++ = 0;  // the length, once known
  o = PutCallHead(o, stream, slot, sequence, stream.entry_context, flags);
  for (int i = 0; i < info.param_count; ++i) {
    uint32_t narrow;
    std::memcpy(&narrow, p, sizeof narrow);
    p += raw::kStateCallParamBytes;
    const ArgKind kind = info.params[i].kind;
    uint64_t word = kind == ArgKind::kInt ? static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(narrow)))
                                          : narrow;
    o = PutScalar(o, kind, word);
  }
  const uint64_t start = UntimedStart(stream);
  o = PutCallTimes(o, stream, start, start);
  out.EndRecord(at);
  ++stream.records;
  return size;
}

void TraceSession::BeginChunk(ThreadStream& stream, uint64_t sequence, uint32_t frame) {
  stream.first_sequence = sequence;
  stream.first_frame = frame;
  stream.chunk_start_ns = MonotonicNs();
}

}  // namespace strata::trace
