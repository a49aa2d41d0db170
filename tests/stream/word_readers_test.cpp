// The generated word readers (stream/word_readers.h): every function whose
// arguments and result are scalars has one, no other function does, and each
// reads a record's arguments as the checked reader reads them, by the
// registry's kinds, ending where they end. Read here from a buffer of exactly
// the arguments and the slack after them, so that the sanitizers' runs catch
// a read past that. Catches: a table row out of step with the registry's
// slots or kinds (a float read as a varint, a parameter left out), a reader
// that takes the wrong length, a varint too long that passes.
#include "stream/word_readers.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "stream/byte_reader.h"
#include "stream/byte_writer.h"
#include "strata/api/functions.h"

namespace {

using strata::api::ArgKind;
using strata::stream::ByteBuffer;
using strata::stream::ByteReader;
using strata::stream::ByteWriter;
using strata::stream::kWordReaders;
using strata::stream::PreparedWord;
using strata::stream::SlackReader;

bool IsScalar(ArgKind kind) {
  return kind == ArgKind::kInt || kind == ArgKind::kUInt || kind == ArgKind::kEnum || kind == ArgKind::kBitfield ||
         kind == ArgKind::kBoolean || kind == ArgKind::kFloat || kind == ArgKind::kDouble;
}

TEST(WordReaders, EveryFunctionOfScalarsHasOneAndNoOther) {
  int readers = 0;
  for (int slot = 0; slot < strata::api::kFunctionCount; ++slot) {
    const strata::api::FunctionInfo& info = strata::api::kFunctions[slot];
    bool scalars = info.return_kind == ArgKind::kVoid || IsScalar(info.return_kind);
    for (int i = 0; i < info.param_count; ++i) scalars = scalars && IsScalar(info.params[i].kind);
    EXPECT_EQ(kWordReaders[slot] != nullptr, scalars) << info.name;
    readers += kWordReaders[slot] != nullptr;
  }
  EXPECT_GT(readers, 300);  // glUniform*, glEnable, glBlendFunc, glDrawArrays, ...
}

// Values of every length a varint takes, by parameter, so that each
// function's arguments differ from one another.
uint64_t ValueFor(int slot, int param) {
  const int bits = (slot * 7 + param * 13) % 64;
  return (uint64_t{1} << bits) | static_cast<uint64_t>(param);
}

TEST(WordReaders, EachReadsItsFunctionsArgumentsAsTheCheckedReaderDoes) {
  for (int slot = 0; slot < strata::api::kFunctionCount; ++slot) {
    if (kWordReaders[slot] == nullptr) continue;
    const strata::api::FunctionInfo& info = strata::api::kFunctions[slot];
    ByteBuffer buffer;
    ByteWriter w(&buffer);
    for (int i = 0; i < info.param_count; ++i) {
      const uint64_t v = ValueFor(slot, i);
      switch (info.params[i].kind) {
        case ArgKind::kInt: w.Zigzag(static_cast<int64_t>(v) * (i % 2 ? -1 : 1)); break;
        case ArgKind::kFloat: w.Float(static_cast<float>(v) * 0.5f); break;
        case ArgKind::kDouble: w.Double(static_cast<double>(v) * -0.25); break;
        default: w.Varint(v); break;
      }
    }
    const size_t size = buffer.bytes().size();
    for (uint8_t fill : {0x00, 0xff}) {
      std::vector<uint8_t> bytes(buffer.bytes().begin(), buffer.bytes().end());
      bytes.resize(size + SlackReader::kSlackBytes, fill);
      std::vector<PreparedWord> words(info.param_count + 1);
      bool bad = false;
      const uint8_t* end = kWordReaders[slot](bytes.data(), words.data(), bad);
      EXPECT_FALSE(bad) << info.name;
      EXPECT_EQ(end, bytes.data() + size) << info.name;
      ByteReader checked({bytes.data(), size});
      for (int i = 0; i < info.param_count; ++i) {
        switch (info.params[i].kind) {
          case ArgKind::kInt: EXPECT_EQ(words[i].i, checked.Zigzag()) << info.name << " argument " << i; break;
          case ArgKind::kFloat: EXPECT_EQ(words[i].f, checked.Float()) << info.name << " argument " << i; break;
          case ArgKind::kDouble: EXPECT_EQ(words[i].d, checked.Double()) << info.name << " argument " << i; break;
          default: EXPECT_EQ(words[i].u, checked.Varint()) << info.name << " argument " << i; break;
        }
      }
      EXPECT_TRUE(checked.ok() && checked.remaining() == 0) << info.name;
    }
  }
}

TEST(WordReaders, AVarintLongerThanTenBytesIsBad) {
  const int slot = strata::api::FindFunction("glEnable");
  ASSERT_GE(slot, 0);
  ASSERT_NE(kWordReaders[slot], nullptr);
  std::vector<uint8_t> bytes(SlackReader::kSlackBytes + 11, 0x80);  // continuation bits all the way
  PreparedWord word{};
  bool bad = false;
  kWordReaders[slot](bytes.data(), &word, bad);
  EXPECT_TRUE(bad);
}

}  // namespace
