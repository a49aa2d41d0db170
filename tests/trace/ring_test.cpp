// The per-thread rings of raw entries (src/layers/trace/raw_entry.h): entries
// of every size, many times the ring's size in all, from three threads at once,
// must come out of the encoder as exactly the calls that were made, in order,
// with their bytes: entries that end exactly at the ring's end, entries that
// move to its start, blobs that go through the heap.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "layers/trace/next_functions.h"
#include "layers/trace/trace_session.h"
#include "layers/trace/trace_wrappers.h"
#include "stream/call_decoder.h"
#include "stream/record_reader.h"
#include "support/scratch.h"

namespace {

using namespace strata;

void StubBufferSubData(GLenum, GLintptr, GLsizeiptr, const void*) {}
void StubUniform4f(GLint, GLfloat, GLfloat, GLfloat, GLfloat) {}
void StubUniform2i(GLint, GLint, GLint) {}

constexpr int kCallsPerThread = 60000;
constexpr int kSmallCalls = 200000;

// The size of the bytes call `i` passes: mostly small and every one a
// different multiple of nothing in particular, now and then large enough to
// move an entry across the ring's end, or to go through the heap.
size_t SizeOf(int i) {
  if (i % 997 == 0) return 40000;  // over the inline limit: through the heap
  if (i % 331 == 0) return 12000 + static_cast<size_t>(i % 13);
  return static_cast<size_t>((i * 7919) % 301);
}

uint8_t ByteOf(int thread, int i, size_t j) { return static_cast<uint8_t>(thread * 101 + i * 7 + j); }

// Thread 0 calls glUniform2i only, a state call: its entries are 4 words
// (header, sequence, 3 4-byte parameters padded), so they end exactly at the
// end of the ring, time and again. Its negative values must come back.
void MakeSmallCalls() {
  auto uniform = reinterpret_cast<PFNGLUNIFORM2IPROC>(trace::kTraceWrappers[api::glUniform2i]);
  for (int i = 0; i < kSmallCalls; ++i) uniform(0, i, -i);
}

void MakeCalls(int thread) {
  auto sub_data = reinterpret_cast<PFNGLBUFFERSUBDATAPROC>(trace::kTraceWrappers[api::glBufferSubData]);
  auto uniform = reinterpret_cast<PFNGLUNIFORM4FPROC>(trace::kTraceWrappers[api::glUniform4f]);
  std::vector<uint8_t> bytes(40000);
  for (int i = 0; i < kCallsPerThread; ++i) {
    size_t size = SizeOf(i);
    for (size_t j = 0; j < size; ++j) bytes[j] = ByteOf(thread, i, j);
    sub_data(GL_ARRAY_BUFFER, thread * 1000000 + i, static_cast<GLsizeiptr>(size), bytes.data());
    if (i % 3 == 0) uniform(thread, static_cast<float>(i), 0.5f, 0.25f, 1.0f);
  }
}

TEST(TraceRing, EntriesOfEverySizeFromThreeThreadsDecodeInOrder) {
  trace::g_next_functions[api::glBufferSubData] = reinterpret_cast<void*>(&StubBufferSubData);
  trace::g_next_functions[api::glUniform4f] = reinterpret_cast<void*>(&StubUniform4f);
  trace::g_next_functions[api::glUniform2i] = reinterpret_cast<void*>(&StubUniform2i);
  std::string path = strata::test::ScratchPath("ring.strace");
  std::string error;
  ASSERT_TRUE(trace::TraceSession::Get().Start("file:" + path, "lz4", &error)) << error;
  std::thread a(MakeSmallCalls), b(MakeCalls, 1), c(MakeCalls, 2);
  a.join();
  b.join();
  c.join();
  trace::TraceSession::Get().Finish();

  auto reader = stream::RecordReader::Open(path, &error);
  ASSERT_NE(reader, nullptr) << error;
  EXPECT_TRUE(reader->complete());
  stream::CallDecoder decoder(reader->functions());
  stream::Record record;
  stream::DecodedCall call;
  std::map<uint32_t, int> next_i;            // per app thread: the next glBufferSubData expected
  std::map<uint32_t, uint64_t> last_sequence;
  std::vector<bool> seen(kSmallCalls + 4 * static_cast<size_t>(kCallsPerThread), false);
  int small = 0;
  size_t calls = 0;
  while (reader->Next(&record)) {
    if (record.type != stream::RecordType::kCall) continue;
    ASSERT_TRUE(decoder.Decode(record.payload, record.thread_id, record.chunk, &call, &error)) << error;
    if (last_sequence.count(record.thread_id)) {
      ASSERT_GT(call.sequence, last_sequence[record.thread_id]);
    }
    last_sequence[record.thread_id] = call.sequence;
    ASSERT_LT(call.sequence, seen.size());
    ASSERT_FALSE(seen[call.sequence]) << "sequence " << call.sequence << " twice";
    seen[call.sequence] = true;
    ++calls;
    if (call.slot == api::glUniform2i) {
      ASSERT_EQ(call.args[1].i, small) << "calls of a thread in order";
      ASSERT_EQ(call.args[2].i, -small);
      ++small;
      continue;
    }
    if (call.slot == api::glUniform4f) {
      ASSERT_EQ(call.args[1].f, static_cast<float>(next_i[record.thread_id] - 1));
      continue;
    }
    ASSERT_EQ(call.slot, api::glBufferSubData) << call.name;
    int64_t offset = call.args[1].i;
    int thread = static_cast<int>(offset / 1000000);
    int i = static_cast<int>(offset % 1000000);
    ASSERT_EQ(i, next_i[record.thread_id]) << "calls of a thread in order";
    next_i[record.thread_id] = i + 1;
    size_t size = SizeOf(i);
    ASSERT_EQ(call.args[2].i, static_cast<int64_t>(size));
    ASSERT_TRUE(call.args[3].has_in);
    ASSERT_EQ(call.args[3].in.size(), size) << "call " << i;
    for (size_t j = 0; j < size; ++j) ASSERT_EQ(call.args[3].in[j], ByteOf(thread, i, j)) << "call " << i;
  }
  EXPECT_TRUE(reader->error().empty()) << reader->error();
  EXPECT_EQ(small, kSmallCalls);
  EXPECT_EQ(calls, kSmallCalls + 2 * (kCallsPerThread + (kCallsPerThread + 2) / 3));
  ASSERT_EQ(next_i.size(), 2u);
  for (auto& [thread, n] : next_i) EXPECT_EQ(n, kCallsPerThread);
  // Every sequence number from 0 was given once.
  for (size_t s = 0; s < calls; ++s) ASSERT_TRUE(seen[s]) << s;
  if (!HasFailure()) unlink(path.c_str());
}

// A child forked from a traced process has none of the tracer's threads: it
// must neither hang when its ring fills nor touch the parent's trace, even
// when it exits through exit() (and so through the tracer's atexit handler).
TEST(TraceRing, ForkedChildNeitherHangsNorWritesTheParentsTrace) {
  trace::g_next_functions[api::glUniform2i] = reinterpret_cast<void*>(&StubUniform2i);
  auto uniform = reinterpret_cast<PFNGLUNIFORM2IPROC>(trace::kTraceWrappers[api::glUniform2i]);
  std::string path = strata::test::ScratchPath("ring-fork.strace");
  std::string error;
  ASSERT_TRUE(trace::TraceSession::Get().Start("file:" + path, "lz4", &error)) << error;
  uniform(0, 1, 1);
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    for (int i = 0; i < 500000; ++i) uniform(0, 2, i);  // many rings' worth
    std::exit(0);
  }
  int status = 0;
  for (int waited = 0; waited < 200 && waitpid(child, &status, WNOHANG) == 0; ++waited) usleep(50000);
  if (waitpid(child, &status, WNOHANG) == 0) {
    kill(child, SIGKILL);
    waitpid(child, &status, 0);
    FAIL() << "the forked child hung";
  }
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  uniform(0, 3, 3);
  trace::TraceSession::Get().Finish();

  auto reader = stream::RecordReader::Open(path, &error);
  ASSERT_NE(reader, nullptr) << error;
  EXPECT_TRUE(reader->complete());
  stream::CallDecoder decoder(reader->functions());
  stream::Record record;
  stream::DecodedCall call;
  std::vector<int64_t> seen;
  while (reader->Next(&record)) {
    if (record.type != stream::RecordType::kCall) continue;
    ASSERT_TRUE(decoder.Decode(record.payload, record.thread_id, record.chunk, &call, &error)) << error;
    seen.push_back(call.args[1].i);
  }
  EXPECT_TRUE(reader->error().empty()) << reader->error();
  EXPECT_EQ(seen, (std::vector<int64_t>{1, 3})) << "the parent's calls only";
  unlink(path.c_str());
}

}  // namespace
