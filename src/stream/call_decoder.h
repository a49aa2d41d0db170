#pragma once
// Decodes call records into values a person or a replayer can use. Generic:
// the layout of every call follows from the function's parameter kinds in
// the registry (strata/api/functions.h), never from per-function code.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "stream/byte_reader.h"
#include "stream/slack_reader.h"
#include "stream/record_format.h"
#include "strata/api/functions.h"

namespace strata::stream {

class BulkBlobs;
class ByteReader;

// Maps the function ids of a stream to this build's dispatch slots by name.
class FunctionTable {
 public:
  // `names`: newline-separated, the id of each is its line number.
  void Load(std::string_view names);
  // This build's slot for a stream id, or -1 when the name is unknown here.
  int SlotOf(uint64_t id) const { return id < slots_.size() ? slots_[id] : -1; }
  std::string_view NameOf(uint64_t id) const { return id < names_.size() ? std::string_view(names_[id]) : "?"; }
  size_t size() const { return names_.size(); }
  // The table of this build: id = slot.
  static std::string OwnNames();

 private:
  std::vector<int> slots_;
  std::vector<std::string> names_;
};

struct DecodedValue {
  api::ArgKind kind = api::ArgKind::kVoid;
  int64_t i = 0;   // kInt
  uint64_t u = 0;  // kUInt, kEnum, kBitfield, kBoolean, kHandle, kPointer, kString (the pointer value)
  double f = 0;    // kFloat, kDouble
  bool has_in = false, has_out = false;
  std::span<const uint8_t> in, out;  // bytes behind a pointer, before and after the call
};

struct DecodedCall {
  uint64_t function_id = 0;
  int slot = -1;
  std::string_view name;
  uint64_t sequence = 0, thread = 0, context = 0, start_ns = 0, duration_ns = 0;
  uint8_t flags = 0;
  std::vector<DecodedValue> args;
  DecodedValue result;  // kind kVoid when the function returns nothing
  bool has_reply = false;
};

// Decodes call records. Within a chunk a call's sequence number and start time
// are deltas from the thread's previous call, so the decoder keeps, per
// thread, where the last call of the current chunk left off.
class CallDecoder {
 public:
  explicit CallDecoder(const FunctionTable& table) : table_(table) {}
  const FunctionTable& table() const { return table_; }
  // `chunk` identifies the chunk the record came from (any number that
  // changes from one chunk to the next). False with `error` for a malformed
  // record or a function this build does not know (its layout is unknown).
  bool Decode(std::span<const uint8_t> payload, uint32_t thread, uint64_t chunk, DecodedCall* call,
              std::string* error);
  // For a reader that takes a call's arguments itself (the executor's
  // handlers generated per function, host/call_handlers.h): the record's
  // head, with the reader left at the first argument. False (nothing taken)
  // for a record such a reader cannot take: cut short, a call to a function
  // the tracer or this build does not know. Decode it then, which says why.
  struct CallHead {  // BeginCall sets every field (no initializers: it is made per call)
    int slot;
    uint8_t flags;
    uint64_t sequence, context;
  };
  // Inline, with EndCall: they are most of what a handled call costs.
  // `Reader`: a ByteReader, or a SlackReader where the record lies with its slack after it.
  template <class Reader>
  [[gnu::always_inline]] bool BeginCall(std::span<const uint8_t> payload, uint32_t thread, uint64_t chunk, Reader* r,
                                        CallHead* head) {
    const ThreadState& state = last_state_ != nullptr && last_thread_ == thread ? *last_state_ : *StateOf(thread);
    Reader local(payload);  // in registers while it reads
    const uint64_t id = local.Varint();
    const uint64_t sequence = local.Varint();
    head->context = local.Varint();
    head->flags = local.U8();
    head->slot = table_.SlotOf(id);
    head->sequence = state.chunk != chunk ? sequence : state.sequence + 1 + sequence;
    chunk_ = chunk;
    *r = local;
    return local.ok() && head->slot >= 0 && (head->flags & kCallUnknownFunction) == 0;
  }
  // After the arguments: the call's start and duration, and its reply part
  // for a function that returns `return_kind`, a scalar, and has
  // `data_pointers` inputs (its recorded result and what the reply holds of
  // them, when it has one, are skipped). False when the record is malformed
  // or longer, or its reply has bytes in a bulk segment.
  template <class Reader>
  [[gnu::always_inline]] bool EndCall(Reader& r, const CallHead& head, api::ArgKind return_kind, uint64_t* start_ns,
                                      uint64_t* duration_ns, int data_pointers = 0) {
    const uint64_t start = r.Varint();
    *duration_ns = r.Varint();
    if (head.flags & kCallHasReply) {
      const size_t length = ResultLength(r.Rest(), return_kind);
      if (length == SIZE_MAX) return false;
      r.Bytes(length);
      for (int i = 0; i < data_pointers; ++i) {
        const uint64_t tag = r.Varint();
        if (tag == 0) continue;
        if (!BlobInRecord(tag - 1)) return false;
        r.Bytes(tag - 1);
      }
    }
    if (!r.ok() || !r.done()) return false;
    *start_ns = last_state_->chunk != chunk_ ? start : last_state_->start_ns + start;
    return true;
  }
  // The call BeginCall and EndCall read was taken: the thread's sequence and
  // start move on to it, as Decode moves them. (One that was not taken is
  // decoded again with Decode.)
  void TakeCall(const CallHead& head, uint64_t start_ns) { *last_state_ = {chunk_, head.sequence, start_ns}; }
  // A call of `thread` in `chunk` run from its decoded form
  // (stream/prepared_call.h): the thread's sequence and start move on to it,
  // for the next record of the thread that is decoded.
  void TakeCall(uint32_t thread, uint64_t chunk, uint64_t sequence, uint64_t start_ns) {
    ThreadState& state = last_state_ != nullptr && last_thread_ == thread ? *last_state_ : *StateOf(thread);
    state = {chunk, sequence, start_ns};
  }

