// OrderedRecordReader on a trace of one thread, whose records it hands out
// in file order from the chunk it holds (inline, and through ReadAhead,
// which calls it directly): every record comes, in order, with its bytes,
// across chunks; a record whose header runs past its chunk ends the reading
// there with one error naming it, after every record before it, directly
// and through a reader ahead alike.
// Catches: a record lost or repeated at a chunk's end on the inline path, a
// damaged record taken as whole or passed over silently.
#include "stream/ordered_reader.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "stream/byte_writer.h"
#include "stream/read_ahead.h"
#include "stream/trace_file.h"

namespace strata::stream {
namespace {

class OrderedReaderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (std::filesystem::temp_directory_path() / "strata-test-ordered-XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // A trace of thread 7 whose chunk k holds records_per_chunk memory
  // records, record n's payload n % 50 + 1 bytes of n & 0xff; with
  // `damaged`, the last chunk's last record claims more bytes than remain.
  std::string Write(int chunks, int records_per_chunk, bool damaged) {
    const std::string path = dir_ + "/t.strace";
    TraceHeader header;
    header.program = "ordered_reader_test";
    header.extra["functions"] = FunctionTable::OwnNames();
    std::string error;
    auto writer = TraceFileWriter::Create(path, header, Compression::kLz4, &error);
    EXPECT_TRUE(writer) << error;
    int n = 0;
    for (int c = 0; c < chunks; ++c) {
      ByteBuffer buffer;
      ByteWriter w(&buffer);
      for (int i = 0; i < records_per_chunk; ++i, ++n) {
        const std::vector<uint8_t> payload(static_cast<size_t>(n % 50 + 1), static_cast<uint8_t>(n & 0xff));
        w.U8(static_cast<uint8_t>(RecordType::kMemory));
        w.Varint(payload.size() + (damaged && c == chunks - 1 && i == records_per_chunk - 1 ? 100 : 0));
        w.Raw(payload.data(), payload.size());
      }
      EXPECT_TRUE(writer->WriteChunk(buffer.bytes(), {7, 0, static_cast<uint32_t>(records_per_chunk), 0}, &error))
          << error;
    }
    EXPECT_TRUE(writer->Finish(&error)) << error;
    return path;
  }

  // Reads every record of `source`, checking each; the count.
  static int ReadAll(RecordSource& source) {
    Record record;
    int n = 0;
    while (source.Next(&record)) {
      EXPECT_EQ(record.type, RecordType::kMemory) << "record " << n;
      EXPECT_EQ(record.thread_id, 7u) << "record " << n;
      EXPECT_EQ(record.payload.size(), static_cast<size_t>(n % 50 + 1)) << "record " << n;
      EXPECT_TRUE(!record.payload.empty() && record.payload.front() == static_cast<uint8_t>(n & 0xff) &&
                  record.payload.back() == static_cast<uint8_t>(n & 0xff))
          << "record " << n;
      ++n;
    }
    return n;
  }

  std::string dir_;
};

TEST_F(OrderedReaderTest, EveryRecordOfAOneThreadTraceComesInOrder) {
  const std::string path = Write(5, 1000, false);
  std::string error;
  auto direct = OrderedRecordReader::Open(path, &error);
  ASSERT_TRUE(direct) << error;
  EXPECT_EQ(ReadAll(*direct), 5000);
  EXPECT_EQ(direct->error(), "");
  auto source = OrderedRecordReader::Open(path, &error);
  ASSERT_TRUE(source) << error;
  ReadAhead ahead(*source);
  EXPECT_EQ(ReadAll(ahead), 5000);
  EXPECT_EQ(ahead.error(), "");
}

TEST_F(OrderedReaderTest, ADamagedRecordEndsTheReadingWithAnErrorAfterTheRecordsBeforeIt) {
  const std::string path = Write(3, 1000, true);
  std::string error;
  auto direct = OrderedRecordReader::Open(path, &error);
  ASSERT_TRUE(direct) << error;
  EXPECT_EQ(ReadAll(*direct), 2999);
  EXPECT_NE(direct->error().find("of a chunk of thread 7 has a damaged header"), std::string::npos) << direct->error();
  Record record;
  EXPECT_FALSE(direct->Next(&record));  // and stays ended
  auto source = OrderedRecordReader::Open(path, &error);
  ASSERT_TRUE(source) << error;
  ReadAhead ahead(*source);
  EXPECT_EQ(ReadAll(ahead), 2999);
  EXPECT_EQ(ahead.error(), direct->error());
}

}  // namespace
}  // namespace strata::stream
