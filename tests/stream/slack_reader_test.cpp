// SlackReader, the generated handlers' reader: what it reads of a whole
// record is what ByteReader reads, and a record cut short anywhere, or one
// with bytes left over, ends not ok() or not done(), though its reads ran on
// into the slack after it (read here from a buffer of exactly the record and
// its slack, so that the sanitizers' runs would catch a read past that).
// Catches: an unchecked read that takes the wrong length, a record read past
// its end that passes as whole, a blob read past the record's end.
#include "stream/slack_reader.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "stream/byte_reader.h"
#include "stream/byte_writer.h"

namespace {

using strata::stream::ByteBuffer;
using strata::stream::ByteReader;
using strata::stream::ByteWriter;
using strata::stream::SlackReader;

// A record as a handler reads it: varints of every length, a float, a blob.
std::vector<uint8_t> Record() {
  ByteBuffer buffer;
  ByteWriter w(&buffer);
  for (int bits = 0; bits < 64; bits += 7) w.Varint(uint64_t{1} << bits);
  w.Float(1.5f);
  w.Varint(4);  // a blob's tag: 3 bytes
  const uint8_t blob[] = {7, 8, 9};
  w.Raw(blob, sizeof blob);
  w.Double(-2.25);
  return std::vector<uint8_t>(buffer.bytes().begin(), buffer.bytes().end());
}

// The record's first `size` bytes in a buffer with the slack after them, filled with `fill`.
std::vector<uint8_t> WithSlack(const std::vector<uint8_t>& record, size_t size, uint8_t fill) {
  std::vector<uint8_t> buffer(record.begin(), record.begin() + static_cast<std::ptrdiff_t>(size));
  buffer.resize(size + SlackReader::kSlackBytes, fill);
  return buffer;
}

// Reads the record's layout; true when the reader ends ok() and done().
template <class Reader>
bool ReadAll(Reader& r, std::vector<uint64_t>* varints, float* f, std::vector<uint8_t>* blob, double* d) {
  for (int bits = 0; bits < 64; bits += 7) varints->push_back(r.Varint());
  *f = r.Float();
  const uint64_t tag = r.Varint();
  const auto bytes = r.Bytes(tag - 1);
  blob->assign(bytes.begin(), bytes.end());
  *d = r.Double();
  return r.ok() && r.done();
}

TEST(SlackReader, AWholeRecordReadsAsByteReaderReadsIt) {
  const std::vector<uint8_t> record = Record();
  for (uint8_t fill : {0x00, 0x80, 0xff}) {
    const std::vector<uint8_t> buffer = WithSlack(record, record.size(), fill);
    SlackReader slack(std::span<const uint8_t>(buffer.data(), record.size()));
    ByteReader checked(record);
    std::vector<uint64_t> v1, v2;
    std::vector<uint8_t> b1, b2;
    float f1 = 0, f2 = 0;
    double d1 = 0, d2 = 0;
    ASSERT_TRUE(ReadAll(slack, &v1, &f1, &b1, &d1)) << "slack filled with " << int(fill);
    ASSERT_TRUE(ReadAll(checked, &v2, &f2, &b2, &d2));
    EXPECT_EQ(v1, v2);
    // Both readers share the one-load decoder of 3 to 8 bytes (VarintInWord): what was written, too.
    for (size_t i = 0; i < v1.size(); ++i) EXPECT_EQ(v1[i], uint64_t{1} << (7 * i)) << "varint " << i;
    EXPECT_EQ(f1, 1.5f);
    EXPECT_EQ(f1, f2);
    EXPECT_EQ(b1, (std::vector<uint8_t>{7, 8, 9}));
    EXPECT_EQ(b1, b2);
    EXPECT_EQ(d1, -2.25);
  }
}

TEST(SlackReader, ARecordCutShortAnywhereIsNotWhole) {
  const std::vector<uint8_t> record = Record();
  for (size_t size = 0; size < record.size(); ++size) {
    for (uint8_t fill : {0x00, 0x80, 0xff}) {
      const std::vector<uint8_t> buffer = WithSlack(record, size, fill);
      SlackReader r(std::span<const uint8_t>(buffer.data(), size));
      std::vector<uint64_t> varints;
      std::vector<uint8_t> blob;
      float f = 0;
      double d = 0;
      EXPECT_FALSE(ReadAll(r, &varints, &f, &blob, &d)) << "cut to " << size << " bytes, slack " << int(fill);
    }
  }
}

TEST(SlackReader, BytesLeftOverAreNotWhole) {
  std::vector<uint8_t> record = Record();
  record.push_back(0);
  const std::vector<uint8_t> buffer = WithSlack(record, record.size(), 0);
  SlackReader r(std::span<const uint8_t>(buffer.data(), record.size()));
  std::vector<uint64_t> varints;
  std::vector<uint8_t> blob;
  float f = 0;
  double d = 0;
  EXPECT_FALSE(ReadAll(r, &varints, &f, &blob, &d));
  EXPECT_TRUE(r.ok());
  EXPECT_FALSE(r.done());
}

TEST(SlackReader, MoreThanTenBytesIsNotAVarint) {
  std::vector<uint8_t> record(11, 0x80);
  record.push_back(0x01);
  const std::vector<uint8_t> buffer = WithSlack(record, record.size(), 0);
  SlackReader r(std::span<const uint8_t>(buffer.data(), record.size()));
  EXPECT_EQ(r.Varint(), 0u);
  EXPECT_FALSE(r.ok());
}

TEST(SlackReader, ABlobLongerThanWhatIsLeftReadsNothing) {
  const std::vector<uint8_t> record = {5, 1, 2};  // a tag of 4 bytes, 2 of them there
  const std::vector<uint8_t> buffer = WithSlack(record, record.size(), 0);
  SlackReader r(std::span<const uint8_t>(buffer.data(), record.size()));
  const uint64_t tag = r.Varint();
  EXPECT_TRUE(r.Bytes(tag - 1).empty());
  EXPECT_FALSE(r.ok());
  // And past the end already: nothing, and no length that wraps around.
  SlackReader past(std::span<const uint8_t>(buffer.data(), 1));
  past.Float();
  EXPECT_TRUE(past.Bytes(0).empty());
  EXPECT_FALSE(past.ok());
}

}  // namespace
