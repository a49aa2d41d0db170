#include "stream/record_store.h"

#include <algorithm>
#include <cstring>

#include "stream/call_preparer.h"

namespace strata::stream {

void RecordStore::Keep(const Record& record) {
  if (overflowed_) return;
  const size_t size = record.payload.size();
  if (held_bytes() + size + sizeof(Entry) > budget_ || size > UINT32_MAX) {
    overflowed_ = true;
    blocks_.clear();
    entries_.clear();
    entries_.ShrinkToFit();
    kept_bytes_ = block_used_ = block_size_ = 0;
    return;
  }
  uint8_t* data = nullptr;  // an empty payload (a frame's end, say) needs no block, not even a first one
  if (size != 0) {
    if (block_size_ - block_used_ < size) {
      // A new block; a payload larger than a block gets one of its own
      // size. The slack after it is not counted against the budget (480
      // bytes a block of 16 MiB).
      block_size_ = std::max(kBlockBytes, size);
      blocks_.push_back(std::make_unique_for_overwrite<uint8_t[]>(block_size_ + SlackReader::kSlackBytes));
      block_used_ = 0;
    }
    data = blocks_.back().get() + block_used_;
    std::memcpy(data, record.payload.data(), size);
    block_used_ += size;
    kept_bytes_ += size;
  }
  entries_.push_back({data, record.chunk, kNotPrepared, static_cast<uint32_t>(size), record.thread_id, 0, record.type});
}

size_t RecordStore::PrepareCalls(const FunctionTable& functions, const std::function<bool(int slot)>& wanted) {
  prepared_.Clear();
  for (Entry& e : entries_) e.prepared_at = kNotPrepared;
  CallPreparer preparer(functions, wanted);
  std::vector<CallPreparer::Run> runs;
  const size_t word_budget = budget_ > held_bytes() ? (budget_ - held_bytes()) / sizeof(PreparedWord) : 0;
  for (size_t index = 0; index < entries_.size(); ++index) {
    const Entry& e = entries_[index];
    Record record{e.type, {e.data, e.size}, e.thread_id, e.chunk};
    record.readable_after = ReadableAfter(e);
    preparer.Add(index, record, &prepared_, &runs, word_budget);
  }
  preparer.Close(&prepared_, &runs);
  for (const CallPreparer::Run& run : runs) {
    entries_[run.first_record].prepared_at = run.at;
    entries_[run.first_record].run_records = static_cast<uint32_t>(run.records);
  }
  prepared_.ShrinkToFit();
  return preparer.prepared();
}

void RecordStore::End(const std::string& error, bool truncated) {
  end_error_ = error;
  end_truncated_ = truncated;
}

bool KeepingSource::Next(Record* record) {
  if (!source_.Next(record)) {
    ended_ = true;
    store_.End(source_.error(), source_.truncated());
    return false;
  }
  if (record->prepared == nullptr) {
    store_.Keep(*record);
    return true;
  }
  // A run of calls kept decoded by the source: each of its records.
  const PreparedCall* call = record->prepared->first();
  for (uint64_t i = 0; i < record->prepared->count; ++i, call = call->next()) {
    store_.Keep({RecordType::kCall, {call->record, call->record_size}, record->thread_id, record->chunk});
  }
  return true;
}

}  // namespace strata::stream
