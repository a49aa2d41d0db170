#pragma once
// A record source read on a thread of its own: while the caller runs one
// batch of records, the next ones are read, decompressed and put in call
// order (a trace file's OrderedRecordReader) on the other core. A batch
// holds on to the source's chunk buffers where the source lets it
// (PayloadOwner) and copies the payloads only where it does not; a payload
// stays valid until the next Next(), as any RecordSource promises. Asked to,
// it also keeps the calls with scalar arguments decoded (CallPreparer), so
// that decoding them is done on the reading core too: a run of them comes as
// one record (Record::prepared). It does so chunk by chunk while the caller
// is the busier thread (it has batches waiting), and leaves the decoding to
// the caller while this thread is (cheap calls, whose records take longer
// to read than to run).

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "stream/call_preparer.h"
#include "stream/prepared_call.h"
#include "stream/record_source.h"
#include "stream/slack_reader.h"

namespace strata::stream {

class OrderedRecordReader;

class ReadAhead final : public RecordSource {
 public:
  // Starts reading `source` at once; it must not be used elsewhere until
  // this is destroyed (which stops the reading).
  explicit ReadAhead(RecordSource& source);
  // Which chunks' calls the reading thread decodes.
  enum class Decoding {
    kWhileCallerIsBusier,  // a chunk's where the caller has batches waiting as it starts
    kEveryChunk,
  };
  // The same, keeping the calls of the slots `wanted` names decoded, the
  // source's function ids being `functions` (which must outlive this).
  ReadAhead(RecordSource& source, const FunctionTable& functions, std::function<bool(int slot)> wanted,
            Decoding decoding = Decoding::kWhileCallerIsBusier);
  ~ReadAhead() override;
  ReadAhead(const ReadAhead&) = delete;
  ReadAhead& operator=(const ReadAhead&) = delete;

  bool Next(Record* record) override {
    if (next_ == end_) return NextBatch(record);
    // The batch was written on the reading thread's core: ask for the
    // entries and payload a few records ahead now, so that the caller does
    // not wait for each cache line as it gets there (most of this
    // function's time, and of the decoder's first reads, without it).
    // Entries twice as far ahead as payloads: an entry's line is in the
    // cache by the time its payload's address is read from it.
    if (end_ - next_ > 2 * kPrefetchRecords) __builtin_prefetch(next_ + 2 * kPrefetchRecords);
    if (end_ - next_ > kPrefetchRecords) __builtin_prefetch(next_[kPrefetchRecords].data);
    const Entry& e = *next_;
    record->type = e.type;
    record->thread_id = e.thread_id;
    record->chunk = e.chunk;
    record->payload = std::span<const uint8_t>(e.data, e.size);
    record->readable_after = ReadableAfter(e);
    if (e.run_records == 0) {
      record->prepared = nullptr;
      ++next_;
    } else {  // a run: its records are the run's
      record->prepared = reinterpret_cast<const PreparedRun*>(current_->prepared.data() + e.prepared_at);
      next_ += e.run_records;
    }
    return true;
  }
  const std::string& error() const override { return error_; }
  bool truncated() const override { return truncated_; }

 private:
  struct Entry {
    RecordType type;
    bool copied;  // into the batch's bytes, at `offset`; else the source's, at `data`
    uint32_t thread_id;
    uint64_t chunk;
    const uint8_t* data;
    size_t offset, size;
    // The first record of a run of calls kept decoded: how many records it
    // spans (0: none) and its first word in the batch's `prepared`.
    uint32_t run_records;
    size_t prepared_at;
  };
  // A batch: big enough that handing it over costs nothing per record, small
  // enough that the first records arrive at once and few batches are held.
  static constexpr size_t kBatchBytes = 1 << 20;
  static constexpr size_t kBatchRecords = 4096;
  struct Batch {
    std::vector<uint8_t> bytes;  // payloads copied (their source keeps none)
    std::vector<std::shared_ptr<const void>> owners;  // what keeps the other payloads valid (or null)
    std::vector<uint64_t> owned_chunks;               // the chunk of each of `owners`
    // kBatchRecords of them, the first `records` filled (made once: no capacity checked per record).
    std::vector<Entry> entries = std::vector<Entry>(kBatchRecords);
    size_t records = 0;
    PreparedWords prepared;  // its runs of calls kept decoded
    std::vector<CallPreparer::Run> runs;
    bool last = false;  // the source ended after this batch
  };
  // How far ahead of the record handed out the next ones are fetched into the cache.
  static constexpr ptrdiff_t kPrefetchRecords = 8;
  // The bytes readable after an entry's payload: copies have the batch's
  // slack after them, the source's records its own (PayloadSlack).
  size_t ReadableAfter(const Entry& e) const { return e.copied ? SlackReader::kSlackBytes : source_slack_; }
  // Next() at the end of a batch: the next batch, waited for.
  bool NextBatch(Record* record);
  void Read();
  // Reads the next records from `source` into `batch` (its entries and the
  // bytes of those it copies); false once the source has no more. A
  // template, so that a trace file's reader is called directly, its Next()
  // inline in the loop.
  template <class Source>
  bool Fill(Source& source, Batch& batch);
  // Keeps the batch's calls decoded where they can be (preparer_), chunk by
  // chunk while the caller has batches waiting.
  void Prepare(Batch& batch);
  // Whether the calls of `chunk` are decoded here: decided at its first
  // record (DecideChunk), kept for all of them.
  bool PreparesChunk(uint64_t chunk) {
    if (decoding_ == Decoding::kEveryChunk) return true;
    if (chunk == decided_chunk_) [[likely]] return prepares_decided_;
    return DecideChunk(chunk);
  }
  bool DecideChunk(uint64_t chunk);
  // Whether `batch` holds `chunk`'s buffer (asking the source the first time): its records need no copy.
  bool Hold(Batch& batch, uint64_t chunk);

  RecordSource& source_;
  OrderedRecordReader* const ordered_;  // source_, where it is a trace file's reader (else null)
  std::unique_ptr<CallPreparer> preparer_;  // used on the reading thread only; null: nothing is prepared
  Decoding decoding_ = Decoding::kEveryChunk;
  std::unordered_map<uint64_t, bool> chunk_prepared_;  // by chunk, whether its calls are (reading thread only)
  uint64_t decided_chunk_ = UINT64_MAX;                // the last chunk asked about, and its answer
  bool prepares_decided_ = false;
  size_t source_slack_ = 0;  // source_.PayloadSlack()
  std::mutex mu_;
  std::condition_variable ready_, room_;
  std::deque<std::unique_ptr<Batch>> full_;  // read, not yet handed out
  std::vector<std::unique_ptr<Batch>> spare_;  // handed out, for reuse
  bool stopping_ = false;
  std::unique_ptr<Batch> current_;  // the batch Next() hands out from
  const Entry* next_ = nullptr;      // its next entry to hand out
  const Entry* end_ = nullptr;
  bool ended_ = false;
  std::string error_;
  bool truncated_ = false;
  std::string source_error_;
  bool source_truncated_ = false;
  std::thread reader_;
};

}  // namespace strata::stream
