// ReadAhead hands out exactly the records of its source, in order, with
// their bytes, across many batches, whether it holds the source's chunk
// buffers or copies the payloads; it lets go of the buffers once their
// records are used; the source's error and truncation come out once its
// records are used up; a reader stopped early does not hang; asked to, it
// hands out runs of calls kept decoded that stand for exactly the records,
// and left to choose, decodes whole chunks where the caller is the busier.
#include "stream/read_ahead.h"

#include <GLES2/gl2.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "stream/call_encoder.h"
#include "strata/api/functions.h"

namespace {

using strata::stream::ReadAhead;
using strata::stream::Record;
using strata::stream::RecordType;

// Records of growing size whose bytes say which record they are.
class CountingSource final : public strata::stream::RecordSource {
 public:
  CountingSource(size_t count, std::string error, bool truncated)
      : count_(count), error_(std::move(error)), truncated_(truncated) {}
  bool Next(Record* record) override {
    if (next_ == count_) {
      done_error_ = error_;
      return false;
    }
    payload_.assign(next_ % 3000, static_cast<uint8_t>(next_ & 0xff));
    record->type = next_ % 2 ? RecordType::kCall : RecordType::kMemory;
    record->thread_id = static_cast<uint32_t>(next_ % 5);
    record->chunk = next_ / 100;
    record->payload = payload_;
    ++next_;
    return true;
  }
  const std::string& error() const override { return done_error_; }
  bool truncated() const override { return truncated_ && next_ == count_; }

 private:
  size_t count_, next_ = 0;
  std::string error_, done_error_;
  bool truncated_;
  std::vector<uint8_t> payload_;
};

TEST(ReadAhead, HandsOutEveryRecordInOrder) {
  CountingSource source(20000, "", false);  // about 30 MB: many batches
  ReadAhead records(source);
  Record record;
  size_t n = 0;
  while (records.Next(&record)) {
    ASSERT_EQ(record.payload.size(), n % 3000) << n;
    if (!record.payload.empty()) {
      ASSERT_EQ(record.payload.front(), static_cast<uint8_t>(n & 0xff)) << n;
      ASSERT_EQ(record.payload.back(), static_cast<uint8_t>(n & 0xff)) << n;
    }
    ASSERT_EQ(record.type, n % 2 ? RecordType::kCall : RecordType::kMemory);
    ASSERT_EQ(record.thread_id, n % 5);
    ASSERT_EQ(record.chunk, n / 100);
    ++n;
  }
  EXPECT_EQ(n, 20000u);
  EXPECT_TRUE(records.error().empty());
  EXPECT_FALSE(records.Next(&record)) << "stays at the end";
}

// A source whose records are made in memory and never fail: what the two
// chunk-holding sources below share.
class MadeUpSource : public strata::stream::RecordSource {
 public:
  const std::string& error() const override { return error_; }
  bool truncated() const override { return false; }

 protected:
  static void Emit(Record* record, std::span<const uint8_t> payload, uint32_t thread, uint64_t chunk) {
    record->payload = payload;
    record->type = RecordType::kCall;
    record->thread_id = thread;
    record->chunk = chunk;
  }

 private:
  std::string error_;
};

// Chunks of 100 records, each chunk in a buffer of its own that the source
// drops when it moves on, as OrderedRecordReader does; every third chunk is
// offered without an owner, its payloads in one scratch buffer overwritten
// by each Next(), so ReadAhead must copy those.
class ChunkedSource final : public MadeUpSource {
 public:
  explicit ChunkedSource(size_t count) : count_(count) {}
  bool Next(Record* record) override {
    if (next_ == count_) return false;
    const uint64_t chunk = next_ / 100;
    const size_t size = 1 + next_ % 700;
    const uint8_t fill = static_cast<uint8_t>(next_ * 7);
    if (Owned(chunk)) {
      if (!buffer_ || chunk != buffer_chunk_) {
        buffer_ = std::make_shared<std::vector<uint8_t>>();
        buffer_->reserve(100 * 700);  // addresses stay put as the chunk fills
        buffer_chunk_ = chunk;
        std::lock_guard lock(handed_out_mutex_);
        handed_out_.push_back(buffer_);
      }
      const size_t at = buffer_->size();
      buffer_->insert(buffer_->end(), size, fill);
      Emit(record, std::span<const uint8_t>(buffer_->data() + at, size), 1, chunk);
    } else {
      buffer_.reset();
      scratch_.assign(size, fill);
      Emit(record, scratch_, 1, chunk);
    }
    ++next_;
    return true;
  }
  std::shared_ptr<const void> PayloadOwner(uint64_t chunk) const override {
    return Owned(chunk) && buffer_chunk_ == chunk ? buffer_ : nullptr;
  }
  // Chunk buffers someone still holds (the source holds at most its current one).
  // Asked by the test's thread while ReadAhead's thread calls Next().
  size_t Alive() const {
    std::lock_guard lock(handed_out_mutex_);
    size_t n = 0;
    for (const auto& weak : handed_out_) n += !weak.expired();
    return n;
  }
  size_t Owners() const {
    std::lock_guard lock(handed_out_mutex_);
    return handed_out_.size();
  }

