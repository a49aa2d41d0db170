// ByteReader's varints: every length from 1 to 10 bytes, read with fewer and
// with more than 8 bytes left behind them (the two ways it reads), give back
// what ByteWriter wrote; a varint cut short or longer than 10 bytes fails the
// reader and reads as 0.
// Catches: a varint read in one load that takes the wrong length, keeps a
// continuation bit or a byte of what follows, or reads past the bytes it has.
#include "stream/byte_reader.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "stream/byte_writer.h"

namespace {

using strata::stream::ByteBuffer;
using strata::stream::ByteReader;
using strata::stream::ByteWriter;

std::vector<uint8_t> Encoded(uint64_t value) {
  ByteBuffer buffer;
  ByteWriter(&buffer).Varint(value);
  return std::vector<uint8_t>(buffer.bytes().begin(), buffer.bytes().end());
}

// Values at the edges of every length: 2^(7k) - 1, 2^(7k), and a mixed pattern of each length.
std::vector<uint64_t> EdgeValues() {
  std::vector<uint64_t> values = {0, 1, 0x7f, ~uint64_t{0}, uint64_t{1} << 63, 0x8080808080808080ull};
  for (int bits = 7; bits < 64; bits += 7) {
    values.push_back((uint64_t{1} << bits) - 1);
    values.push_back(uint64_t{1} << bits);
    values.push_back(((uint64_t{1} << bits) - 1) & 0x5a5a5a5a5a5a5a5aull);
    values.push_back((uint64_t{1} << bits) | 0x81);
  }
  return values;
}

TEST(ByteReader, VarintsOfEveryLengthReadBackWithAndWithoutEightBytesBehindThem) {
  for (uint64_t value : EdgeValues()) {
    const std::vector<uint8_t> bytes = Encoded(value);
    for (size_t trailing : {0, 1, 7, 8, 16}) {
      std::vector<uint8_t> stream = bytes;
      stream.insert(stream.end(), trailing, 0xff);  // continuation bits set: a misread would show
      ByteReader r(stream);
      EXPECT_EQ(r.Varint(), value) << "value " << value << " with " << trailing << " bytes after it";
      EXPECT_TRUE(r.ok());
      EXPECT_EQ(r.offset(), bytes.size()) << "value " << value << " with " << trailing << " bytes after it";
    }
  }
}

TEST(ByteReader, ConsecutiveVarintsReadInOrder) {
  std::vector<uint64_t> values = EdgeValues();
  ByteBuffer buffer;
  ByteWriter w(&buffer);
  for (uint64_t v : values) w.Varint(v);
  ByteReader r(buffer.bytes());
  for (uint64_t v : values) EXPECT_EQ(r.Varint(), v);
  EXPECT_TRUE(r.ok());
  EXPECT_TRUE(r.done());
}

TEST(ByteReader, AVarintCutShortFailsTheReader) {
  for (uint64_t value : EdgeValues()) {
    const std::vector<uint8_t> bytes = Encoded(value);
    for (size_t keep = 0; keep < bytes.size(); ++keep) {
      ByteReader r(std::span<const uint8_t>(bytes.data(), keep));
      EXPECT_EQ(r.Varint(), 0u);
      EXPECT_FALSE(r.ok()) << "value " << value << " cut to " << keep << " bytes";
    }
  }
}

TEST(ByteReader, MoreThanTenBytesIsNotAVarint) {
  std::vector<uint8_t> bytes(11, 0x80);
  bytes.push_back(0x01);
  bytes.insert(bytes.end(), 8, 0x00);
  ByteReader r(bytes);
  EXPECT_EQ(r.Varint(), 0u);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.Varint(), 0u);  // failed for good
}

}  // namespace
