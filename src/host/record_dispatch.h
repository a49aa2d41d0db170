#pragma once
// Runs a command stream's records on an executor: decodes each call record,
// runs it on the host thread of its recorded thread (ThreadRunner), feeds
// memory records and the trace events the executor needs (`config`,
// `surface`), and hands what each call gave back to `on_reply`. Replay and
// the renderer drive it alike; records it does not run (frames, framebuffer
// images) are left to its driver.

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "host/executor.h"
#include "host/fast_call.h"
#include "host/thread_runner.h"
#include "stream/call_decoder.h"
#include "stream/record_source.h"
#include "stream/word_run.h"

namespace strata::host {

// Where a stream thread's calls run: a host thread of its own (replay: one
// reader feeds every recorded thread), or the thread that dispatches them
// (the renderer: each client thread already has a connection thread).
enum class HostThreads { kOnePerStreamThread, kCaller };

class RecordDispatch {
 public:
  // `functions`: the stream's function table; it must outlive the dispatch.
  RecordDispatch(const HostDriver& driver, SurfaceFactory& surfaces, const stream::FunctionTable& functions,
                 HostThreads threads = HostThreads::kOnePerStreamThread);

  // Runs one record. False with *error when a record cannot be decoded (a
  // call, memory or trace event record that is malformed: the stream is
  // damaged or hostile); a call the executor refuses is a problem it
  // reports, and the stream goes on.
  bool Dispatch(const stream::Record& record, std::string* error) {
    // Inline for the calls a generated handler takes, most of a stream.
    if (record.prepared != nullptr) return RunPrepared(record, error);
    if (record.type == stream::RecordType::kCall && !handled_.empty() && !before_call && !stopped_ &&
        RunHandled(record)) {
      return true;
    }
    return DispatchRecord(record, error);
  }

  // A run of records in one span (a renderer's message): runs them from
  // `*at` on through the generated handlers in one loop, as Dispatch would,
  // for as long as each is a call record one takes, or with `word_runs` a
  // word run (stream/word_run.h); `*at` is then the first record not run,
  // or the end. That record goes to DispatchUnhandled (it is one no handler
  // takes). `readable`: the bytes readable from `records.data()` on, at
  // least `records.size()`; the handlers read records in place that have
  // stream::SlackReader::kSlackBytes of them after their end. False with
  // *error at a malformed word run (the calls of it before the bad one ran).
  bool RunHandledIn(std::span<const uint8_t> records, size_t readable, size_t* at, uint32_t thread, uint64_t chunk,
                    bool word_runs, std::string* error);
  // Dispatch for a record RunHandledIn stopped at: without trying the handlers again.
  bool DispatchUnhandled(const stream::Record& record, std::string* error) { return DispatchRecord(record, error); }
  // How far ahead of the record being run a run of records is fetched into
  // the cache: the driver's work between two calls (a draw's copies in
  // llvmpipe) pushes it out, and decoding would wait for each of its lines.
  static constexpr size_t kPrefetchBytes = 256;

  // Runs `work` on the host thread of recorded thread `thread` (to read its
  // context's framebuffers, for example).
  void RunOn(uint64_t thread, const std::function<void()>& work);

  // Called on the call's host thread right after it ran, with what it gave
  // back (valid during the call only). Without it no reply is made.
  std::function<void(const stream::DecodedCall& call, const CallReply& reply)> on_reply;
  // Which calls on_reply wants (unset: all). Making a reply costs a call's
  // worth of work again (outputs, results, eglGetError), so a renderer asks
  // only for those a client waits for or a recording stores.
  std::function<bool(const stream::DecodedCall& call)> wants_reply;
  // Called on the call's host thread after every call that ran, with its
  // reply when wants_reply asked for one (else null): a replay checking itself.
  std::function<void(const stream::DecodedCall& call, const CallReply* reply)> after_call;

  // Called on the call's host thread before it runs: run it, skip it (a
  // replay fast-forwarding past draws that cannot matter), or stop there, so
  // that neither it nor any call after it runs (stopped()).
  enum class CallAction { kRun, kSkip, kStop };
  std::function<CallAction(const stream::DecodedCall& call)> before_call;
  // Called on the call's host thread before a call that runs through
  // Executor::Execute while other calls run through the generated handlers
  // (HookSlots): a replay's self-check takes there the GL errors of the
  // calls that ran unseen before it. It does not turn the handlers off.
  std::function<void(const stream::DecodedCall& call)> before_unhandled;
  bool stopped() const { return stopped_; }
  // Whether calls run through the generated handlers (HookSlots, no
  // before_call): only then is keeping calls decoded worth its while.
  bool RunsHandlers() const { return !handled_.empty() && !before_call; }
  uint64_t skipped() const { return skipped_; }

  // Calls run through the executor's handlers generated per function
  // (host/fast_call.h) where they have one, read straight from the record:
  // none of the hooks above sees them. Calls of the slots `hooked` names,
  // and all calls while before_call is set, are decoded and run through
  // Executor::Execute, hooks and all, as are calls flagged kCallWantsReply.
  // Until this is called every slot is hooked.
  void HookSlots(const std::function<bool(int slot)>& hooked);
  // Whether a slot's calls can run through a generated handler, and so
  // from their decoded form (Record::prepared) too.
  static bool Handles(int slot) { return kCallHandlers[slot] != nullptr; }

