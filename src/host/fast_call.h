#pragma once
// One call as the executor's handlers generated per function run it
// (api/emit_executor.py -> build/generated/src/call_handlers.cpp): straight
// from its record, or from the call kept decoded (stream/prepared_call.h),
// into typed locals, object names mapped where the
// function's parameters name objects, and a direct call of the driver's
// entry point. A handler exists for the functions whose arguments are
// scalars, or scalars and one input array whose bytes the record carries
// (read where they lie once they hold what the arguments imply), and whose
// traits ask nothing of the executor but what the small interface below
// covers (bindings it follows, draws that read vertex arrays from buffers,
// a buffer's new storage counted against the storage budget); every
// other call, and any call a handler finds it cannot take (a draw with
// client memory, say), runs through Executor::Execute.
//
// The handler reads the record with a stream::SlackReader (the record lies
// with readable slack after it, so its scalars are read without a bound
// check each) and checks at the record's end that every read stayed in it;
// a record that does not decode is malformed, and nothing of it reaches the
// driver: it goes on to Execute's decoder, which says why.

#include <cstdint>

#include "host/executor.h"
#include "stream/call_decoder.h"
#include "stream/prepared_call.h"
#include "stream/slack_reader.h"
#include "stream/word_run.h"

namespace strata::host {

class FastCall {
 public:
  FastCall(Executor& executor, stream::CallDecoder& decoder, uint32_t thread)
      : x_(executor), decoder_(decoder), thread_(executor.ThreadOf(thread)), context_(thread_.current) {}

  // The record, from the first argument on.
  stream::SlackReader r;
  stream::CallDecoder::CallHead head;

  // Set by a handler that ran nothing (a draw with client memory, a
  // malformed record): the call is decoded and run through Execute.
  bool refused = false;
  void Refuse() { refused = true; }

  // After the arguments: the call's times and the end of its record. False:
  // the record is malformed.
  [[gnu::always_inline]] bool End(api::ArgKind return_kind, int data_pointers = 0) {
    return decoder_.EndCall(r, head, return_kind, &start_ns, &duration_ns, data_pointers);
  }
  uint64_t start_ns, duration_ns;  // set by End

  // A recorded GL object name -> the host's (one a stream never made stands
  // for itself). `Object` is known per parameter, so the share group's map
  // or the context's own is chosen at build time.
  template <api::ObjectClass Object>
  uint64_t Name(uint64_t recorded) const {
    if (context_ == nullptr) return recorded;
    if constexpr (IsShared(Object)) {
      return context_->shared->names[static_cast<int>(Object)].ToHost(recorded);
    } else {
      return context_->names[static_cast<int>(Object)].ToHost(recorded);
    }
  }
  // A uniform location of the current program.
  [[gnu::always_inline]] int64_t Location(int64_t recorded) {
    if (context_ == nullptr) return recorded;
    // The table is found again only when another program is in use or tables changed.
    if (context_->LocationsCurrent()) [[likely]] return context_->MappedLocation(recorded);
    return Executor::FindLocations(*context_, recorded);
  }
  // Whether a blob of `size` bytes lies in the record (not in a bulk segment).
  bool BlobInRecord(uint64_t size) const { return decoder_.BlobInRecord(size); }
  // Whether an input blob holds what the call's host arguments `args` imply
  // for parameter `param`, as Execute checks it; false: Execute runs the call and says why.
  bool InputCovered(int slot, const Word* args, int param, uint64_t size) {
    return x_.FastInputCovered(slot, args, param, size);
  }
  // Before a call that gives the bound buffer new storage (the storage=buffer
  // trait): the storage budget counts it; false: Execute runs the call (past
  // the budget, or a mapping to forget) and says why.
  bool NewBufferStorage(int slot, const Word* args) { return x_.FastBufferStorage(thread_, slot, args); }