 private:
  static bool Owned(uint64_t chunk) { return chunk % 3 != 2; }
  size_t count_, next_ = 0;
  std::shared_ptr<std::vector<uint8_t>> buffer_;
  uint64_t buffer_chunk_ = UINT64_MAX;
  mutable std::mutex handed_out_mutex_;
  std::vector<std::weak_ptr<std::vector<uint8_t>>> handed_out_;
  std::vector<uint8_t> scratch_;
};

TEST(ReadAhead, HoldsTheSourcesChunksOrCopiesAndLetsGoOfThem) {
  ChunkedSource source(200000);  // 2,000 chunks, 1,334 of them owned
  size_t most_alive = 0;
  {
    ReadAhead records(source);
    Record record;
    size_t n = 0;
    while (records.Next(&record)) {
      ASSERT_EQ(record.payload.size(), 1 + n % 700) << n;
      ASSERT_EQ(record.payload.front(), static_cast<uint8_t>(n * 7)) << n;
      ASSERT_EQ(record.payload.back(), static_cast<uint8_t>(n * 7)) << n;
      ASSERT_EQ(record.chunk, n / 100);
      if (n % 1000 == 0) most_alive = std::max(most_alive, source.Alive());
      ++n;
    }
    EXPECT_EQ(n, 200000u);
  }
  EXPECT_EQ(source.Owners(), 1334u);
  // Only the batches read ahead and the one handed out hold chunks (at most
  // 6 batches of 4,096 records: 246 chunks, 164 of them owned), never the whole file.
  EXPECT_LE(most_alive, 170u);
  EXPECT_GT(most_alive, 1u) << "the batches hold the source's chunks instead of copying their records";
  EXPECT_LE(source.Alive(), 1u) << "every chunk but the source's own last one is let go";
}

// Two threads' chunks in turns, a record from each, as OrderedRecordReader
// merges threads: each chunk buffer is held while any batch needs it.
class InterleavedSource final : public MadeUpSource {
 public:
  explicit InterleavedSource(size_t count) : count_(count) {}
  bool Next(Record* record) override {
    if (next_ == count_) return false;
    const size_t thread = next_ % 2;
    const uint64_t chunk = (next_ / 2 / 100) * 2 + thread;
    Stream& s = streams_[thread];
    if (!s.buffer || s.chunk != chunk) {
      s.buffer = std::make_shared<std::vector<uint8_t>>();
      s.buffer->reserve(100 * 64);
      s.chunk = chunk;
    }
    const size_t at = s.buffer->size();
    s.buffer->insert(s.buffer->end(), 1 + next_ % 64, static_cast<uint8_t>(next_ * 13));
    Emit(record, std::span<const uint8_t>(s.buffer->data() + at, 1 + next_ % 64), static_cast<uint32_t>(thread), chunk);
    ++next_;
    return true;
  }
  std::shared_ptr<const void> PayloadOwner(uint64_t chunk) const override {
    const Stream& s = streams_[chunk % 2];
    return s.chunk == chunk ? s.buffer : nullptr;
  }