  // Calls to functions the tracer did not know (kCallUnknownFunction) decode
  // with slot -1, their name and no arguments; by default they are an error,
  // so that a consumer that indexes the registry by slot never sees one.
  void AcceptUnknownFunctions(bool accept) { accept_unknown_ = accept; }
  // A wire stream with bulk-v1 (wire.h): blobs of at least `threshold`
  // bytes come from `bulk` instead of the record. Null: every blob is in its record.
  void SetBulk(BulkBlobs* bulk, size_t threshold) {
    bulk_ = bulk;
    bulk_threshold_ = threshold;
  }
  // Whether a blob of `size` bytes lies in its record (else in a bulk segment).
  bool BlobInRecord(uint64_t size) const { return bulk_ == nullptr || size < bulk_threshold_; }

 private:
  // `r`: a copy of the record's reader after the header.
  bool DecodeUnknownFunction(ByteReader r, bool first, DecodedCall* call, std::string* error);
  bool accept_unknown_ = false;

  struct ThreadState {
    uint64_t chunk = UINT64_MAX;
    uint64_t sequence = 0, start_ns = 0;
  };
  // The state of another thread than the last call's (made on its first call).
  ThreadState* StateOf(uint32_t thread);
  // The length of a recorded scalar result at `r`'s offset (SIZE_MAX: the
  // record is malformed). Given a copy: a reader no call takes by address
  // stays in registers.
  static size_t ResultLength(ByteReader r, api::ArgKind return_kind);
  const FunctionTable& table_;
  std::unordered_map<uint32_t, ThreadState> threads_;
  ThreadState* last_state_ = nullptr;
  BulkBlobs* bulk_ = nullptr;
  size_t bulk_threshold_ = 0;
  uint32_t last_thread_ = 0;
  uint64_t chunk_ = 0;  // BeginCall's, for its EndCall
};

// The strings of a kStringsIn blob (glShaderSource and the like).
std::vector<std::string_view> DecodeStrings(std::span<const uint8_t> blob, bool* ok);

}  // namespace strata::stream
