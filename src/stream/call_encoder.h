#pragma once
// Writes call records (docs/trace-format.md) into any byte buffer: the one
// encoder of the command stream. The tracer's encoder thread drives it from
// the raw entries of its rings (src/layers/trace/raw_encoder.cpp), the remote
// client from the app's calls straight into its connection's batch
// (src/remote/). Output goes through a plain pointer into room reserved once
// per record (and again per blob): no per-field capacity checks.

#include <cstdint>
#include <cstring>
#include <vector>

#include "stream/bulk_blobs.h"
#include "stream/byte_writer.h"
#include "stream/record_format.h"
#include "strata/api/functions.h"

namespace strata::stream {

inline uint8_t* PutVarint(uint8_t* o, uint64_t v) {
  while (v >= 0x80) {
    *o++ = static_cast<uint8_t>(v | 0x80);
    v >>= 7;
  }
  *o++ = static_cast<uint8_t>(v);
  return o;
}

inline bool IsDataPointer(api::ArgKind kind) { return kind == api::ArgKind::kPointer || kind == api::ArgKind::kString; }

// A scalar by its kind, from a 64-bit word: an integer of kind kInt
// sign-extended, other integers and handles zero-extended, a float's bits in
// the low half, a double's 8 bytes.
inline uint8_t* PutScalar(uint8_t* o, api::ArgKind kind, uint64_t word) {
  switch (kind) {
    case api::ArgKind::kInt: {
      int64_t v = static_cast<int64_t>(word);
      return PutVarint(o, (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63));
    }
    case api::ArgKind::kFloat: {
      uint32_t bits = static_cast<uint32_t>(word);
      std::memcpy(o, &bits, sizeof bits);
      return o + sizeof bits;
    }
    case api::ArgKind::kDouble:
      std::memcpy(o, &word, sizeof word);
      return o + sizeof word;
    default: return PutVarint(o, word);
  }
}

// A run of call records of one thread whose sequence numbers and start times
// are deltas from the previous call's: a trace chunk, a wire batch.
struct CallRun {
  uint32_t calls = 0;  // the first call of a run carries absolute numbers
  uint64_t last_sequence = 0;
  uint64_t last_start_ns = 0;
  void Restart() { calls = 0; }
};

// The fields a call record opens with, after its type and length bytes:
// function id, sequence, context, flags.
inline uint8_t* PutCallHead(uint8_t* o, CallRun& run, uint64_t function_id, uint64_t sequence, uint64_t context,
                            uint8_t flags) {
  o = PutVarint(o, function_id);
  o = PutVarint(o, run.calls == 0 ? sequence : sequence - run.last_sequence - 1);
  run.last_sequence = sequence;
  o = PutVarint(o, context);
  *o++ = flags;
  return o;
}

// A call record's start (within a run, from the previous call's) and duration.
inline uint8_t* PutCallTimes(uint8_t* o, CallRun& run, uint64_t start, uint64_t end) {
  o = PutVarint(o, run.calls == 0 ? start : start - run.last_start_ns);
  o = PutVarint(o, end - start);
  run.last_start_ns = start;
  ++run.calls;
  return o;
}

// Where a record is written: a cursor into a ByteBuffer with room for at
// least `bound` more bytes of anything but blob contents.
class RecordOutput {
 public:
  RecordOutput(ByteBuffer& buffer, size_t bound) : buffer_(buffer), bound_(bound) { o_ = buffer_.Reserve(bound); }
  uint8_t*& o() { return o_; }