 private:
  struct Stream {
    std::shared_ptr<std::vector<uint8_t>> buffer;
    uint64_t chunk = UINT64_MAX;
  };
  size_t count_, next_ = 0;
  Stream streams_[2];
};

TEST(ReadAhead, InterleavedThreadsChunksAreHeldWhileTheirRecordsAreRead) {
  InterleavedSource source(100000);
  ReadAhead records(source);
  Record record;
  size_t n = 0;
  while (records.Next(&record)) {
    ASSERT_EQ(record.payload.size(), 1 + n % 64) << n;
    ASSERT_EQ(record.payload.front(), static_cast<uint8_t>(n * 13)) << n;
    ASSERT_EQ(record.payload.back(), static_cast<uint8_t>(n * 13)) << n;
    ASSERT_EQ(record.thread_id, n % 2);
    ++n;
  }
  EXPECT_EQ(n, 100000u);
}

TEST(ReadAhead, TheSourcesErrorComesAfterItsRecords) {
  CountingSource source(10, "chunk 3 at offset 4096: cut short", true);
  ReadAhead records(source);
  Record record;
  size_t n = 0;
  while (records.Next(&record)) {
    EXPECT_TRUE(records.error().empty()) << "not before the records are used up";
    ++n;
  }
  EXPECT_EQ(n, 10u);
  EXPECT_EQ(records.error(), "chunk 3 at offset 4096: cut short");
  EXPECT_TRUE(records.truncated());
}

TEST(ReadAhead, AnEmptySourceEndsAtOnce) {
  CountingSource source(0, "", false);
  ReadAhead records(source);
  Record record;
  EXPECT_FALSE(records.Next(&record));
}

TEST(ReadAhead, StoppingEarlyDoesNotHang) {
  CountingSource source(1000000, "", false);
  {
    ReadAhead records(source);
    Record record;
    ASSERT_TRUE(records.Next(&record));
  }  // the reader thread is blocked on a full queue here: it must be woken and joined
  SUCCEED();
}

// Call records as a tracer writes them, on two threads, in chunks of 50, a
// memory record after every 37th call, the payloads in one buffer.
class EncodedCallsSource final : public MadeUpSource {
 public:
  explicit EncodedCallsSource(size_t count) {
    strata::stream::CallRun runs[2];
    for (size_t n = 0; n < count; ++n) {
      const uint32_t thread = (n / 300) % 2;
      strata::stream::CallRun& run = runs[thread];
      if (n % 50 == 0) run.Restart();  // a new chunk starts with absolute numbers
      strata::stream::ByteBuffer bytes;
      if (n % 3 == 0) {
        strata::stream::CallEncoder e(bytes, run, strata::api::glUniform1f, n, 1, 0);
        e.Signed(static_cast<int64_t>(n % 16));
        e.Float(static_cast<float>(n) * 0.5f);
        e.Times(1000 * n, 1000 * n + 10);
        e.End();
      } else {
        strata::stream::CallEncoder e(bytes, run, n % 3 == 1 ? strata::api::glEnable : strata::api::glDisable, n, 1, 0);
        e.Unsigned(GL_BLEND);
        e.Times(1000 * n, 1000 * n + 10);
        e.End();
      }
      size_t at = 0;
      Record record;
      std::string error;
      EXPECT_TRUE(strata::stream::NextRecordIn(bytes.bytes(), &at, &record, &error)) << error;
      records_.push_back({RecordType::kCall, thread, n / 50,
                          std::vector<uint8_t>(record.payload.begin(), record.payload.end())});
      if (n % 37 == 36) records_.push_back({RecordType::kMemory, thread, n / 50, {1, 2, 3}});
    }
  }
  bool Next(Record* record) override {
    if (next_ == records_.size()) return false;
    const Kept& k = records_[next_++];
    Emit(record, k.payload, k.thread, k.chunk);
    record->type = k.type;
    return true;
  }
  struct Kept {
    RecordType type;
    uint32_t thread;
    uint64_t chunk;
    std::vector<uint8_t> payload;
  };
  const std::vector<Kept>& records() const { return records_; }

