// The encoder thread's half of recording: raw entries (raw_entry.h), as app
// threads wrote them into their rings, become the stream's records
// (docs/trace-format.md) in the thread's chunk. Output is written through a
// plain pointer into room reserved once per record (and again per blob).
#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "layers/trace/raw_entry.h"
#include "layers/trace/trace_session.h"
#include "layers/trace/unknown_functions.h"
#include "stream/call_encoder.h"
#include "stream/record_format.h"
#include "strata/api/functions.h"

namespace strata::trace {
namespace {

using api::ArgKind;
using stream::IsDataPointer;
using stream::PutScalar;
using stream::PutVarint;

inline uint64_t Word(const uint8_t*& p) {
  uint64_t v;
  std::memcpy(&v, p, sizeof v);
  p += raw::kWord;
  return v;
}

// A blob from the raw words at `p` (external memory is freed).
void PutRawBlob(stream::RecordOutput& out, const uint8_t*& p) {
  uint64_t word = Word(p);
  if (word == 0) return out.Absent();
  size_t size = static_cast<size_t>((word & ~raw::kExternal) - 1);
  const uint8_t* data = p;
  if (word & raw::kExternal) {
    data = reinterpret_cast<const uint8_t*>(static_cast<uintptr_t>(Word(p)));
  } else {
    p += raw::Padded(size);
  }
  out.Blob(data, size);
  if (word & raw::kExternal) std::free(const_cast<uint8_t*>(data));
}

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

// An untimed call has no clock readings: it starts, as far as the trace
// knows, where the thread's previous timed call ended.
uint64_t UntimedStart(const ThreadStream& stream) { return std::max(stream.last_end_ns, stream.run.last_start_ns); }

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
    stream.entry_frame = frame;  // discarded or not: later state call entries depend on it
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
  if ((head & 0xff) == raw::kEntrySequence) {
    stream.entry_sequence = Word(p);
    return static_cast<size_t>(p - entry);
  }
  if ((head & 0xff) == raw::kEntryStateCall) return EncodeStateCall(stream, entry, discard);

  // A call.
  const uint8_t flags = static_cast<uint8_t>(head >> 8);
  const uint16_t slot = static_cast<uint16_t>(head >> 16);
  if (flags & stream::kCallUnknownFunction) return EncodeUnknownCall(stream, entry, discard);
  const api::FunctionInfo& info = api::kFunctions[slot];
  const uint64_t context = Word(p);
  const uint64_t sequence = Word(p);
  stream.entry_sequence = sequence;  // discarded or not: later state call entries count from these
  stream.entry_frame = frame;
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
  stream::RecordOutput out(stream.chunk, stream::CallRecordBound(info));
  const size_t at = out.BeginRecord(stream::RecordType::kCall);
  uint8_t*& o = out.o();
  o = stream::PutCallHead(o, stream.run, slot, sequence, context, flags);
  for (int i = 0; i < info.param_count; ++i) {
    const ArgKind kind = info.params[i].kind;
    o = PutScalar(o, kind, Word(p));
    if (IsDataPointer(kind)) PutRawBlob(out, p);
  }
  uint64_t start = UntimedStart(stream);
  uint64_t end = start;
  if (!(flags & stream::kCallUntimed)) {
    start = ToNs(Word(p));
    end = std::max(start, ToNs(Word(p)));
    stream.last_end_ns = end;
  }
  o = stream::PutCallTimes(o, stream.run, start, end);
  if (flags & stream::kCallHasReply) {
    switch (info.return_kind) {
      case ArgKind::kVoid: break;
      case ArgKind::kString: PutRawBlob(out, p); break;
      case ArgKind::kDouble: o = PutVarint(o, Word(p)); break;  // as the recorders write it
      default: o = PutScalar(o, info.return_kind, Word(p)); break;
    }
    for (int i = 0; i < info.param_count; ++i) {
      if (IsDataPointer(info.params[i].kind)) PutRawBlob(out, p);
    }
  }
  out.EndRecord(at);
  ++stream.records;
  return static_cast<size_t>(p - entry);
}

// A call to a function the registry does not know (unknown_functions.h):
// header, context, sequence, start, end; its record carries the name.
size_t TraceSession::EncodeUnknownCall(ThreadStream& stream, const uint8_t* entry, bool discard) {
  const uint8_t* p = entry;
  const uint64_t head = Word(p);
  const uint32_t frame = static_cast<uint32_t>(head >> 32);
  const uint8_t flags = static_cast<uint8_t>(head >> 8);
  const uint16_t id = static_cast<uint16_t>(head >> 16);
  const uint64_t context = Word(p);
  const uint64_t sequence = Word(p);
  const uint64_t start = ToNs(Word(p));
  const uint64_t end = std::max(start, ToNs(Word(p)));
  stream.entry_sequence = sequence;
  stream.entry_frame = frame;
  const char* name = UnknownFunctionName(static_cast<uint32_t>(id - api::kFunctionCount));
  if (discard || name == nullptr) return static_cast<size_t>(p - entry);
  const size_t length = std::strlen(name);
  if (stream.records == 0) BeginChunk(stream, sequence, frame);
  stream::RecordOutput out(stream.chunk, 2 + 10 * 6 + length);
  const size_t at = out.BeginRecord(stream::RecordType::kCall);
  uint8_t*& o = out.o();
  o = stream::PutCallHead(o, stream.run, id, sequence, context, flags);
  out.Blob(reinterpret_cast<const uint8_t*>(name), length);
  o = stream::PutCallTimes(o, stream.run, start, end);
  stream.last_end_ns = end;
  out.EndRecord(at);
  ++stream.records;
  return static_cast<size_t>(p - entry);
}

// The record is the one a call entry with the same values would give.
size_t TraceSession::EncodeStateCall(ThreadStream& stream, const uint8_t* entry, bool discard) {
  const uint8_t* p = entry;
  const uint64_t head = Word(p);
  const uint8_t flags = static_cast<uint8_t>(head >> 8);
  const uint16_t slot = static_cast<uint16_t>(head >> 16);
  const api::FunctionInfo& info = api::kFunctions[slot];
  const uint64_t sequence = stream.entry_sequence + (head >> 32);
  stream.entry_sequence = sequence;
  const size_t size = raw::StateCallBytes(static_cast<size_t>(info.param_count));
  if (discard) return size;

  if (stream.records == 0) BeginChunk(stream, sequence, stream.entry_frame);
  stream::RecordOutput out(stream.chunk, 2 + 10 * 6 + 10 * info.param_count);
  const size_t at = out.BeginRecord(stream::RecordType::kCall);
  uint8_t*& o = out.o();
  o = stream::PutCallHead(o, stream.run, slot, sequence, stream.entry_context, flags);
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
  o = stream::PutCallTimes(o, stream.run, start, start);
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