  // Starts a record: its type and one byte kept for the length. Returns
  // where it starts, for EndRecord.
  size_t BeginRecord(RecordType type) {
    const size_t at = static_cast<size_t>(o_ - buffer_.storage.data());
    *o_++ = static_cast<uint8_t>(type);
    *o_++ = 0;  // the length, once known
    return at;
  }
  // A blob: varint (size + 1) and the bytes.
  void Blob(const void* data, size_t size) {
    // Room for the blob and, after it, the rest of the record.
    buffer_.size = static_cast<size_t>(o_ - buffer_.storage.data());
    o_ = buffer_.Reserve(size + bound_);
    o_ = PutVarint(o_, static_cast<uint64_t>(size) + 1);
    if (size != 0) std::memcpy(o_, data, size);
    o_ += size;
  }
  // A blob whose bytes travel out of line (bulk_blobs.h): its length only.
  void BlobLength(size_t size) {
    buffer_.size = static_cast<size_t>(o_ - buffer_.storage.data());
    o_ = buffer_.Reserve(bound_);
    o_ = PutVarint(o_, static_cast<uint64_t>(size) + 1);
  }
  BulkSink* bulk() const { return buffer_.bulk; }
  void Absent() { *o_++ = 0; }
  // Ends the record that began at `at`.
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
  ByteBuffer& buffer_;
  size_t bound_;
  uint8_t* o_;
};

// Bytes a call record of `info` needs besides blob contents: every field is
// at most a 10-byte varint (a double: 8 bytes).
inline size_t CallRecordBound(const api::FunctionInfo& info) { return 2 + 10 * 6 + 10 * 2 * info.param_count + 10; }

// One call record, field by field in the order of docs/trace-format.md:
// Begin, then per parameter Scalar (and Blob/Absent for data pointers),
// Times, then for a call with a reply the result and the output blobs, End.
class CallEncoder {
 public:
  CallEncoder(ByteBuffer& buffer, CallRun& run, int slot, uint64_t sequence, uint64_t context, uint8_t flags)
      : run_(run), out_(buffer, CallRecordBound(api::kFunctions[slot])) {
    at_ = out_.BeginRecord(RecordType::kCall);
    out_.o() = PutCallHead(out_.o(), run, static_cast<uint64_t>(slot), sequence, context, flags);
  }
  void Scalar(api::ArgKind kind, uint64_t word) { out_.o() = PutScalar(out_.o(), kind, word); }
  void Signed(int64_t v) { Scalar(api::ArgKind::kInt, static_cast<uint64_t>(v)); }
  void Unsigned(uint64_t v) { out_.o() = PutVarint(out_.o(), v); }
  void Pointer(uintptr_t v) { Unsigned(v); }  // handles and pointers: the value
  void Float(float v) {
    uint32_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    Scalar(api::ArgKind::kFloat, bits);
  }
  void Double(double v) {
    uint64_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    Scalar(api::ArgKind::kDouble, bits);
  }
  void Blob(const void* data, size_t size) {
    if (BulkSink* bulk = out_.bulk(); bulk != nullptr && size >= bulk->threshold()) [[unlikely]] {
      out_.BlobLength(size);
      bulk->PutBulk(data, size);
      return;
    }
    out_.Blob(data, size);
  }
  void Absent() { out_.Absent(); }
  void Times(uint64_t start, uint64_t end) { out_.o() = PutCallTimes(out_.o(), run_, start, end); }
  void End() { out_.EndRecord(at_); }

 private:
  CallRun& run_;
  RecordOutput out_;
  size_t at_;
};

// Encoding decoded values (encode_call.cpp): the renderer answers and records
// live calls with them.
struct DecodedCall;
struct DecodedValue;

// Writes a decoded call back as a call record (the inverse of CallDecoder):
// its own function id, flags, arguments and input blobs, times and, when
// flags has kCallHasReply, `call.result` and the output blobs of its data
// pointers. The renderer uses it to store a live call with its reply merged
// in, so the stored stream replays like a traced one.
void EncodeCall(const DecodedCall& call, CallRun& run, ByteBuffer& out);

// What a call gave back, as a call record's reply part and a wire reply both
// hold it: the return value by `info`'s kind (a blob for strings), then per
// data-pointer parameter the blob of `outputs[i]` (absent without has_out).
void PutReplyValues(RecordOutput& o, const api::FunctionInfo& info, const DecodedValue& result,
                    const std::vector<DecodedValue>& outputs);

}  // namespace strata::stream
