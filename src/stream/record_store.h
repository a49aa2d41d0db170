#pragma once
// Records kept in memory, to be read again: `strata replay --loop N` keeps
// what its first pass read (KeepingSource) and runs the later passes from
// here (StoredRecords), with no file, decompression or ordering, so that a
// loop measures the driver and the executor, not the reader. Payloads live in
// blocks that never move, so a record's bytes stay valid for the store's life,
// each block with SlackReader's slack after its last payload, so that every
// payload is read in place without a check per value.
// Calls with scalar arguments only can be kept decoded too (PrepareCalls):
// each such record then comes with its PreparedCall.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "common/growing_array.h"
#include "stream/record_reader.h"
#include "stream/record_source.h"
#include "stream/slack_reader.h"

namespace strata::stream {

class RecordStore {
 public:
  // Keeps at most `budget_bytes`: the payloads, an entry a record, and the
  // calls kept decoded.
  explicit RecordStore(size_t budget_bytes) : budget_(budget_bytes) {}

  // Keeps a copy of `record`; once the budget would be passed (or a payload
  // is 4 GiB or more) the store empties itself and keeps nothing more
  // (overflowed()).
  void Keep(const Record& record);
  // The source's end: how its records stopped (a clean end: empty).
  void End(const std::string& error, bool truncated);

  // Decodes once, as `functions` says the stream's ids are, the call
  // records of the slots `wanted` names whose arguments are all scalars and
  // that want no reply, and keeps them decoded beside their records, as far
  // as the budget allows (what does not fit stays a record only), in runs
  // (stream/prepared_call.h): StoredRecords then hands out each run as one
  // record. A record that does not decode ends the preparing there: its
  // replay reports it. Returns the number of calls prepared.
  size_t PrepareCalls(const FunctionTable& functions, const std::function<bool(int slot)>& wanted);

  bool overflowed() const { return overflowed_; }
  size_t payload_bytes() const { return kept_bytes_; }
  // What the records take against the budget: payloads and an entry each.
  size_t held_bytes() const { return kept_bytes_ + entries_.size() * sizeof(Entry); }
  size_t prepared_bytes() const { return prepared_.size() * sizeof(PreparedWord); }
  size_t budget() const { return budget_; }

 private:
  friend class StoredRecords;
  // One a record: a preloaded trace of small calls has tens of millions.
  struct Entry {
    const uint8_t* data;
    uint64_t chunk;
    // The first record of a run of calls kept decoded: the run's first word
    // in prepared_, and how many records it spans (kNotPrepared: none).
    size_t prepared_at;
    uint32_t size;
    uint32_t thread_id;
    uint32_t run_records;
    RecordType type;
  };
  static_assert(sizeof(Entry) == 40);
  // The bytes readable after an entry's payload, at least: the payloads
  // after it in its block, then the block's slack (none for an empty payload, which has no block).
  static size_t ReadableAfter(const Entry& e) { return e.data != nullptr ? SlackReader::kSlackBytes : 0; }
  static constexpr size_t kNotPrepared = SIZE_MAX;
  static constexpr size_t kBlockBytes = size_t{16} << 20;

  size_t budget_;
  size_t kept_bytes_ = 0;
  bool overflowed_ = false;
  std::vector<std::unique_ptr<uint8_t[]>> blocks_;
  size_t block_used_ = 0, block_size_ = 0;  // of the last block
  GrowingArray<Entry> entries_;
  PreparedWords prepared_;  // runs: a PreparedRun, then its PreparedCalls, each with its arguments
  std::string end_error_;
  bool end_truncated_ = false;
};

// The records of a store, from its first, ending as its source ended; a run
// of calls kept decoded comes as one record (Record::prepared), whose payload
// is its first call's.
class StoredRecords final : public RecordSource {
 public:
  explicit StoredRecords(const RecordStore& store) : store_(store) {}
  // Inline: a loop over the store is the replay at its fastest.
  bool Next(Record* record) override {
    if (at_ == store_.entries_.size()) [[unlikely]] {
      at_end_ = true;
      return false;
    }
    const RecordStore::Entry& e = store_.entries_[at_];
    record->type = e.type;
    record->thread_id = e.thread_id;
    record->chunk = e.chunk;
    record->payload = {e.data, e.size};
    record->readable_after = RecordStore::ReadableAfter(e);
    if (e.prepared_at == RecordStore::kNotPrepared) {
      record->prepared = nullptr;
      ++at_;
    } else {  // a run: its records are the run's
      record->prepared = reinterpret_cast<const PreparedRun*>(store_.prepared_.data() + e.prepared_at);
      at_ += e.run_records;
    }
    return true;
  }
  const std::string& error() const override { return at_end_ ? store_.end_error_ : no_error_; }
  bool truncated() const override { return at_end_ && store_.end_truncated_; }

 private:
  const RecordStore& store_;
  size_t at_ = 0;
  bool at_end_ = false;
  std::string no_error_;
};

// Hands on another source's records, keeping each in `store` on the way.
class KeepingSource final : public RecordSource {
 public:
  KeepingSource(RecordSource& source, RecordStore& store) : source_(source), store_(store) {}
  bool Next(Record* record) override;
  const std::string& error() const override { return source_.error(); }
  bool truncated() const override { return source_.truncated(); }
  // The source ran to its end (not only as far as the pass read it).
  bool ended() const { return ended_; }

 private:
  RecordSource& source_;
  RecordStore& store_;
  bool ended_ = false;
};

}  // namespace strata::stream
