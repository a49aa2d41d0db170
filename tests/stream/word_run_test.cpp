// Word runs (stream/word_run.h): what the client writes is what the renderer
// reads, wherever in its message the run begins.

#include "stream/word_run.h"

#include <GLES2/gl2.h>
#include <gtest/gtest.h>

#include <bit>
#include <cstring>
#include <string>
#include <vector>

#include "stream/record_format.h"
#include "stream/record_reader.h"

namespace {

using strata::stream::ByteBuffer;
using strata::stream::PreparedWord;
namespace api = strata::api;

PreparedWord Int(int64_t v) { return PreparedWord{.i = v}; }
PreparedWord Uint(uint64_t v) { return PreparedWord{.u = v}; }
PreparedWord Float(float v) { return PreparedWord{.u = std::bit_cast<uint32_t>(v)}; }

// Catches: words that do not lie at a multiple of 8 from the message's start
// (the renderer would refuse the run), a length that does not cover the run,
// values or kinds changed on the way to the decoded call, sequence numbers
// that do not follow one another.
TEST(WordRun, ReadsBackWhatWasWrittenAtEveryOffset) {
  for (size_t offset = 0; offset < 8; ++offset) {
    // The renderer reads a message into memory aligned as operator new aligns it.
    ByteBuffer batch;
    if (offset != 0) std::memset(batch.Reserve(offset), 0, offset);
    batch.size = offset;
    strata::stream::WordRunWriter writer;
    strata::stream::CallRun run_numbers;
    writer.Open(batch, 41, 7, 123456);
    const PreparedWord uniform[] = {Int(-3), Float(0.5f), Float(-2.0f), Float(1e-3f), Float(4.0f)};
    writer.Add(batch, run_numbers, api::glUniform4f, uniform, 5);
    const PreparedWord draw[] = {Uint(GL_TRIANGLES), Int(6), Int(3)};
    writer.Add(batch, run_numbers, api::glDrawArrays, draw, 3);
    writer.Close(batch);
    EXPECT_EQ(writer.calls(), 2u);
    EXPECT_FALSE(writer.open());

    std::vector<uint8_t> message(batch.storage.begin(), batch.storage.begin() + static_cast<long>(batch.size));
    size_t at = offset;
    strata::stream::Record record;
    ASSERT_TRUE(strata::stream::ReadRecordAt(message, &at, &record)) << "offset " << offset;
    EXPECT_EQ(at, message.size());
    ASSERT_EQ(record.type, strata::stream::RecordType::kWordRun);
    strata::stream::WordRunView run;
    std::string error;
    ASSERT_TRUE(strata::stream::ReadWordRunHead(record.payload, &run))
        << "offset " << offset << ": " << strata::stream::WordRunHeadProblem(record.payload);
    EXPECT_EQ(run.first_sequence, 41u);
    EXPECT_EQ(run.context, 7u);
    EXPECT_EQ(run.start_ns, 123456u);

    const PreparedWord* call = run.calls;
    ASSERT_TRUE(strata::stream::WordCallFits(call, run.end, api::glUniform4f));
    strata::stream::DecodedCall decoded;
    strata::stream::DecodeWordCall(call, api::glUniform4f, "glUniform4f", 41, 1, run, &decoded);
    EXPECT_EQ(decoded.slot, api::glUniform4f);
    EXPECT_EQ(decoded.sequence, 41u);
    EXPECT_EQ(decoded.context, 7u);
    EXPECT_EQ(decoded.start_ns, 123456u);
    EXPECT_EQ(decoded.flags, strata::stream::kCallUntimed);
    ASSERT_EQ(decoded.args.size(), 5u);
    EXPECT_EQ(decoded.args[0].kind, api::ArgKind::kInt);
    EXPECT_EQ(decoded.args[0].i, -3);
    EXPECT_EQ(decoded.args[1].kind, api::ArgKind::kFloat);
    EXPECT_EQ(decoded.args[1].f, 0.5);
    EXPECT_EQ(decoded.args[2].f, -2.0);
    EXPECT_FLOAT_EQ(static_cast<float>(decoded.args[3].f), 1e-3f);
    EXPECT_EQ(decoded.args[4].f, 4.0);

    call += 1 + strata::stream::WordCallArguments(*call);
    ASSERT_TRUE(strata::stream::WordCallFits(call, run.end, api::glDrawArrays));
    strata::stream::DecodeWordCall(call, api::glDrawArrays, "glDrawArrays", 42, 1, run, &decoded);
    ASSERT_EQ(decoded.args.size(), 3u);
    EXPECT_EQ(decoded.args[0].u, static_cast<uint64_t>(GL_TRIANGLES));
    EXPECT_EQ(decoded.args[1].i, 6);
    EXPECT_EQ(decoded.args[2].i, 3);
    call += 1 + strata::stream::WordCallArguments(*call);
    EXPECT_EQ(call, run.end);
  }
}

// A call with an input array (words-v2): its bytes after its arguments,
// zeros after them to a whole word, then the next call; a null array has
// no bytes. Catches: an array read from the wrong place or with the wrong
// length, a next call read from inside the array, padding left as garbage,
// a null array decoded as one of no bytes.
TEST(WordRun, AnArrayLiesAfterItsCallsArgumentsAndTheNextCallAfterIt) {
  ByteBuffer batch;
  strata::stream::WordRunWriter writer;
  strata::stream::CallRun run_numbers;
  writer.Open(batch, 10, 3, 99);
  const float color[3] = {0.25f, 0.5f, 1.0f};  // 12 bytes: 4 of padding after them
  const PreparedWord uniform[] = {Int(5), Int(1), Uint(reinterpret_cast<uintptr_t>(color))};
  writer.Add(batch, run_numbers, api::glUniform3fv, uniform, 3, color, sizeof color);
  const PreparedWord none[] = {Int(5), Int(0), Uint(0)};
  writer.Add(batch, run_numbers, api::glUniform3fv, none, 3, nullptr, 0);
  const PreparedWord draw[] = {Uint(GL_TRIANGLES), Int(0), Int(3)};
  writer.Add(batch, run_numbers, api::glDrawArrays, draw, 3);
  writer.Close(batch);

  std::vector<uint8_t> message(batch.storage.begin(), batch.storage.begin() + static_cast<long>(batch.size));
  size_t at = 0;
  strata::stream::Record record;
  ASSERT_TRUE(strata::stream::ReadRecordAt(message, &at, &record));
  strata::stream::WordRunView run;
  ASSERT_TRUE(strata::stream::ReadWordRunHead(record.payload, &run));
  uint64_t last = 0;
  ASSERT_TRUE(strata::stream::LastWordCallSequence(run, &last));
  EXPECT_EQ(last, 12u);

  const PreparedWord* call = run.calls;
  EXPECT_TRUE(strata::stream::kWordArrayCalls[api::glUniform3fv]);
  ASSERT_TRUE(strata::stream::WordCallFits(call, run.end, api::glUniform3fv));
  EXPECT_EQ(strata::stream::WordCallArrayBytes(*call), sizeof color);
  EXPECT_EQ(strata::stream::WordCallWords(*call), 3u + 2u);
  EXPECT_EQ(call[4 + 1].u >> 32, 0u) << "the padding after the array's last float is zeros";
  strata::stream::DecodedCall decoded;
  strata::stream::DecodeWordCall(call, api::glUniform3fv, "glUniform3fv", 10, 1, run, &decoded);
  ASSERT_EQ(decoded.args.size(), 3u);
  EXPECT_EQ(decoded.args[0].i, 5);
  EXPECT_EQ(decoded.args[2].u, reinterpret_cast<uintptr_t>(color));
  ASSERT_TRUE(decoded.args[2].has_in);
  ASSERT_EQ(decoded.args[2].in.size(), sizeof color);
  EXPECT_EQ(std::memcmp(decoded.args[2].in.data(), color, sizeof color), 0);

  call += 1 + strata::stream::WordCallWords(*call);
  ASSERT_TRUE(strata::stream::WordCallFits(call, run.end, api::glUniform3fv));
  EXPECT_EQ(strata::stream::WordCallWords(*call), 3u);
  strata::stream::DecodeWordCall(call, api::glUniform3fv, "glUniform3fv", 11, 1, run, &decoded);
  EXPECT_FALSE(decoded.args[2].has_in) << "null stays null";

  call += 1 + strata::stream::WordCallWords(*call);
  ASSERT_TRUE(strata::stream::WordCallFits(call, run.end, api::glDrawArrays));
  strata::stream::DecodeWordCall(call, api::glDrawArrays, "glDrawArrays", 12, 1, run, &decoded);
  EXPECT_EQ(decoded.args[0].u, static_cast<uint64_t>(GL_TRIANGLES));
  EXPECT_EQ(decoded.args[2].i, 3);
  call += 1 + strata::stream::WordCallWords(*call);
  EXPECT_EQ(call, run.end);
}

// Catches: a run that lets through a call the renderer cannot run from
// words (a function that gives something back, one of pointers other than
// an input array), a count that does not match the function, an array where
// the function takes none, or words read past the run's end.
TEST(WordRun, OnlyCallsOfScalarsAndInputArraysThatGiveNothingBackFit) {
  EXPECT_TRUE(strata::stream::kWordCalls[api::glUniform4f]);
  EXPECT_TRUE(strata::stream::kWordCalls[api::glDrawArrays]);
  EXPECT_TRUE(strata::stream::kWordCalls[api::glBindBuffer]);
  EXPECT_FALSE(strata::stream::kWordArrayCalls[api::glUniform4f]);
  EXPECT_FALSE(strata::stream::kWordCalls[api::glGetError]);         // gives something back
  EXPECT_FALSE(strata::stream::kWordCalls[api::glIsEnabled]);        // the same
  EXPECT_TRUE(strata::stream::kWordCalls[api::glUniform4fv]);        // an input array
  EXPECT_TRUE(strata::stream::kWordArrayCalls[api::glUniform4fv]);
  EXPECT_TRUE(strata::stream::kWordArrayCalls[api::glUniformMatrix4fv]);
  EXPECT_TRUE(strata::stream::kWordArrayCalls[api::glBufferSubData]);
  EXPECT_FALSE(strata::stream::kWordCalls[api::glVertexAttribPointer]);  // a client array, read at the draw
  EXPECT_FALSE(strata::stream::kWordCalls[api::glTexImage2D]);       // an image, maybe from a buffer
  EXPECT_FALSE(strata::stream::kWordCalls[api::glShaderSource]);     // strings
  EXPECT_FALSE(strata::stream::kWordCalls[api::glDrawElements]);     // a draw's indices are Execute's
  EXPECT_FALSE(strata::stream::kWordCalls[api::glGetIntegerv]);      // an output
  EXPECT_FALSE(strata::stream::kWordCalls[api::eglSwapInterval]);    // EGL

  const PreparedWord with_array[] = {Uint(strata::stream::WordCallHead(api::glScissor, 4, 8)), Int(0), Int(0),
                                     Int(8), Int(8), Uint(0)};
  EXPECT_FALSE(strata::stream::WordCallFits(with_array, with_array + 6, api::glScissor));
  EXPECT_EQ(strata::stream::WordCallProblem(with_array, with_array + 6, api::glScissor),
            "a call to glScissor with 8 bytes of an array (it takes none)");
  const PreparedWord short_array[] = {Uint(strata::stream::WordCallHead(api::glUniform4fv, 3, 16)), Int(0), Int(1),
                                      Uint(0x1000), Uint(0), Uint(0)};
  EXPECT_TRUE(strata::stream::WordCallFits(short_array, short_array + 6, api::glUniform4fv));
  EXPECT_FALSE(strata::stream::WordCallFits(short_array, short_array + 5, api::glUniform4fv));
  EXPECT_EQ(strata::stream::WordCallProblem(short_array, short_array + 5, api::glUniform4fv),
            "cut short in a call to glUniform4fv (4 of its 5 words of arguments and array there)");

  const PreparedWord scissor[] = {Uint(api::glScissor | uint64_t{4} << 32), Int(0), Int(0), Int(8), Int(8)};
  EXPECT_TRUE(strata::stream::WordCallFits(scissor, scissor + 5, api::glScissor));
  EXPECT_FALSE(strata::stream::WordCallFits(scissor, scissor + 4, api::glScissor));
  EXPECT_EQ(strata::stream::WordCallProblem(scissor, scissor + 4, api::glScissor),
            "cut short in a call to glScissor (3 of its 4 arguments there)");
  EXPECT_FALSE(strata::stream::WordCallFits(scissor, scissor + 5, -1));  // an id the client's table does not name
  EXPECT_EQ(strata::stream::WordCallProblem(scissor, scissor + 5, -1),
            "a call to function id " + std::to_string(api::glScissor) + ", which the client's table does not name");
  EXPECT_FALSE(strata::stream::WordCallFits(scissor, scissor + 5, api::glGetError));
  EXPECT_EQ(strata::stream::WordCallProblem(scissor, scissor + 5, api::glGetError),
            "a call to glGetError, whose calls must travel as call records");
  EXPECT_FALSE(strata::stream::WordCallFits(scissor, scissor + 5, api::glClear));
  EXPECT_EQ(strata::stream::WordCallProblem(scissor, scissor + 5, api::glClear),
            "a call to glClear with 4 arguments (it takes 1)");
}

// Catches: a head that reads past a short payload, padding that hides
// bytes, a run with no calls taken as one.
TEST(WordRun, AMalformedHeadIsOneClearError) {
  strata::stream::WordRunView run;
  EXPECT_FALSE(strata::stream::ReadWordRunHead({}, &run));
  EXPECT_EQ(strata::stream::WordRunHeadProblem({}), "a word run cut short or with more padding than a word (0 bytes)");
  alignas(8) uint8_t payload[1 + 7 + 24 + 8] = {7};
  const std::span<const uint8_t> head(payload, 1 + 7 + 24);
  EXPECT_FALSE(strata::stream::ReadWordRunHead(head, &run));
  EXPECT_EQ(strata::stream::WordRunHeadProblem(head), "a word run of no calls");
  const std::span<const uint8_t> whole(payload, sizeof payload);
  EXPECT_TRUE(strata::stream::ReadWordRunHead(whole, &run));  // a call of glFunctionTable's id 0, no arguments
  payload[3] = 1;
  EXPECT_FALSE(strata::stream::ReadWordRunHead(whole, &run));
  EXPECT_EQ(strata::stream::WordRunHeadProblem(whole), "a word run whose padding is not zeros");
  payload[3] = 0;
  payload[0] = 8;
  EXPECT_FALSE(strata::stream::ReadWordRunHead(whole, &run));
  EXPECT_EQ(strata::stream::WordRunHeadProblem(whole),
            "a word run cut short or with more padding than a word (40 bytes)");
  payload[0] = 7;
  EXPECT_FALSE(strata::stream::ReadWordRunHead({payload, 20}, &run));
  EXPECT_EQ(strata::stream::WordRunHeadProblem({payload, 20}),
            "a word run cut short or with more padding than a word (20 bytes)");
  EXPECT_FALSE(strata::stream::ReadWordRunHead({payload + 8, 32}, &run));  // its words off their place by one
  EXPECT_EQ(strata::stream::WordRunHeadProblem({payload + 8, 32}),
            "a word run whose words do not lie at a multiple of 8 bytes from its message's start");
}

}  // namespace
