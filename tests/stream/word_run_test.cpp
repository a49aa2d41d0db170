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

// Catches: a run that lets through a call the renderer cannot run from
// words (a function that gives something back, one of pointers), a count
// that does not match the function, or words read past the run's end.
TEST(WordRun, OnlyCallsOfScalarsThatGiveNothingBackFit) {
  EXPECT_TRUE(strata::stream::kWordCalls[api::glUniform4f]);
  EXPECT_TRUE(strata::stream::kWordCalls[api::glDrawArrays]);
  EXPECT_TRUE(strata::stream::kWordCalls[api::glBindBuffer]);
  EXPECT_FALSE(strata::stream::kWordCalls[api::glGetError]);         // gives something back
  EXPECT_FALSE(strata::stream::kWordCalls[api::glIsEnabled]);        // the same
  EXPECT_FALSE(strata::stream::kWordCalls[api::glUniform4fv]);       // a pointer
  EXPECT_FALSE(strata::stream::kWordCalls[api::glVertexAttribPointer]);
  EXPECT_FALSE(strata::stream::kWordCalls[api::eglSwapInterval]);    // EGL

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
