#include "stream/record_store.h"

#include <algorithm>
#include <cstring>

namespace strata::stream {

void RecordStore::Keep(const Record& record) {
  if (overflowed_) return;
  const size_t size = record.payload.size();
  if (kept_bytes_ + size > budget_) {
    overflowed_ = true;
    blocks_.clear();
    entries_.clear();
    entries_.shrink_to_fit();
    kept_bytes_ = block_used_ = block_size_ = 0;
    return;
  }
  if (block_size_ - block_used_ < size) {
    // A new block; a payload larger than a block gets one of its own size.
    block_size_ = std::max(kBlockBytes, size);
    blocks_.push_back(std::make_unique_for_overwrite<uint8_t[]>(block_size_));
    block_used_ = 0;
  }
  uint8_t* data = blocks_.back().get() + block_used_;
  if (size != 0) std::memcpy(data, record.payload.data(), size);
  block_used_ += size;
  kept_bytes_ += size;
  entries_.push_back({record.type, record.thread_id, record.chunk, data, size});
}

void RecordStore::End(const std::string& error, bool truncated) {
  end_error_ = error;
  end_truncated_ = truncated;
}

bool StoredRecords::Next(Record* record) {
  if (at_ >= store_.entries_.size()) {
    at_end_ = true;
    return false;
  }
  const RecordStore::Entry& e = store_.entries_[at_++];
  record->type = e.type;
  record->thread_id = e.thread_id;
  record->chunk = e.chunk;
  record->payload = {e.data, e.size};
  return true;
}

bool KeepingSource::Next(Record* record) {
  if (!source_.Next(record)) {
    ended_ = true;
    store_.End(source_.error(), source_.truncated());
    return false;
  }
  store_.Keep(*record);
  return true;
}

}  // namespace strata::stream