  // Word runs may hold calls of functions with an array (words-v2,
  // stream/word_run.h): a client that did not agree to it is closed at such
  // a call.
  void AllowWordArrays(bool allowed) {
    word_arrays_ = allowed;
    word_slots_.clear();
  }

  // A wire stream's blobs sent out of line (stream/bulk_blobs.h).
  void SetBulk(stream::BulkBlobs* bulk, size_t threshold) { decoder_.SetBulk(bulk, threshold); }
  // A trace's calls to functions the tracer did not know are skipped (and
  // counted in the executor's problems()); otherwise such a record is an error.
  void AcceptUnknownFunctions() { decoder_.AcceptUnknownFunctions(true); }

  Executor& executor() { return executor_; }
  uint64_t calls() const { return calls_; }
  // The sequence number of the last call dispatched.
  uint64_t last_sequence() const { return last_sequence_; }
  // The recorded start of the first call and end of the last (0, 0 before any).
  uint64_t first_start_ns() const { return calls_ ? first_start_ns_ : 0; }
  uint64_t last_end_ns() const { return last_end_ns_; }

 private:
  void RunCall(const stream::Record& record);
  // A call its generated handler ran: true; false when none did (nothing of
  // it ran): decode it and run it through Execute, or report it malformed.
  bool RunHandled(const stream::Record& record);
  // RunHandled's part after the thread is found: one call record through
  // its handler, with `call` made for its thread; true when it ran (and is
  // counted), false when nothing of it ran. `payload` must lie with
  // stream::SlackReader::kSlackBytes readable after it (WithSlack).
  bool RunOneHandled(FastCall& call, std::span<const uint8_t> payload, uint32_t thread, uint64_t chunk);
  // `*payload` where a handler may read it: in place where the
  // `readable_after` bytes after it hold the slack, else copied into
  // slack_copy_; false for a record too long to copy, which then runs through Execute.
  bool WithSlack(std::span<const uint8_t>* payload, size_t readable_after) {
    if (stream::SlackReader::Fits(readable_after)) [[likely]] return true;
    return CopyWithSlack(payload);
  }
  bool CopyWithSlack(std::span<const uint8_t>* payload);
  // A run of calls kept decoded (record.prepared): through their generated
  // handlers in one loop; a call no handler takes from its record.
  bool RunPrepared(const stream::Record& record, std::string* error);
  // Runs calls of a run from `*at` on through their handlers, as far as they
  // take them: `*at` is then the first not run, and `*left` the calls left.
  void RunPreparedCalls(const stream::Record& record, uint64_t context, const stream::PreparedCall** at,
                        uint64_t* left);
  // The rest of a run from `call` (one no handler took) on, `left` calls,
  // after the calls before it ran: each refused call from its record, the
  // calls after it from their decoded form again.
  bool FinishRun(const stream::Record& record, const stream::PreparedCall* call, uint64_t left, std::string* error);
  // Counts a call either path ran.
  void Ran(uint64_t sequence, uint64_t start_ns, uint64_t duration_ns) {
    ++calls_;
    last_sequence_ = sequence;
    first_start_ns_ = std::min(first_start_ns_, start_ns);
    last_end_ns_ = std::max(last_end_ns_, start_ns + duration_ns);
  }
  bool DispatchRecord(const stream::Record& record, std::string* error);
  // A word run (stream/word_run.h, the wire's): each call through its
  // handler (with `fast`, RunHandledIn's, else one made here), or decoded
  // and through Execute where none takes it; false with *error at the
  // first call that is not one a run may hold.
  bool RunWordRun(const stream::Record& record, FastCall* fast, std::string* error);
  bool TraceEvent(const stream::Record& record, std::string* error);

  const HostThreads threads_;
  ThreadRunner runner_;  // before the executor: its threads outlive the executor's teardown
  Executor executor_;
  stream::CallDecoder decoder_;
  stream::DecodedCall call_;
  CallReply reply_;
  uint64_t calls_ = 0, first_start_ns_ = UINT64_MAX, last_end_ns_ = 0;
  uint64_t last_sequence_ = 0;  // of the last call run, by either path
  // By slot, for calls run through a generated handler (empty: none is; a
  // null handler: that slot's calls run through Execute).
  struct HandledSlot {
    CallHandler handler = nullptr;
    // The same, for a call kept decoded (never null: NotPrepared where handler is).
    PreparedCallHandler prepared = nullptr;
    void* driver = nullptr;  // the function's entry point
  };
  std::vector<HandledSlot> handled_;
  // By the stream's function id, what a word run's call of it needs, in one
  // place: between two driver calls (whose copies empty the data cache) each
  // call of a run reads one entry instead of the id's slot, the slot's
  // handler and whether and how its calls travel in runs from three tables.
  struct WordSlot {
    PreparedCallHandler prepared = nullptr;  // NotPrepared where no handler takes the calls
    void* driver = nullptr;
    uint64_t arguments = stream::kNotInRuns;  // stream::WordCallArity
    int slot = -1;                            // -1: no function of this build
    bool array = false;                       // stream::kWordArrayCalls: its calls may carry an array
  };
  // Made on the first run, and again after HookSlots.
  const WordSlot* WordSlots();
  std::vector<WordSlot> word_slots_;
  bool word_arrays_ = false;
  // A record a handler reads with no slack after it where it lies, copied (made on first use).
  static constexpr size_t kCopiedAtMost = 4096;
  std::vector<uint8_t> slack_copy_;
  bool stopped_ = false;
  uint64_t skipped_ = 0;
};

}  // namespace strata::host
