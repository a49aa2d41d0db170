#include "stream/call_preparer.h"

#include <algorithm>
#include <cstring>
#include <utility>

#include "stream/slack_reader.h"
#include "stream/wire.h"

namespace strata::stream {
namespace {

constexpr size_t kRunWords = sizeof(PreparedRun) / sizeof(PreparedWord);
constexpr size_t kCallWords = sizeof(PreparedCall) / sizeof(PreparedWord);

// The kinds a call kept decoded holds, one word each.
bool IsScalar(api::ArgKind kind) {
  switch (kind) {
    case api::ArgKind::kInt:
    case api::ArgKind::kUInt:
    case api::ArgKind::kEnum:
    case api::ArgKind::kBitfield:
    case api::ArgKind::kBoolean:
    case api::ArgKind::kFloat:
    case api::ArgKind::kDouble:
      return true;
    default:
      return false;
  }
}

}  // namespace

CallPreparer::CallPreparer(const FunctionTable& functions, std::function<bool(int slot)> wanted)
    : decoder_(functions), wanted_(std::move(wanted)), preparable_(api::kFunctionCount, -1) {
  decoder_.AcceptUnknownFunctions(true);
}

int8_t CallPreparer::WorkOutPreparable(int slot) const {
  const api::FunctionInfo& info = api::kFunctions[slot];
  return wanted_(slot) && (info.return_kind == api::ArgKind::kVoid || IsScalar(info.return_kind)) &&
         std::all_of(info.params, info.params + info.param_count, [](const api::ParamInfo& p) { return IsScalar(p.kind); });
}

void CallPreparer::Add(size_t index, RecordType type, uint32_t thread, uint64_t chunk, std::span<const uint8_t> payload,
                       PreparedWords* words, std::vector<Run>* runs, size_t word_budget, size_t readable_after) {
  if (type != RecordType::kCall || failed_) return Close(words, runs);
  if (run_records_ != 0 && (run_thread_ != thread || run_chunk_ != chunk || run_records_ == kMostRunRecords)) {
    Close(words, runs);
  }
  bool opens = run_records_ == 0;
  size_t mark = words->size();
  if (opens) words->Append(kRunWords);  // the run's head, written at its close
  uint64_t context = 0;
  const bool prepared = SlackReader::Fits(readable_after)
                            ? PrepareCall<SlackReader>(payload, thread, chunk, words, word_budget, &context)
                            : PrepareCall<ByteReader>(payload, thread, chunk, words, word_budget, &context);
  if (!prepared) {
    words->Truncate(mark);
    return Close(words, runs);
  }
  if (!opens && context != run_context_) {
    // Another context (one made current by a record not kept decoded
    // would have closed the run): the call opens a run of its own.
    const size_t call_words = words->size() - mark;
    Close(words, runs);
    words->Append(kRunWords);
    std::memmove(words->data() + mark + kRunWords, words->data() + mark, call_words * sizeof(PreparedWord));
    opens = true;
  }
  if (opens) {
    run_first_ = index;
    run_at_ = mark;
    run_thread_ = thread;
    run_chunk_ = chunk;
    run_context_ = context;
  }
  ++run_records_;
  ++prepared_;
}

void CallPreparer::Close(PreparedWords* words, std::vector<Run>* runs) {
  if (run_records_ == 0) return;
  PreparedRun run{run_records_, run_context_, UINT64_MAX, 0, 0, 0};
  const PreparedCall* call = reinterpret_cast<const PreparedRun*>(words->data() + run_at_)->first();
  for (size_t i = 0; i < run_records_; ++i, call = call->next()) {
    run.first_start_ns = std::min(run.first_start_ns, call->start_ns);
    run.last_end_ns = std::max(run.last_end_ns, call->start_ns + call->duration_ns);
    run.last_sequence = call->sequence;
    run.last_start_ns = call->start_ns;
  }
  std::memcpy(words->data() + run_at_, &run, sizeof run);
  runs->push_back({run_first_, run_records_, run_at_});
  run_records_ = 0;
}

template <class Reader>
bool CallPreparer::PrepareCall(std::span<const uint8_t> payload, uint32_t thread, uint64_t chunk,
                               PreparedWords* words, size_t word_budget, uint64_t* context) {
  // Any call not prepared is decoded all the same: the thread's next call follows from it.
  auto decode_only = [&] {
    if (!decoder_.Decode(payload, thread, chunk, &call_, &error_)) failed_ = true;
    return false;
  };
  Reader r{{}};
  CallDecoder::CallHead head;
  if (!decoder_.BeginCall(payload, thread, chunk, &r, &head)) return decode_only();
  const api::FunctionInfo& info = api::kFunctions[head.slot];
  if ((head.flags & wire::kCallWantsReply) || !Preparable(head.slot) ||
      words->size() + kCallWords + info.param_count > word_budget) {
    return decode_only();
  }
  const size_t at = words->size();
  PreparedWord* word = words->Append(kCallWords + info.param_count) + kCallWords;
  for (int i = 0; i < info.param_count; ++i, ++word) {
    switch (info.params[i].kind) {
      case api::ArgKind::kInt: word->i = r.Zigzag(); break;
      case api::ArgKind::kFloat: word->f = r.Float(); break;
      case api::ArgKind::kDouble: word->d = r.Double(); break;
      default: word->u = r.Varint(); break;
    }
  }
  uint64_t start_ns = 0, duration_ns = 0;
  if (!decoder_.EndCall(r, head, info.return_kind, &start_ns, &duration_ns)) {
    words->Truncate(at);
    return decode_only();  // which says what is wrong with it
  }
  decoder_.TakeCall(head, start_ns);
  *context = head.context;
  const PreparedCall call{head.slot, static_cast<uint32_t>(info.param_count), head.sequence, start_ns, duration_ns,
                          payload.data(), payload.size()};
  std::memcpy(words->data() + at, &call, sizeof call);
  return true;
}

}  // namespace strata::stream
