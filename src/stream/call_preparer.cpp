#include "stream/call_preparer.h"

#include <algorithm>
#include <cstring>
#include <new>

#include "stream/slack_reader.h"
#include "stream/word_readers.h"
#include "stream/wire.h"
#include "stream/word_run.h"

namespace strata::stream {
namespace {

constexpr size_t kRunWords = sizeof(PreparedRun) / sizeof(PreparedWord);
constexpr size_t kCallWords = sizeof(PreparedCall) / sizeof(PreparedWord);

// A call's scalar arguments into `word` on, each read with a bound check
// (`slot`'s parameters in turn)...
[[gnu::always_inline]] inline void ReadArguments(ByteReader& r, int slot, WordReader, PreparedWord* word) {
  const api::FunctionInfo& info = api::kFunctions[slot];
  for (int i = 0; i < info.param_count; ++i, ++word) {
    switch (info.params[i].kind) {
      case api::ArgKind::kInt: word->i = r.Zigzag(); break;
      case api::ArgKind::kFloat: word->f = r.Float(); break;
      case api::ArgKind::kDouble: word->d = r.Double(); break;
      default: word->u = r.Varint(); break;
    }
  }
}
// ... or without, by the function's generated `reader`.
[[gnu::always_inline]] inline void ReadArguments(SlackReader& r, int, WordReader reader, PreparedWord* word) {
  bool bad = false;
  r.MoveTo(reader(r.position(), word, bad));
  if (bad) [[unlikely]] r.Fail();
}

}  // namespace

CallPreparer::CallPreparer(const FunctionTable& functions, const std::function<bool(int slot)>& wanted)
    : decoder_(functions), readers_(api::kFunctionCount) {
  decoder_.AcceptUnknownFunctions(true);
  for (int slot = 0; slot < api::kFunctionCount; ++slot) {
    if (kWordReaders[slot] != nullptr && wanted(slot)) readers_[slot] = kWordReaders[slot];
  }
}

bool CallPreparer::DecodeOnly(std::span<const uint8_t> payload, uint32_t thread, uint64_t chunk) {
  if (!decoder_.Decode(payload, thread, chunk, &call_, &error_)) failed_ = true;
  return false;
}

template <class Reader>
inline bool CallPreparer::PrepareCall(std::span<const uint8_t> payload, uint32_t thread, uint64_t chunk,
                                      PreparedWords* words, size_t word_budget, uint64_t* context) {
  Reader r{{}};
  CallDecoder::CallHead head;
  if (!decoder_.BeginCall(payload, thread, chunk, &r, &head)) [[unlikely]] return DecodeOnly(payload, thread, chunk);
  const WordReader reader = readers_[head.slot];
  const api::FunctionInfo& info = api::kFunctions[head.slot];
  if (reader == nullptr || (head.flags & wire::kCallWantsReply) ||
      words->size() + kCallWords + info.param_count > word_budget) {
    return DecodeOnly(payload, thread, chunk);
  }
  const size_t at = words->size();
  PreparedWord* word = words->Append(kCallWords + info.param_count) + kCallWords;
  ReadArguments(r, head.slot, reader, word);
  uint64_t start_ns = 0, duration_ns = 0;
  // A record cut short or with bytes left over: DecodeOnly says what is wrong with it.
  if (!decoder_.EndCall(r, head, info.return_kind, &start_ns, &duration_ns)) [[unlikely]] {
    words->Truncate(at);
    return DecodeOnly(payload, thread, chunk);
  }
  decoder_.TakeCall(head, start_ns);
  *context = head.context;
  new (words->data() + at) PreparedCall{head.slot, info.param_count, head.sequence, start_ns, duration_ns,
                                        payload.data(), payload.size()};
  return true;
}

void CallPreparer::OpenRun(size_t index, size_t at, uint32_t thread, uint64_t chunk, uint64_t context) {
  run_first_ = index;
  run_at_ = at;
  run_thread_ = thread;
  run_chunk_ = chunk;
  run_ = PreparedRun{0, context, UINT64_MAX, 0, 0, 0};
}

void CallPreparer::Add(size_t index, const Record& record, PreparedWords* words, std::vector<Run>* runs,
                       size_t word_budget) {
  const uint32_t thread = record.thread_id;
  const uint64_t chunk = record.chunk;
  if (record.type == RecordType::kWordRun && !failed_) FollowWordRun(record);
  if (record.type != RecordType::kCall || failed_) return Close(words, runs);
  if (run_records_ != 0 && (run_thread_ != thread || run_chunk_ != chunk || run_records_ == kMostRunRecords)) {
    Close(words, runs);
  }
  bool opens = run_records_ == 0;
  size_t mark = words->size();
  if (opens) words->Append(kRunWords);  // the run's head, written at its close
  uint64_t context = 0;
  const bool prepared = SlackReader::Fits(record.readable_after)
                            ? PrepareCall<SlackReader>(record.payload, thread, chunk, words, word_budget, &context)
                            : PrepareCall<ByteReader>(record.payload, thread, chunk, words, word_budget, &context);
  if (!prepared) {
    words->Truncate(mark);
    return Close(words, runs);
  }
  if (!opens && context != run_.context) [[unlikely]] {
    // Another context (one made current by a record not kept decoded
    // would have closed the run): the call opens a run of its own.
    const size_t call_words = words->size() - mark;
    Close(words, runs);
    words->Append(kRunWords);
    std::memmove(words->data() + mark + kRunWords, words->data() + mark, call_words * sizeof(PreparedWord));
    opens = true;
  }
  if (opens) OpenRun(index, mark, thread, chunk, context);
  // The call follows the run's head where it opens one.
  const PreparedCall& call = *reinterpret_cast<const PreparedCall*>(words->data() + mark + (opens ? kRunWords : 0));
  run_.first_start_ns = std::min(run_.first_start_ns, call.start_ns);
  run_.last_end_ns = std::max(run_.last_end_ns, call.start_ns + call.duration_ns);
  run_.last_sequence = call.sequence;
  run_.last_start_ns = call.start_ns;
  ++run_records_;
  ++prepared_;
}

void CallPreparer::FollowWordRun(const Record& record) {
  WordRunView run;
  uint64_t last = 0;
  // A malformed run: the dispatch says why when it gets there, and nothing after it runs.
  if (!ReadWordRunHead(record.payload, &run) || !LastWordCallSequence(run, &last)) {
    failed_ = true;
    return;
  }
  decoder_.TakeCall(record.thread_id, record.chunk, last, run.start_ns);
}

void CallPreparer::Close(PreparedWords* words, std::vector<Run>* runs) {
  if (run_records_ == 0) return;
  run_.count = run_records_;
  std::memcpy(words->data() + run_at_, &run_, sizeof run_);
  runs->push_back({run_first_, run_records_, run_at_});
  run_records_ = 0;
}

}  // namespace strata::stream
