// MessagePreparer hands out exactly a message's records, in order, with
// their bytes: calls a generated handler takes kept decoded in runs with the
// numbers and arguments their records say, the others (a blob's call, one
// that wants a reply, memory records) as they are. It keeps preparing past a
// call whose blob travelled as a bulk segment, says where a damaged record
// ends a message, and serves message after message, also after one the
// connection stopped running halfway.
#include "serve/message_preparer.h"

#include <GLES2/gl2.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <utility>
#include <string>
#include <thread>
#include <vector>

#include "stream/bulk_blobs.h"
#include "stream/call_encoder.h"
#include "stream/record_reader.h"
#include "stream/slack_reader.h"
#include "stream/wire.h"
#include "stream/word_run.h"
#include "strata/api/functions.h"

namespace {

using strata::serve::MessagePreparer;
using strata::stream::Record;
using strata::stream::RecordType;

constexpr size_t kBulkThreshold = 4096;

// Bulk segments go nowhere: the preparer never reads them.
class DroppingSink final : public strata::stream::BulkSink {
 public:
  DroppingSink() : BulkSink(kBulkThreshold) {}
  void PutBulk(const void*, size_t) override { ++segments; }
  size_t segments = 0;
};

// A client's message as its encoder writes it: call n is glUniform1f,
// glEnable, glBufferData with a blob (every 50th, out of line from every
// 100th), glEnable wanting a reply (every 70th), a word run of three
// glEnable (every 90th, numbered on as the client numbers it), a memory
// record after every 37th.
struct Message {
  explicit Message(size_t calls) {
    strata::stream::CallRun run;
    strata::stream::ByteBuffer buffer;
    buffer.bulk = &sink;
    const std::vector<uint8_t> data(2 * kBulkThreshold, 7);
    uint64_t sequence = 0;
    for (size_t n = 0; n < calls; ++n) {
      if (n % 90 == 89) {
        strata::stream::WordRunWriter words;
        words.Open(buffer, sequence + 1, 1, 1000 * (sequence + 1));
        const strata::stream::PreparedWord blend[] = {{.u = GL_BLEND}};
        for (int i = 0; i < 3; ++i) words.Add(buffer, run, strata::api::glEnable, blend, 1);
        words.Close(buffer);
        sequence += 3;
        kinds.push_back(kWordRun);
        continue;
      }
      ++sequence;
      if (n % 50 == 49) {
        const size_t size = n % 100 == 99 ? data.size() : 64;
        strata::stream::CallEncoder e(buffer, run, strata::api::glBufferData, sequence, 1, 0);
        e.Unsigned(GL_ARRAY_BUFFER);
        e.Signed(static_cast<int64_t>(size));
        e.Pointer(0x1000);
        e.Blob(data.data(), size);
        e.Unsigned(GL_STATIC_DRAW);
        e.Times(1000 * sequence, 1000 * sequence + 10);
        e.End();
        kinds.push_back(kBlob);
      } else if (n % 70 == 69 || n % 3 != 0) {
        const bool reply = n % 70 == 69;
        strata::stream::CallEncoder e(buffer, run, strata::api::glEnable, sequence, 1,
                                      reply ? strata::stream::wire::kCallWantsReply : 0);
        e.Unsigned(GL_BLEND);
        e.Times(1000 * sequence, 1000 * sequence + 10);
        e.End();
        kinds.push_back(reply ? kReply : kEnable);
      } else {
        strata::stream::CallEncoder e(buffer, run, strata::api::glUniform1f, sequence, 1, 0);
        e.Signed(static_cast<int64_t>((sequence - 1) % 16));
        e.Float(static_cast<float>(sequence - 1) * 0.5f);
        e.Times(1000 * sequence, 1000 * sequence + 10);
        e.End();
        kinds.push_back(kUniform);
      }
      if (n % 37 == 36) {
        strata::stream::RecordOutput o(buffer, 16);
        const size_t at = o.BeginRecord(RecordType::kMemory);
        for (uint8_t b : {1, 2, 3}) *o.o()++ = b;
        o.EndRecord(at);
        kinds.push_back(kMemory);
      }
    }
    bytes.assign(buffer.bytes().begin(), buffer.bytes().end());
    padded = bytes;
    padded.resize(bytes.size() + strata::stream::SlackReader::kSlackBytes, 0xff);
    // The records' bytes, as a connection walks them without a preparer.
    size_t at = 0;
    Record record;
    std::string error;
    for (size_t start = at; strata::stream::NextRecordIn(bytes, &at, &record, &error); start = at) {
      records.emplace_back(bytes.begin() + static_cast<ptrdiff_t>(start), bytes.begin() + static_cast<ptrdiff_t>(at));
    }
    EXPECT_EQ(error, "");
    EXPECT_EQ(records.size(), kinds.size());
  }
  enum Kind { kUniform, kEnable, kReply, kBlob, kMemory, kWordRun };
  DroppingSink sink;
  std::vector<uint8_t> bytes;
  // The same followed by the slack a connection's message buffer has
  // (continuation bits set: a read past a record's end would show).
  std::vector<uint8_t> padded;
  std::span<const uint8_t> WithSlack() const { return {padded.data(), bytes.size()}; }
  std::vector<Kind> kinds;
  std::vector<std::vector<uint8_t>> records;
};

struct Outcome {
  size_t records = 0, prepared = 0, runs = 0;
  size_t prepared_after_out_of_line = 0;  // calls kept decoded after the first blob in a bulk segment
  std::string problem;
};

// Every record of the message handed out, checked against the walk without a preparer.
void RunAll(MessagePreparer& preparer, const Message& message, std::span<const uint8_t> bytes, uint64_t chunk,
            Outcome* result, size_t stop_after = SIZE_MAX) {
  Outcome& out = *result;
  Record record;
  std::span<const uint8_t> record_bytes;
  bool out_of_line_seen = false;
  auto expect_record = [&](std::span<const uint8_t> got) {
    ASSERT_LT(out.records, message.records.size());
    ASSERT_EQ(std::vector<uint8_t>(got.begin(), got.end()), message.records[out.records]) << out.records;
    // A blob's call whose record is shorter than the blob in a record (64 bytes): its blob went out of line.
    if (message.kinds[out.records] == Message::kBlob && message.records[out.records].size() < 64) {
      out_of_line_seen = true;
    }
    ++out.records;
  };
  while (out.records < stop_after && preparer.Next(&record, &record_bytes, &out.problem)) {
    EXPECT_EQ(record.thread_id, 3u);
    EXPECT_EQ(record.chunk, chunk);
    if (record.prepared == nullptr) {
      expect_record(record_bytes);
      continue;
    }
    ++out.runs;
    const strata::stream::PreparedCall* call = record.prepared->first();
    EXPECT_EQ(record.prepared->context, 1u);
    for (uint64_t i = 0; i < record.prepared->count; ++i, call = call->next()) {
      const size_t index = out.records;
      ASSERT_LT(index, message.kinds.size());
      const Message::Kind kind = message.kinds[index];
      ASSERT_TRUE(kind == Message::kUniform || kind == Message::kEnable) << "record " << index << " kept decoded";
      // The call's record is the one it stands for, in the message.
      const std::vector<uint8_t>& whole = message.records[index];
      ASSERT_TRUE(call->record >= bytes.data() && call->record + call->record_size <= bytes.data() + bytes.size());
      ASSERT_LT(call->record_size, whole.size());
      EXPECT_TRUE(std::equal(call->record, call->record + call->record_size, whole.end() - call->record_size)) << index;
      if (i == 0) {
        expect_record(record_bytes);
      } else {
        ++out.records;
      }
      const uint64_t sequence = call->sequence;
      EXPECT_EQ(call->start_ns, 1000 * sequence);
      EXPECT_EQ(call->duration_ns, 10u);
      if (kind == Message::kUniform) {
        EXPECT_EQ(call->slot, strata::api::glUniform1f);
        EXPECT_EQ(call->arguments()[0].i, static_cast<int64_t>((sequence - 1) % 16));
        EXPECT_EQ(call->arguments()[1].f, static_cast<float>(sequence - 1) * 0.5f);
      } else {
        EXPECT_EQ(call->slot, strata::api::glEnable);
        EXPECT_EQ(call->arguments()[0].u, uint64_t{GL_BLEND});
      }
      ++out.prepared;
      if (out_of_line_seen) ++out.prepared_after_out_of_line;
    }
  }
}

strata::stream::FunctionTable& OwnFunctions() {
  static strata::stream::FunctionTable table = [] {
    strata::stream::FunctionTable t;
    t.Load(strata::stream::FunctionTable::OwnNames());
    return t;
  }();
  return table;
}

// Gives the preparing thread time to fill its stretches before the first Next().
void LetItPrepare() { std::this_thread::sleep_for(std::chrono::milliseconds(50)); }

TEST(MessagePreparer, HandsOutEveryRecordWithItsCallsKeptDecoded) {
  const Message message(3000);
  ASSERT_GT(message.sink.segments, 0u) << "some blobs travel out of line";
  MessagePreparer preparer(OwnFunctions(), kBulkThreshold);
  for (uint64_t chunk = 10; chunk < 13; ++chunk) {
    // With the slack after the message (its records read in place without
    // a check per value), and once without.
    const bool slack = chunk != 11;
    const std::span<const uint8_t> bytes = slack ? message.WithSlack() : std::span<const uint8_t>(message.bytes);
    preparer.Begin(bytes, slack ? message.padded.size() : bytes.size(), 3, chunk);
    LetItPrepare();
    Outcome out;
    RunAll(preparer, message, bytes, chunk, &out);
    EXPECT_EQ(out.problem, "");
    EXPECT_EQ(out.records, message.records.size()) << "every record, in order";
    EXPECT_GT(out.runs, 0u);
    // The first stretches were ready before the first record was asked for.
    EXPECT_GT(out.prepared, 0u);
    EXPECT_GT(out.prepared_after_out_of_line, 0u) << "it keeps preparing after a blob in a bulk segment";
  }
}

TEST(MessagePreparer, AConnectionThatAsksAtOnceGetsEveryRecordInOrder) {
  // No time to prepare first: the connection's thread reads records itself
  // until a stretch is ready where it is (here, with nothing to run, it may
  // stay ahead throughout).
  const Message message(20000);
  MessagePreparer preparer(OwnFunctions(), kBulkThreshold);
  for (uint64_t chunk = 1; chunk <= 20; ++chunk) {
    preparer.Begin(message.bytes, message.bytes.size(), 3, chunk);
    Outcome out;
    RunAll(preparer, message, message.bytes, chunk, &out);
    ASSERT_EQ(out.problem, "");
    ASSERT_EQ(out.records, message.records.size()) << "message " << chunk;
  }
}

TEST(MessagePreparer, AConnectionBusyWithTheDriverTakesTheStretches) {
  // Each record costs the connection's thread a few microseconds, as a
  // driver's call does: the preparing thread gets ahead and stays there.
  const Message message(5000);
  MessagePreparer preparer(OwnFunctions(), kBulkThreshold);
  const auto busy = [] {
    const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(3);
    while (std::chrono::steady_clock::now() < until) {
    }
  };
  // On a machine busy with other work the preparing thread may get no core
  // for a whole message; one message of ten is enough.
  size_t most_prepared = 0;
  for (uint64_t chunk = 1; chunk <= 10 && most_prepared <= message.records.size() / 2; ++chunk) {
    preparer.Begin(message.bytes, message.bytes.size(), 3, chunk);
    Record record;
    std::span<const uint8_t> bytes;
    std::string problem;
    size_t records = 0, prepared = 0;
    while (preparer.Next(&record, &bytes, &problem)) {
      const size_t calls = record.prepared != nullptr ? record.prepared->count : 1;
      records += calls;
      if (record.prepared != nullptr) prepared += calls;
      for (size_t i = 0; i < calls; ++i) busy();
    }
    EXPECT_EQ(problem, "");
    EXPECT_EQ(records, message.records.size());
    most_prepared = std::max(most_prepared, prepared);
  }
  // All but the records run before the thread woke up (a few hundred at most).
  EXPECT_GT(most_prepared, message.records.size() / 2);
}

TEST(MessagePreparer, ADamagedRecordEndsTheMessageWhereItIs) {
  const Message message(2000);
  std::vector<uint8_t> damaged = message.bytes;
  // A call record whose length runs past the message.
  for (uint8_t b : {static_cast<uint8_t>(RecordType::kCall), uint8_t{0x7f}, uint8_t{1}, uint8_t{2}}) damaged.push_back(b);
  MessagePreparer preparer(OwnFunctions(), kBulkThreshold);
  for (bool wait : {true, false}) {
    const uint64_t chunk = wait ? 1 : 2;  // each message a chunk of its own, as a renderer numbers them
    preparer.Begin(damaged, damaged.size(), 3, chunk);
    if (wait) LetItPrepare();
    Outcome out;
    RunAll(preparer, message, damaged, chunk, &out);
    EXPECT_EQ(out.records, message.records.size()) << "the records before it";
    EXPECT_NE(out.problem.find(std::to_string(message.bytes.size())), std::string::npos)
        << "names the damaged record's offset: " << out.problem;
  }
  // The next message is whole again.
  preparer.Begin(message.bytes, message.bytes.size(), 3, 3);
  Outcome out;
  RunAll(preparer, message, message.bytes, 3, &out);
  EXPECT_EQ(out.problem, "");
  EXPECT_EQ(out.records, message.records.size());
}

TEST(MessagePreparer, AMessageStoppedHalfwayLetsTheNextRun) {
  const Message message(5000);
  MessagePreparer preparer(OwnFunctions(), kBulkThreshold);
  // Stopped before the preparing thread took the message, or after, at
  // records before, inside and after the stretches it has ready.
  const std::pair<size_t, bool> stops[] = {{0, false}, {0, true}, {10, false}, {700, true}, {4000, false}};
  uint64_t chunk = 0;
  for (const auto& [stop, wait] : stops) {
    // Freed once the message is passed over: reading it after, the
    // preparing thread would read freed memory (the sanitizers' build says so).
    auto bytes = std::make_unique<std::vector<uint8_t>>(message.bytes);
    preparer.Begin(*bytes, bytes->size(), 3, ++chunk);
    if (wait) LetItPrepare();
    Outcome half;
    RunAll(preparer, message, *bytes, chunk, &half, stop);
    EXPECT_GE(half.records, stop);
    preparer.Finish();
    bytes.reset();
    // A message of other bytes at once: the preparing thread reads only it now.
    std::vector<uint8_t> next = message.bytes;
    preparer.Begin(next, next.size(), 3, ++chunk);
    Outcome out;
    RunAll(preparer, message, next, chunk, &out);
    EXPECT_EQ(out.problem, "");
    EXPECT_EQ(out.records, message.records.size()) << "after stopping at " << stop;
  }
}

// The connection runs the next messages itself for a while and lets the
// preparing thread sleep at once (Rest); the next message it hands over is
// prepared as before, and one handed over while it was still awake too.
// Catches: a resting thread that no Begin() wakes (its message would be run
// by the connection's thread alone: nothing kept decoded), or one that stays
// resting after it.
TEST(MessagePreparer, ARestingPreparerPreparesTheNextMessage) {
  const Message message(3000);
  MessagePreparer preparer(OwnFunctions(), kBulkThreshold);
  for (uint64_t chunk = 1; chunk <= 4; ++chunk) {
    preparer.Begin(message.WithSlack(), message.padded.size(), 3, chunk);
    LetItPrepare();
    Outcome out;
    RunAll(preparer, message, message.WithSlack(), chunk, &out);
    EXPECT_EQ(out.problem, "");
    EXPECT_EQ(out.records, message.records.size()) << "message " << chunk;
    EXPECT_GT(out.prepared, 0u) << "message " << chunk << " was prepared ahead";
    if (chunk % 2 == 1) {
      preparer.Rest();
      LetItPrepare();  // asleep by now
    } else {
      preparer.Rest();  // and handed the next message at once
    }
  }
}

TEST(MessagePreparer, ThePreparerGoesAwayWhileItWaits) {
  const Message message(100);
  {
    MessagePreparer preparer(OwnFunctions(), 0);
    preparer.Begin(message.bytes, message.bytes.size(), 3, 1);
    Outcome out;
    RunAll(preparer, message, message.bytes, 1, &out);
    EXPECT_EQ(out.records, message.records.size());
  }  // its thread waits for the next message here: it must be woken and joined
  { MessagePreparer idle(OwnFunctions(), 0); }
  SUCCEED();
}

}  // namespace
