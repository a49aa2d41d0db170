// RecordStore keeps a replay's records for its later loops, and keeps the
// calls with scalar arguments decoded too (PrepareCalls): each prepared call
// carries exactly what the record says (its arguments word by word, by kind;
// its sequence and times as decoding the whole run gives them, deltas
// included; its run's context), calls with data pointers and calls not wanted stay
// records only, records come out in order whether prepared or not, and
// preparing stops at the budget, keeping every record; an empty record first
// is kept as any other; every payload lies with SlackReader's slack after it,
// the last of a block too (the sanitizers' runs catch a read past a block).
#include "stream/record_store.h"

#include <gtest/gtest.h>

#include <GLES3/gl3.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "stream/call_encoder.h"
#include "strata/api/functions.h"

namespace {

namespace api = strata::api;
namespace stream = strata::stream;

struct Encoded {
  int slot;
  uint32_t thread;
  uint64_t sequence, start_ns, end_ns;
  uint64_t context = 7;
};

class RecordStoreTest : public ::testing::Test {
 protected:
  void SetUp() override { functions_.Load(stream::FunctionTable::OwnNames()); }

  // One call record, encoded as the tracer encodes it, kept in `store`.
  template <typename Arguments>
  void Keep(stream::RecordStore& store, const Encoded& call, Arguments arguments) {
    stream::ByteBuffer buffer;
    stream::CallRun& run = runs_[call.thread];
    stream::CallEncoder e(buffer, run, call.slot, call.sequence, call.context, /*flags=*/0);
    arguments(e);
    e.Times(call.start_ns, call.end_ns);
    e.End();
    KeepBytes(store, buffer, call.thread);
  }
  void KeepBytes(stream::RecordStore& store, const stream::ByteBuffer& buffer, uint32_t thread) {
    size_t at = 0;
    stream::Record record;
    std::string error;
    ASSERT_TRUE(stream::NextRecordIn(buffer.bytes(), &at, &record, &error)) << error;
    record.thread_id = thread;
    record.chunk = 0;
    store.Keep(record);
  }
  // The store's records of a few calls on two threads, one with a data pointer, one not wanted.
  void KeepCalls(stream::RecordStore& store) {
    Keep(store, {api::glUniform4f, 1, 100, 1000, 1010}, [](stream::CallEncoder& e) {
      e.Signed(-1);
      e.Float(0.25f);
      e.Float(-3.5f);
      e.Float(std::nanf(""));
      e.Float(1e30f);
    });
    Keep(store, {api::glEnable, 1, 101, 1020, 1021}, [](stream::CallEncoder& e) { e.Unsigned(GL_BLEND); });
    Keep(store, {api::glUniform1i, 2, 102, 1030, 1040}, [](stream::CallEncoder& e) {
      e.Signed(3);
      e.Signed(-70000);
    });
    const uint8_t data[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    Keep(store, {api::glBufferData, 1, 103, 1050, 1090}, [&](stream::CallEncoder& e) {
      e.Unsigned(GL_ARRAY_BUFFER);
      e.Signed(sizeof data);
      e.Pointer(0x1000);
      e.Blob(data, sizeof data);
      e.Unsigned(GL_STATIC_DRAW);
    });
    Keep(store, {api::glDisable, 1, 104, 2000, 2001}, [](stream::CallEncoder& e) { e.Unsigned(GL_DEPTH_TEST); });
    Keep(store, {api::glBlendFunc, 1, 105, 3000, 3005}, [](stream::CallEncoder& e) {
      e.Unsigned(GL_SRC_ALPHA);
      e.Unsigned(GL_ONE_MINUS_SRC_ALPHA);
    });
  }

  stream::FunctionTable functions_;
  std::map<uint32_t, stream::CallRun> runs_;
};

TEST_F(RecordStoreTest, PreparedCallsCarryWhatTheRecordsSay) {
  stream::RecordStore store(size_t{1} << 20);
  KeepCalls(store);
  const size_t prepared = store.PrepareCalls(functions_, [](int slot) { return slot != api::glDisable; });
  EXPECT_EQ(prepared, 4u);  // not glBufferData (a data pointer), not glDisable (not wanted)

  // Runs: glUniform4f and glEnable (thread 1), glUniform1i (thread 2), then
  // two records, then glBlendFunc (thread 1 again, after records between).
  stream::StoredRecords records(store);
  stream::Record record;
  std::vector<const stream::PreparedCall*> calls;  // null for a record not prepared
  std::vector<uint64_t> runs;
  while (records.Next(&record)) {
    ASSERT_EQ(record.type, stream::RecordType::kCall);
    EXPECT_FALSE(record.payload.empty()) << "the record stays beside its decoded form";
    if (record.prepared == nullptr) {
      calls.push_back(nullptr);
      continue;
    }
    runs.push_back(record.prepared->count);
    EXPECT_EQ(record.prepared->context, 7u);
    const stream::PreparedCall* call = record.prepared->first();
    EXPECT_EQ(call->record, record.payload.data()) << "a run comes as its first call's record";
    uint64_t least_start = UINT64_MAX, greatest_end = 0;
    const stream::PreparedCall* last = nullptr;
    for (uint64_t i = 0; i < record.prepared->count; ++i, call = call->next()) {
      calls.push_back(call);
      least_start = std::min(least_start, call->start_ns);
      greatest_end = std::max(greatest_end, call->start_ns + call->duration_ns);
      last = call;
    }
    EXPECT_EQ(record.prepared->first_start_ns, least_start);
    EXPECT_EQ(record.prepared->last_end_ns, greatest_end);
    EXPECT_EQ(record.prepared->last_sequence, last->sequence);
    EXPECT_EQ(record.prepared->last_start_ns, last->start_ns);
  }
  EXPECT_TRUE(records.error().empty());
  EXPECT_EQ(runs, (std::vector<uint64_t>{2, 1, 1}));
  ASSERT_EQ(calls.size(), 6u);
  EXPECT_EQ(calls[3], nullptr) << "glBufferData";
  EXPECT_EQ(calls[4], nullptr) << "glDisable";
  for (size_t i : {0, 1, 2, 5}) ASSERT_NE(calls[i], nullptr) << i;
  // Each call kept decoded knows its own record, to be run from there instead.
  EXPECT_EQ(calls[1]->record, calls[0]->record + calls[0]->record_size) << "the store keeps payloads back to back";
  EXPECT_GT(calls[1]->record_size, 0u);

  const stream::PreparedCall& uniform = *calls[0];
  EXPECT_EQ(uniform.slot, api::glUniform4f);
  EXPECT_EQ(uniform.sequence, 100u);
  EXPECT_EQ(uniform.start_ns, 1000u);
  EXPECT_EQ(uniform.duration_ns, 10u);
  ASSERT_EQ(uniform.argument_count, 5u);
  const stream::PreparedWord* a = uniform.arguments();
  EXPECT_EQ(a[0].i, -1);
  EXPECT_EQ(a[1].f, 0.25f);
  EXPECT_EQ(a[2].f, -3.5f);
  EXPECT_TRUE(std::isnan(a[3].f));
  EXPECT_EQ(a[4].f, 1e30f);

  EXPECT_EQ(calls[1]->slot, api::glEnable);
  EXPECT_EQ(calls[1]->sequence, 101u) << "a delta from the thread's call before";
  EXPECT_EQ(calls[1]->start_ns, 1020u);
  EXPECT_EQ(calls[1]->arguments()[0].u, uint64_t{GL_BLEND});

  EXPECT_EQ(calls[2]->slot, api::glUniform1i);  // the first call of thread 2: absolute numbers
  EXPECT_EQ(calls[2]->sequence, 102u);
  EXPECT_EQ(calls[2]->start_ns, 1030u);
  EXPECT_EQ(calls[2]->arguments()[0].i, 3);
  EXPECT_EQ(calls[2]->arguments()[1].i, -70000);

  // After two calls that were not prepared, the deltas still add up.
  EXPECT_EQ(calls[5]->slot, api::glBlendFunc);
  EXPECT_EQ(calls[5]->sequence, 105u);
  EXPECT_EQ(calls[5]->start_ns, 3000u);
  EXPECT_EQ(calls[5]->duration_ns, 5u);
  EXPECT_EQ(calls[5]->arguments()[1].u, uint64_t{GL_ONE_MINUS_SRC_ALPHA});
}

TEST_F(RecordStoreTest, ARunHoldsTheCallsOfOneContext) {
  // One thread, no record between its calls, but the second and third carry another context.
  stream::RecordStore store(size_t{1} << 20);
  Keep(store, {api::glEnable, 1, 10, 100, 101, 7}, [](stream::CallEncoder& e) { e.Unsigned(GL_BLEND); });
  Keep(store, {api::glUniform1i, 1, 11, 110, 112, 8}, [](stream::CallEncoder& e) {
    e.Signed(4);
    e.Signed(-9);
  });
  Keep(store, {api::glDisable, 1, 12, 120, 125, 8}, [](stream::CallEncoder& e) { e.Unsigned(GL_DITHER); });
  EXPECT_EQ(store.PrepareCalls(functions_, [](int) { return true; }), 3u);

  stream::StoredRecords records(store);
  stream::Record record;
  std::vector<std::pair<uint64_t, uint64_t>> runs;  // (calls, context)
  std::vector<const stream::PreparedRun*> heads;
  while (records.Next(&record)) {
    ASSERT_NE(record.prepared, nullptr);
    runs.emplace_back(record.prepared->count, record.prepared->context);
    heads.push_back(record.prepared);
  }
  EXPECT_TRUE(records.error().empty());
  ASSERT_EQ(runs, (std::vector<std::pair<uint64_t, uint64_t>>{{1, 7}, {2, 8}}));
  EXPECT_EQ(heads[0]->first_start_ns, 100u);
  EXPECT_EQ(heads[0]->last_end_ns, 101u);
  EXPECT_EQ(heads[1]->first_start_ns, 110u);
  EXPECT_EQ(heads[1]->last_end_ns, 125u);
  const stream::PreparedCall* uniform = heads[1]->first();
  EXPECT_EQ(uniform->slot, api::glUniform1i);
  EXPECT_EQ(uniform->sequence, 11u);
  ASSERT_EQ(uniform->argument_count, 2u);
  EXPECT_EQ(uniform->arguments()[0].i, 4);
  EXPECT_EQ(uniform->arguments()[1].i, -9);
  const stream::PreparedCall* disable = uniform->next();
  EXPECT_EQ(disable->slot, api::glDisable);
  EXPECT_EQ(disable->arguments()[0].u, uint64_t{GL_DITHER});
}

TEST_F(RecordStoreTest, PreparingStopsAtTheBudgetAndKeepsEveryRecord) {
  stream::RecordStore roomy(size_t{1} << 20);
  KeepCalls(roomy);
  roomy.PrepareCalls(functions_, [](int) { return true; });
  // Room for the records and the first prepared call only.
  const size_t first_call = sizeof(stream::PreparedRun) + sizeof(stream::PreparedCall) + 5 * sizeof(stream::PreparedWord);
  stream::RecordStore tight(roomy.held_bytes() + first_call);
  runs_.clear();
  KeepCalls(tight);
  ASSERT_FALSE(tight.overflowed());
  EXPECT_EQ(tight.PrepareCalls(functions_, [](int) { return true; }), 1u);
  EXPECT_EQ(tight.prepared_bytes(), first_call);
  stream::StoredRecords records(tight);
  stream::Record record;
  size_t n = 0, prepared = 0;
  while (records.Next(&record)) {
    ++n;
    if (record.prepared != nullptr) prepared += record.prepared->count;
  }
  EXPECT_EQ(n, 6u);
  EXPECT_EQ(prepared, 1u);
  // The budget counts each record's entry beside its payload.
  EXPECT_GT(roomy.held_bytes(), roomy.payload_bytes() + 5 * 32);
  stream::RecordStore payloads_only(roomy.payload_bytes());
  runs_.clear();
  KeepCalls(payloads_only);
  EXPECT_TRUE(payloads_only.overflowed());
}

TEST_F(RecordStoreTest, PreparingStopsAtARecordThatDoesNotDecode) {
  stream::RecordStore store(size_t{1} << 20);
  Keep(store, {api::glEnable, 1, 1, 10, 11}, [](stream::CallEncoder& e) { e.Unsigned(GL_BLEND); });
  stream::ByteBuffer cut;  // glEnable without its argument and times
  stream::CallRun run;
  stream::CallEncoder e(cut, run, api::glEnable, 2, 7, 0);
  e.End();
  KeepBytes(store, cut, 1);
  Keep(store, {api::glDisable, 1, 3, 30, 31}, [](stream::CallEncoder& e) { e.Unsigned(GL_BLEND); });
  EXPECT_EQ(store.PrepareCalls(functions_, [](int) { return true; }), 1u);
  stream::StoredRecords records(store);
  stream::Record record;
  std::vector<bool> prepared;
  while (records.Next(&record)) {
    prepared.push_back(record.prepared != nullptr);
    if (record.prepared != nullptr) {
      EXPECT_EQ(record.prepared->count, 1u);
    }
  }
  EXPECT_EQ(prepared, (std::vector<bool>{true, false, false}));
}

TEST(RecordStore, AnEmptyRecordFirstIsKept) {
  stream::RecordStore store(1024);
  const uint8_t bytes[3] = {1, 2, 3};
  store.Keep({stream::RecordType::kFrame, {}, 1, 0});
  store.Keep({stream::RecordType::kMemory, bytes, 1, 0});
  stream::StoredRecords records(store);
  stream::Record record;
  ASSERT_TRUE(records.Next(&record));
  EXPECT_EQ(record.type, stream::RecordType::kFrame);
  EXPECT_TRUE(record.payload.empty());
  ASSERT_TRUE(records.Next(&record));
  EXPECT_EQ(std::vector<uint8_t>(record.payload.begin(), record.payload.end()), std::vector<uint8_t>(bytes, bytes + 3));
  EXPECT_FALSE(records.Next(&record));
  EXPECT_EQ(store.payload_bytes(), 3u);
}

TEST(RecordStore, EveryPayloadLiesWithTheSlackAfterIt) {
  stream::RecordStore store(size_t{64} << 20);
  const uint8_t small[5] = {1, 2, 3, 4, 5};
  const std::vector<uint8_t> large(size_t{17} << 20, 7);  // larger than a block: one of its own
  store.Keep({stream::RecordType::kMemory, small, 1, 0});
  store.Keep({stream::RecordType::kMemory, large, 1, 0});
  store.Keep({stream::RecordType::kFrame, {}, 1, 0});
  store.Keep({stream::RecordType::kMemory, small, 1, 0});
  stream::StoredRecords records(store);
  stream::Record record;
  int seen = 0;
  while (records.Next(&record)) {
    ++seen;
    if (record.payload.empty()) {
      EXPECT_EQ(record.readable_after, 0u);
      continue;
    }
    ASSERT_TRUE(stream::SlackReader::Fits(record.readable_after)) << "record " << seen;
    // The last byte the record says is readable.
    const volatile uint8_t* last = record.payload.data() + record.payload.size() + record.readable_after - 1;
    (void)*last;
  }
  EXPECT_EQ(seen, 4);
}

}  // namespace
