#pragma once
// Records kept in memory, to be read again: `strata replay --loop N` keeps
// what its first pass read (KeepingSource) and runs the later passes from
// here (StoredRecords), with no file, decompression or ordering, so that a
// loop measures the driver and the executor, not the reader. Payloads live in
// blocks that never move, so a record's bytes stay valid for the store's life.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "stream/record_reader.h"
#include "stream/record_source.h"

namespace strata::stream {

class RecordStore {
 public:
  // Keeps at most `budget_bytes` of payloads.
  explicit RecordStore(size_t budget_bytes) : budget_(budget_bytes) {}

  // Keeps a copy of `record`; once the budget would be passed the store
  // empties itself and keeps nothing more (overflowed()).
  void Keep(const Record& record);
  // The source's end: how its records stopped (a clean end: empty).
  void End(const std::string& error, bool truncated);

  bool overflowed() const { return overflowed_; }
  size_t payload_bytes() const { return kept_bytes_; }
  size_t budget() const { return budget_; }

 private:
  friend class StoredRecords;
  struct Entry {
    RecordType type;
    uint32_t thread_id;
    uint64_t chunk;
    const uint8_t* data;
    size_t size;
  };
  static constexpr size_t kBlockBytes = size_t{16} << 20;

  size_t budget_;
  size_t kept_bytes_ = 0;
  bool overflowed_ = false;
  std::vector<std::unique_ptr<uint8_t[]>> blocks_;
  size_t block_used_ = 0, block_size_ = 0;  // of the last block
  std::vector<Entry> entries_;
  std::string end_error_;
  bool end_truncated_ = false;
};

// The records of a store, from its first, ending as its source ended.
class StoredRecords final : public RecordSource {
 public:
  explicit StoredRecords(const RecordStore& store) : store_(store) {}
  bool Next(Record* record) override;
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