 private:
  std::vector<Kept> records_;
  size_t next_ = 0;
};

// What came out of a ReadAhead over an EncodedCallsSource, checked record by
// record against the source as it came: every record in order, each call
// kept decoded with the numbers and arguments its record says.
struct DecodedCalls {
  size_t runs = 0, longest = 0, prepared = 0;
  std::map<uint64_t, size_t> prepared_by_chunk;
};

DecodedCalls ReadAll(ReadAhead& records, const EncodedCallsSource& source) {
  DecodedCalls out;
  Record record;
  size_t at = 0;
  auto expect_record = [&](RecordType type, std::span<const uint8_t> payload, uint32_t thread, uint64_t chunk) {
    ASSERT_LT(at, source.records().size());
    const EncodedCallsSource::Kept& k = source.records()[at++];
    ASSERT_EQ(type, k.type) << at;
    ASSERT_EQ(thread, k.thread) << at;
    ASSERT_EQ(chunk, k.chunk) << at;
    ASSERT_EQ(std::vector<uint8_t>(payload.begin(), payload.end()), k.payload) << at;
  };
  while (records.Next(&record)) {
    if (record.prepared == nullptr) {
      expect_record(record.type, record.payload, record.thread_id, record.chunk);
      continue;
    }
    ++out.runs;
    out.longest = std::max<size_t>(out.longest, record.prepared->count);
    const strata::stream::PreparedCall* call = record.prepared->first();
    for (uint64_t i = 0; i < record.prepared->count; ++i, call = call->next()) {
      expect_record(RecordType::kCall, {call->record, call->record_size}, record.thread_id, record.chunk);
      // The call's sequence is its number among the calls made.
      const uint64_t n = call->sequence;
      EXPECT_EQ(call->start_ns, 1000 * n);
      EXPECT_EQ(call->duration_ns, 10u);
      EXPECT_NE(call->slot, strata::api::glDisable) << "not wanted";
      if (call->slot == strata::api::glUniform1f) {
        EXPECT_EQ(call->arguments()[0].i, static_cast<int64_t>(n % 16));
        EXPECT_EQ(call->arguments()[1].f, static_cast<float>(n) * 0.5f);
      } else {
        EXPECT_EQ(call->slot, strata::api::glEnable);
        EXPECT_EQ(call->arguments()[0].u, uint64_t{GL_BLEND});
      }
      ++out.prepared;
      ++out.prepared_by_chunk[record.chunk];
    }
  }
  EXPECT_EQ(at, source.records().size()) << "every record, in order";
  return out;
}

size_t WantedCalls(size_t calls) {
  size_t wanted = 0;  // glUniform1f and glEnable: all but every third call
  for (size_t n = 0; n < calls; ++n) wanted += n % 3 != 2;
  return wanted;
}

// 20,000 calls read ahead, glDisable's not wanted decoded.
struct CallsReadAhead {
  explicit CallsReadAhead(ReadAhead::Decoding decoding)
      : records(source, Functions(functions), [](int slot) { return slot != strata::api::glDisable; }, decoding) {}
  static const strata::stream::FunctionTable& Functions(strata::stream::FunctionTable& table) {
    table.Load(strata::stream::FunctionTable::OwnNames());
    return table;
  }
  EncodedCallsSource source{20000};
  strata::stream::FunctionTable functions;
  ReadAhead records;
};

TEST(ReadAhead, RunsOfCallsKeptDecodedStandForTheirRecords) {
  CallsReadAhead calls(ReadAhead::Decoding::kEveryChunk);
  const DecodedCalls out = ReadAll(calls.records, calls.source);
  EXPECT_EQ(out.prepared, WantedCalls(20000));
  EXPECT_GT(out.runs, 100u);
  EXPECT_GE(out.longest, 2u);
}

// Left to choose, the reading thread decodes a chunk's calls only where the
// caller has batches waiting as the chunk starts (it is the busier thread),
// and a chunk's calls all or none (the calls after a thread's first in a
// chunk are deltas from the one before).
// Catches: decoding that ignores who waits for whom (chunk 0, read before
// anything waits, kept decoded; nothing kept decoded while the caller sleeps),
// part of a chunk decoded from a decoder that skipped its start (wrong
// numbers, caught by ReadAll's checks).
TEST(ReadAhead, DecodesChunksWhereTheCallerHasBatchesWaiting) {
  CallsReadAhead calls(ReadAhead::Decoding::kWhileCallerIsBusier);
  // A caller busy elsewhere: the reading thread fills every batch it may hold ahead.
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  const DecodedCalls out = ReadAll(calls.records, calls.source);
  EXPECT_EQ(out.prepared_by_chunk.count(0), 0u) << "chunk 0 starts before any batch waits";
  EXPECT_GT(out.prepared, 0u) << "later chunks start with batches waiting";
  EXPECT_LT(out.prepared, WantedCalls(20000));
  for (const auto& [chunk, prepared] : out.prepared_by_chunk) {
    // 50 calls a chunk, two thirds of them wanted: a chunk decoded is decoded whole.
    EXPECT_GE(prepared, 33u) << "chunk " << chunk;
  }
}

}  // namespace
