// Malformed call records: every call of a real trace, mutated thousands of
// ways (bit flips, truncation, garbage appended, random lengths), must decode
// to a clean error or to values that print; never a crash or an overread.
#include <gtest/gtest.h>
#include <unistd.h>

#include <random>
#include <string>
#include <vector>

#include "stream/call_decoder.h"
#include "stream/call_printer.h"
#include "stream/record_reader.h"
#include "support/process.h"
#include "support/scratch.h"

namespace {

using namespace strata;

TEST(CallDecoderFuzz, MutatedRecordsNeverCrash) {
  std::string trace = strata::test::ScratchPath("fuzz-source.strace");
  test::ProcessResult r = test::RunProcess({STRATA_CLI, "trace", "-o", trace, "--", STRATA_BIN_DIR "/gles3_instanced",
                                            "--frames", "3"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string error;
  auto reader = stream::RecordReader::Open(trace, &error);
  ASSERT_NE(reader, nullptr) << error;
  std::vector<std::vector<uint8_t>> calls;
  stream::Record record;
  while (reader->Next(&record)) {
    if (record.type == stream::RecordType::kCall) calls.emplace_back(record.payload.begin(), record.payload.end());
  }
  ASSERT_GT(calls.size(), 100u);

  std::mt19937 random(12345);
  int decoded = 0, rejected = 0;
  for (const std::vector<uint8_t>& original : calls) {
    for (int round = 0; round < 30; ++round) {
      std::vector<uint8_t> bytes = original;
      switch (round % 4) {
        case 0:  // flip a few bits
          for (int i = 0; i < 3 && !bytes.empty(); ++i) bytes[random() % bytes.size()] ^= 1u << (random() % 8);
          break;
        case 1:  // cut short
          bytes.resize(random() % (bytes.size() + 1));
          break;
        case 2:  // garbage appended
          for (int i = 0; i < 8; ++i) bytes.push_back(static_cast<uint8_t>(random()));
          break;
        default:  // a random byte anywhere, often a huge varint length
          if (!bytes.empty()) bytes[random() % bytes.size()] = 0xff;
      }
      // A fresh decoder per record: deltas then start from "first in chunk".
      stream::CallDecoder decoder(reader->functions());
      stream::DecodedCall call;
      if (decoder.Decode(bytes, 1, 1, &call, &error)) {
        ++decoded;
        EXPECT_FALSE(stream::FormatCall(call).empty());
        EXPECT_FALSE(stream::FormatCallJson(call).empty());
      } else {
        ++rejected;
        EXPECT_FALSE(error.empty());
      }
    }
  }
  EXPECT_GT(rejected, 0);
  EXPECT_GT(decoded, 0) << "some mutations (a flipped value bit) still decode";
  unlink(trace.c_str());
}

}  // namespace
