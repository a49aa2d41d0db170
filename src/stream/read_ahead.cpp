#include "stream/read_ahead.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "stream/ordered_reader.h"

namespace strata::stream {
namespace {

constexpr size_t kBatchesAhead = 4;
// Batches read and waiting for the caller when a chunk starts, from which on
// the reading thread decodes that chunk's calls too (PreparesChunk).
constexpr size_t kBatchesWaitingToPrepare = 2;

}  // namespace

ReadAhead::ReadAhead(RecordSource& source)
    : source_(source), ordered_(dynamic_cast<OrderedRecordReader*>(&source)), source_slack_(source.PayloadSlack()),
      reader_([this] { Read(); }) {}

ReadAhead::ReadAhead(RecordSource& source, const FunctionTable& functions, std::function<bool(int slot)> wanted,
                     Decoding decoding)
    : source_(source), ordered_(dynamic_cast<OrderedRecordReader*>(&source)),
      preparer_(std::make_unique<CallPreparer>(functions, wanted)), decoding_(decoding),
      source_slack_(source.PayloadSlack()), reader_([this] { Read(); }) {}

ReadAhead::~ReadAhead() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  room_.notify_all();
  reader_.join();
}

template <class Source>
bool ReadAhead::Fill(Source& source, Batch& batch) {
  Record record;
  size_t payload_bytes = 0;
  uint64_t chunk = UINT64_MAX;  // the chunk of the record before
  bool owned = false;           // and whether the batch holds it
  Entry* const entries = batch.entries.data();
  size_t count = 0;
  bool more = true;
  while (payload_bytes < kBatchBytes && count < kBatchRecords) {
    if (!source.Next(&record)) {
      more = false;
      break;
    }
    if (record.chunk != chunk) {
      chunk = record.chunk;
      owned = Hold(batch, chunk);
    }
    payload_bytes += record.payload.size();
    if (owned) {
      entries[count++] = {record.type, false, record.thread_id, record.chunk, record.payload.data(), 0,
                          record.payload.size(), 0, 0};
    } else {
      const size_t offset = batch.bytes.size();
      batch.bytes.insert(batch.bytes.end(), record.payload.begin(), record.payload.end());
      entries[count++] = {record.type, true, record.thread_id, record.chunk, nullptr, offset, record.payload.size(), 0, 0};
    }
  }
  batch.records = count;
  return more;
}

void ReadAhead::Read() {
  bool more = true;
  while (more) {
    std::unique_ptr<Batch> batch;
    {
      std::unique_lock<std::mutex> lock(mu_);
      room_.wait(lock, [this] { return stopping_ || full_.size() < kBatchesAhead; });
      if (stopping_) return;
      if (!spare_.empty()) {
        batch = std::move(spare_.back());
        spare_.pop_back();
      }
    }
    if (!batch) batch = std::make_unique<Batch>();
    batch->bytes.clear();
    batch->owners.clear();
    batch->owned_chunks.clear();
    batch->records = 0;
    batch->prepared.Clear();
    batch->runs.clear();
    batch->last = false;
    more = ordered_ != nullptr ? Fill(*ordered_, *batch) : Fill(source_, *batch);
    Entry* const entries = batch->entries.data();
    const size_t count = batch->records;
    // The copies' addresses are known once the bytes stop growing; the
    // slack after them lets the preparer read them in place.
    batch->bytes.resize(batch->bytes.size() + SlackReader::kSlackBytes);
    for (size_t i = 0; i < count; ++i) {
      if (entries[i].copied) entries[i].data = batch->bytes.data() + entries[i].offset;
    }
    if (preparer_) Prepare(*batch);
    std::lock_guard<std::mutex> lock(mu_);
    if (!more) {
      batch->last = true;
      source_error_ = source_.error();
      source_truncated_ = source_.truncated();
    }
    full_.push_back(std::move(batch));
    ready_.notify_one();
  }
}

bool ReadAhead::DecideChunk(uint64_t chunk) {
  auto [decision, made] = chunk_prepared_.try_emplace(chunk, false);
  if (made) {
    // Decoding the calls here pays where the caller, busy with the driver,
    // has batches waiting; where it waits for this thread, this thread is
    // the one to spare, and the caller decodes the records itself.
    std::lock_guard<std::mutex> lock(mu_);
    decision->second = full_.size() >= kBatchesWaitingToPrepare;
  }
  decided_chunk_ = chunk;
  prepares_decided_ = decision->second;
  return prepares_decided_;
}

void ReadAhead::Prepare(Batch& batch) {
  // Runs end with the batch: a run's records are handed out together.
  for (size_t i = 0; i < batch.records; ++i) {
    const Entry& e = batch.entries[i];
    // Whole chunks or none: a thread's first call of a chunk carries its
    // numbers whole, the others as deltas from the call before, so the
    // preparer's decoder may skip chunks but not part of one.
    if (!PreparesChunk(e.chunk)) {
      preparer_->Close(&batch.prepared, &batch.runs);
      continue;
    }
    Record record{e.type, {e.data, e.size}, e.thread_id, e.chunk};
    record.readable_after = ReadableAfter(e);
    preparer_->Add(i, record, &batch.prepared, &batch.runs);
  }
  preparer_->Close(&batch.prepared, &batch.runs);
  for (const CallPreparer::Run& run : batch.runs) {
    Entry& first = batch.entries[run.first_record];
    first.run_records = static_cast<uint32_t>(run.records);
    first.prepared_at = run.at;
  }
}

// Out of line: it runs once per chunk, and inlined it kept the per-record
// loop around it from inlining its own appends.
[[gnu::noinline]] bool ReadAhead::Hold(Batch& batch, uint64_t chunk) {
  // Threads' chunks interleave: the source is asked once per chunk and batch.
  auto known = std::find(batch.owned_chunks.begin(), batch.owned_chunks.end(), chunk);
  if (known == batch.owned_chunks.end()) {
    batch.owned_chunks.push_back(chunk);
    batch.owners.push_back(source_.PayloadOwner(chunk));
    known = batch.owned_chunks.end() - 1;
  }
  return batch.owners[static_cast<size_t>(known - batch.owned_chunks.begin())] != nullptr;
}

bool ReadAhead::NextBatch(Record* record) {
  while (next_ == end_) {
    if (ended_) return false;
    // The source's chunk buffers go back to it as soon as their records are used.
    if (current_) {
      current_->owners.clear();
      current_->owned_chunks.clear();
    }
    std::unique_lock<std::mutex> lock(mu_);
    if (current_) {
      if (current_->last) {
        ended_ = true;
        error_ = source_error_;
        truncated_ = source_truncated_;
        current_.reset();
        return false;
      }
      spare_.push_back(std::move(current_));
      room_.notify_one();
    }
    ready_.wait(lock, [this] { return !full_.empty(); });
    current_ = std::move(full_.front());
    full_.pop_front();
    next_ = current_->entries.data();
    end_ = next_ + current_->records;
  }
  return Next(record);
}

}  // namespace strata::stream
