// ReadAhead hands out exactly the records of its source, in order, with
// their bytes, across many batches; the source's error and truncation come
// out once its records are used up; a reader stopped early does not hang.
#include "stream/read_ahead.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

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

}  // namespace
