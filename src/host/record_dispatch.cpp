#include "host/record_dispatch.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <utility>
#include <vector>

#include "host/fast_call.h"
#include "stream/byte_reader.h"
#include "stream/event_records.h"
#include "stream/framebuffer_record.h"
#include "stream/record_reader.h"
#include "stream/wire.h"
#include "stream/word_run.h"

namespace strata::host {

RecordDispatch::RecordDispatch(const HostDriver& driver, SurfaceFactory& surfaces,
                               const stream::FunctionTable& functions, HostThreads threads)
    : threads_(threads), executor_(driver, surfaces), decoder_(functions) {}

void RecordDispatch::RunOn(uint64_t thread, const std::function<void()>& work) {
  if (threads_ == HostThreads::kCaller) return work();
  runner_.Run(thread, work);
}

bool RecordDispatch::DispatchRecord(const stream::Record& record, std::string* error) {
  switch (record.type) {
    case stream::RecordType::kCall: {
      if (stopped_) return true;
      std::string problem;
      if (!decoder_.Decode(record.payload, record.thread_id, record.chunk, &call_, &problem)) {
        *error = "call " + std::to_string(calls_) + " (thread " + std::to_string(record.thread_id) + "): " + problem;
        return false;
      }
      if (call_.slot < 0) {  // only when accepted: a function the tracer did not know
        executor_.SkipUnknownFunction(call_);
        ++calls_;
        return true;
      }
      RunCall(record);
      return true;
    }
    case stream::RecordType::kMemory: {
      uint64_t address = 0;
      std::span<const uint8_t> bytes;
      if (!stream::DecodeMemory(record.payload, &address, &bytes)) {
        *error = "malformed memory record (thread " + std::to_string(record.thread_id) + ")";
        return false;
      }
      executor_.WriteMemory(record.thread_id, address, bytes);
      return true;
    }
    case stream::RecordType::kTraceEvent:
      return TraceEvent(record, error);
    case stream::RecordType::kWordRun:
      return RunWordRun(record, nullptr, error);
    default:
      return true;  // frames, framebuffer images, unknown records: the driver's business
  }
}

namespace {

// A slot whose calls kept decoded a handler does not take: Execute's.
void NotPrepared(FastCall& call, const stream::PreparedWord*, void*) { call.Refuse(); }

}  // namespace

void RecordDispatch::HookSlots(const std::function<bool(int slot)>& hooked) {
  handled_.assign(api::kFunctionCount, HandledSlot{nullptr, NotPrepared, nullptr});
  for (int slot = 0; slot < api::kFunctionCount; ++slot) {
    void* const function = executor_.driver().Function(slot);
    if (hooked(slot) || kCallHandlers[slot] == nullptr || function == nullptr) continue;
    handled_[slot] = {kCallHandlers[slot], kPreparedCallHandlers[slot] ? kPreparedCallHandlers[slot] : NotPrepared,
                      function};
  }
  word_slots_.clear();
}

const RecordDispatch::WordSlot* RecordDispatch::WordSlots() {
  if (!word_slots_.empty()) [[likely]] return word_slots_.data();
  const stream::FunctionTable& functions = decoder_.table();
  word_slots_.assign(std::max<size_t>(functions.size(), 1), WordSlot{NotPrepared, nullptr, stream::kNotInRuns, -1});
  for (size_t id = 0; id < functions.size(); ++id) {
    WordSlot& entry = word_slots_[id];
    entry.slot = functions.SlotOf(id);
    if (entry.slot < 0) continue;
    entry.array = stream::kWordArrayCalls[entry.slot];
    // Calls with an array travel in runs only where the client agreed to words-v2.
    entry.arguments = entry.array && !word_arrays_ ? stream::kNotInRuns : stream::WordCallArity(entry.slot);
    if (!handled_.empty()) {
      entry.prepared = handled_[entry.slot].prepared;
      entry.driver = handled_[entry.slot].driver;
    }
  }
  return word_slots_.data();
}

// Inline in both callers: it is most of what a handled call costs.
[[gnu::always_inline]] inline bool RecordDispatch::RunOneHandled(FastCall& call, std::span<const uint8_t> payload,
                                                                 uint32_t thread, uint64_t chunk) {
  if (!decoder_.BeginCall(payload, thread, chunk, &call.r, &call.head)) return false;
  const HandledSlot& slot = handled_[call.head.slot];
  if (slot.handler == nullptr || (call.head.flags & stream::wire::kCallWantsReply)) return false;
  slot.handler(call, slot.driver);
  if (call.refused) return false;
  call.KeepStreamContext();
  decoder_.TakeCall(call.head, call.start_ns);
  Ran(call.head.sequence, call.start_ns, call.duration_ns);
  return true;
}

bool RecordDispatch::CopyWithSlack(std::span<const uint8_t>* payload) {
  if (payload->size() > kCopiedAtMost) return false;
  if (slack_copy_.empty()) slack_copy_.resize(kCopiedAtMost + stream::SlackReader::kSlackBytes);
  if (!payload->empty()) std::memcpy(slack_copy_.data(), payload->data(), payload->size());
  *payload = {slack_copy_.data(), payload->size()};
  return true;
}

bool RecordDispatch::RunHandled(const stream::Record& record) {
  if (threads_ != HostThreads::kCaller && !runner_.RunsOnCaller(record.thread_id)) return false;
  std::span<const uint8_t> payload = record.payload;
  if (!WithSlack(&payload, record.readable_after)) return false;
  FastCall call(executor_, decoder_, record.thread_id);
  return RunOneHandled(call, payload, record.thread_id, record.chunk);
}

bool RecordDispatch::RunHandledIn(std::span<const uint8_t> records, size_t readable, size_t* at, uint32_t thread,
                                  uint64_t chunk, bool word_runs, std::string* error) {
  if (handled_.empty() || before_call || stopped_ ||
      (threads_ != HostThreads::kCaller && !runner_.RunsOnCaller(thread))) {
    return true;
  }
  readable = std::max(readable, records.size());
  // One FastCall (the thread and its context looked up once) for the run.
  FastCall call(executor_, decoder_, thread);
  size_t next = *at;
  bool ok = true;
  while (next < records.size()) {
    stream::Record record;
    size_t after = next;
    if (!stream::ReadRecordAt(records, &after, &record)) break;
    if (after + kPrefetchBytes < records.size()) __builtin_prefetch(records.data() + after + kPrefetchBytes);
    if (record.type == stream::RecordType::kWordRun && word_runs) {
      record.thread_id = thread;
      record.chunk = chunk;
      ok = RunWordRun(record, &call, error);
      if (!ok || stopped_) break;
      next = after;
      continue;
    }
    std::span<const uint8_t> payload = record.payload;
    if (record.type != stream::RecordType::kCall || !WithSlack(&payload, readable - after) ||
        !RunOneHandled(call, payload, thread, chunk)) {
      break;
    }
    next = after;
  }
  *at = next;
  return ok;
}

bool RecordDispatch::RunPrepared(const stream::Record& record, std::string* error) {
  const stream::PreparedRun& run = *record.prepared;
  const stream::PreparedCall* call = run.first();
  uint64_t left = run.count;  // at least one
  RunPreparedCalls(record, run.context, &call, &left);
  if (left == 0) [[likely]] {
    calls_ += run.count;
    last_sequence_ = run.last_sequence;
    first_start_ns_ = std::min(first_start_ns_, run.first_start_ns);
    last_end_ns_ = std::max(last_end_ns_, run.last_end_ns);
    decoder_.TakeCall(record.thread_id, record.chunk, run.last_sequence, run.last_start_ns);
    return true;
  }
  return FinishRun(record, call, left, error);
}

void RecordDispatch::RunPreparedCalls(const stream::Record& record, uint64_t context, const stream::PreparedCall** at,
                                      uint64_t* calls_left) {
  if (handled_.empty() || before_call || stopped_ ||
      (threads_ != HostThreads::kCaller && !runner_.RunsOnCaller(record.thread_id))) {
    return;
  }
  FastCall fast(executor_, decoder_, record.thread_id);
  fast.head.context = context;
  const HandledSlot* const handled = handled_.data();
  // Only `call` and `left` live across the handler's call: the loop the replay spends its time in.
  const stream::PreparedCall* call = *at;
  uint64_t left = *calls_left;
  do {
    const HandledSlot& slot = handled[call->slot];
    slot.prepared(fast, call->arguments(), slot.driver);
    if (fast.refused) [[unlikely]] break;
    call = call->next();
  } while (--left != 0);
  if (left != *calls_left) fast.KeepStreamContext();
  *at = call;
  *calls_left = left;
}

bool RecordDispatch::FinishRun(const stream::Record& record, const stream::PreparedCall* call, uint64_t left,
                               std::string* error) {
  const stream::PreparedRun& run = *record.prepared;
  // Counts the calls from `done` up to `call` that ran from their decoded
  // form, and leaves the decoder after the last, for the next record's deltas.
  auto count_ran = [&](const stream::PreparedCall* done) {
    const stream::PreparedCall* last = nullptr;
    for (; done != call; done = done->next()) {
      Ran(done->sequence, done->start_ns, done->duration_ns);
      last = done;
    }
    if (last != nullptr) decoder_.TakeCall(record.thread_id, record.chunk, last->sequence, last->start_ns);
  };
  count_ran(run.first());
  while (left != 0) {
    // The call no handler took runs from its record (Execute checks it, or
    // says why it cannot run); the run goes on from its decoded form after it.
    const stream::Record one{stream::RecordType::kCall, {call->record, call->record_size}, record.thread_id, record.chunk};
    if (!Dispatch(one, error)) return false;
    call = call->next();
    if (--left == 0) break;
    const stream::PreparedCall* resumed = call;
    RunPreparedCalls(record, run.context, &call, &left);
    count_ran(resumed);
  }
  return true;
}

__attribute__((hot)) bool RecordDispatch::RunWordRun(const stream::Record& record, FastCall* made, std::string* error) {
  stream::WordRunView run;
  if (!stream::ReadWordRunHead(record.payload, &run)) [[unlikely]] {
    *error = stream::WordRunHeadProblem(record.payload) + " (thread " + std::to_string(record.thread_id) + ")";
    return false;
  }
  const stream::FunctionTable& functions = decoder_.table();
  const WordSlot* const word_slots = WordSlots();
  const size_t known = word_slots_.size();  // at least 1: entry 0 stands in for ids past the end
  const bool handlers = !handled_.empty() && !before_call &&
                        (threads_ == HostThreads::kCaller || runner_.RunsOnCaller(record.thread_id));
  std::optional<FastCall> own;
  FastCall& fast = made != nullptr ? *made : own.emplace(executor_, decoder_, record.thread_id);
  fast.head.context = run.context;
  // The calls the handlers ran since the last one through Execute: counted
  // (Ran) and their stream context kept once, before the next one through
  // Execute and at the end.
  uint64_t handled = 0;
  uint64_t sequence = run.first_sequence;
  const auto count_handled = [&] {
    if (handled == 0) return;
    calls_ += handled - 1;
    Ran(sequence - 1, run.start_ns, 0);
    fast.KeepStreamContext();
    handled = 0;
  };
  if (stopped_) return true;
  for (const stream::PreparedWord* at = run.calls; at != run.end; ++sequence) {
    const uint64_t id = stream::WordCallFunction(*at);
    const WordSlot& entry = word_slots[id < known ? id : 0];
    const uint64_t words =
        id < known ? stream::WordCallLength(at, run.end, entry.arguments, entry.array) : stream::kNotInRuns;
    if (words == stream::kNotInRuns) [[unlikely]] {
      count_handled();
      *error = "word run, call " + std::to_string(sequence - run.first_sequence) + " (thread " + std::to_string(record.thread_id) +
               "): " + stream::WordCallProblem(at, run.end, functions.SlotOf(id), word_arrays_);
      return false;
    }
    const stream::PreparedWord* arguments = at + 1;
    at = arguments + words;
    if (handlers) [[likely]] {
      entry.prepared(fast, arguments, entry.driver);
      if (!fast.refused) [[likely]] {
        ++handled;
        continue;
      }
      fast.refused = false;
    }
    // No handler took it: decoded, it runs through Execute (and the hooks).
    count_handled();
    stream::DecodeWordCall(arguments - 1, entry.slot, functions.NameOf(id), sequence, record.thread_id, run, &call_);
    RunCall(record);
    if (stopped_) return true;  // only a hook of Execute's path stops the dispatch
  }
  count_handled();
  // A call record after the run counts its sequence and start from the run's last call.
  decoder_.TakeCall(record.thread_id, record.chunk, sequence - 1, run.start_ns);
  return true;
}

void RecordDispatch::RunCall(const stream::Record& record) {
  auto run = [&] {
    if (before_unhandled && !handled_.empty()) before_unhandled(call_);
    const CallAction action = before_call ? before_call(call_) : CallAction::kRun;
    if (action == CallAction::kStop) {
      stopped_ = true;
      return;
    }
    if (action == CallAction::kSkip) {
      ++skipped_;
      return;
    }
    const bool replied = (on_reply || after_call) && (!wants_reply || wants_reply(call_));
    const bool ran = replied ? executor_.Execute(call_, &reply_) : executor_.Execute(call_);
    if (replied && on_reply) on_reply(call_, reply_);
    if (ran && after_call) after_call(call_, replied ? &reply_ : nullptr);
  };
  // Most calls run on the dispatching thread: no std::function to build for them.
  if (threads_ == HostThreads::kCaller || runner_.RunsOnCaller(record.thread_id)) {
    run();
  } else {
    runner_.Run(record.thread_id, run);
  }
  if (stopped_) return;
  Ran(call_.sequence, call_.start_ns, call_.duration_ns);
}

bool RecordDispatch::TraceEvent(const stream::Record& record, std::string* error) {
  stream::ByteReader r(record.payload);
  std::string kind = r.String();
  bool ok = r.ok();
  if (kind == "config") {
    uint64_t config = 0;
    stream::EglAttributes attributes;
    ok = stream::DecodeConfigEvent(record.payload, &config, &attributes);
    if (ok) executor_.SetConfigFormat(config, std::move(attributes));
  } else if (kind == "surface") {
    uint64_t surface = 0, width = 0, height = 0;
    ok = stream::DecodeSurfaceEvent(record.payload, &surface, &width, &height);
    // A size no surface can have is left out: the executor keeps its default.
    // On the recorded thread: a resized stand-in is made current again where
    // the old one was current.
    if (ok && stream::PlausibleFramebufferSize(width, height)) {
      RunOn(record.thread_id,
            [&] { executor_.SetSurfaceSize(surface, static_cast<int>(width), static_cast<int>(height)); });
    }
  }
  // Other events (context strings, tracing switched) mean nothing to running the calls.
  if (!ok) *error = "malformed trace event record '" + kind.substr(0, 40) + "' (thread " + std::to_string(record.thread_id) + ")";
  return ok;
}

}  // namespace strata::host