  // Before the driver runs it (once nothing can refuse the call): what the
  // executor follows of a call that binds or changes where vertex arrays
  // read from, as Execute follows it. The generator passes the function's
  // core and its changes-vertex-arrays trait as constants, so that this
  // folds to the few stores its one case makes, and the handler's last act
  // is the driver's call (a jump, with nothing to come back to).
  template <int kCore, bool kChangesVertexArrays>
  [[gnu::always_inline]] void Follow(uint64_t first, uint64_t second) {
    if (context_ == nullptr) return;
    Executor::FollowBinding(*context_, kCore, first, second);
    if constexpr (kChangesVertexArrays) context_->arrays_in_buffers.clear();
  }
  // The stream's context the thread's calls ran in (head.context), as
  // Execute keeps it: once a call ran, for one call or a run of them.
  void KeepStreamContext() { thread_.stream_context = head.context; }
  // Before a draw: true when it reads its vertex arrays from buffers only,
  // as checked before (Executor::ClientArraysCovered); false for anything
  // else (client memory for it, arrays not known to be in buffers, no
  // context, GLES 1): it then runs through Execute, which checks.
  bool DrawReadsBuffersOnly() { return x_.FastDrawReady(thread_); }

 private:
  Executor& x_;
  stream::CallDecoder& decoder_;
  Executor::Thread& thread_;
  Executor::Context* const context_;
};

// The bytes an input pointer's blob carries. `data` null: the record has no
// blob for it, and the driver gets a null pointer where Execute would pass
// one (null means something there, glBufferData's orphaning, or the
// arguments need no bytes); or, with `missing`, one the record does not
// hold (in a bulk segment, or cut short), which Execute reads.
struct InputBlob {
  const uint8_t* data;
  uint64_t size;
  bool missing;
};

// Where a generated handler reads its arguments from, in parameter order:
// the record after its head (End reads the call's times and says whether the
// record was whole and every read in it) ...
struct RecordArguments {
  stream::SlackReader& r;
  void* driver;  // the function's entry point
  uint64_t Varint() { return r.Varint(); }
  int64_t Zigzag() { return r.Zigzag(); }
  float Float() { return r.Float(); }
  double Double() { return r.Double(); }
  // A data pointer: its recorded value (unused: the bytes stand for it), then its blob.
  InputBlob Blob(const FastCall& call) {
    r.Varint();
    const uint64_t tag = r.Varint();
    if (tag == 0) return {nullptr, 0, false};
    if (!call.BlobInRecord(tag - 1)) return {nullptr, 0, true};
    return {r.Bytes(tag - 1).data(), tag - 1, false};
  }
  [[gnu::always_inline]] bool End(FastCall& call, api::ArgKind return_kind, int data_pointers = 0) {
    return call.End(return_kind, data_pointers);
  }
};
// ... or a call kept decoded, read once already (its head and times too).
struct PreparedArguments {
  const stream::PreparedWord* at;
  void* driver;
  uint64_t Varint() { return (at++)->u; }
  int64_t Zigzag() { return (at++)->i; }
  float Float() { return (at++)->f; }
  double Double() { return (at++)->d; }
  static bool End(FastCall&, api::ArgKind) { return true; }
};
// ... or a word run's call of a function with an input array
// (stream::kWordArrayCalls): its words, the array's bytes after them.
struct WordArrayArguments : PreparedArguments {
  std::span<const uint8_t> array;  // null where the app passed null
  // `arguments`: the call's first argument, after its head word; `pointer`: the array's parameter.
  static WordArrayArguments Of(const stream::PreparedWord* arguments, uint32_t count, int pointer, void* driver) {
    return {{arguments, driver}, stream::WordCallArray(arguments, pointer, stream::WordCallArrayBytes(arguments[-1]), count)};
  }
  // Past the array's pointer word, its bytes.
  InputBlob Blob(const FastCall&) {
    ++at;
    return {array.data(), array.size(), false};
  }
  static bool End(FastCall&, api::ArgKind, int) { return true; }
};

// A handler that does not run its call says so with FastCall::Refuse.
// The dispatch hands it the driver's entry point for the function.
using CallHandler = void (*)(FastCall& call, void* driver);
using PreparedCallHandler = void (*)(FastCall& call, const stream::PreparedWord* arguments, void* driver);
// By dispatch slot, one body per function for either source; null where
// calls run through Execute only.
extern const CallHandler kCallHandlers[api::kFunctionCount];
extern const PreparedCallHandler kPreparedCallHandlers[api::kFunctionCount];

}  // namespace strata::host
