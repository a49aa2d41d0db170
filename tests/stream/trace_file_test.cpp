// The trace file container: round trips, and every way a file can be cut,
// damaged, foreign or unwritable.
#include "stream/trace_file.h"

#include <dirent.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <thread>

namespace strata::stream {
namespace {

using Bytes = std::vector<uint8_t>;

// Half repetitive (compresses), half random (does not), fixed by `seed`.
Bytes MakeRecords(uint32_t seed, size_t size) {
  std::mt19937 rng(seed);
  Bytes b(size);
  for (size_t i = 0; i < size; ++i) b[i] = (i / 64) % 2 ? static_cast<uint8_t>(rng()) : static_cast<uint8_t>(i % 7);
  return b;
}

Bytes ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return Bytes(std::istreambuf_iterator<char>(in), {});
}

void WriteFile(const std::string& path, const Bytes& bytes, size_t size) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(size));
}

bool Contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

TraceHeader SampleHeader() {
  TraceHeader h;
  h.program = "/usr/bin/glmark2-es2";
  h.pid = 4242;
  h.command_line = "glmark2-es2 --off-screen -b build";
  h.start_time_unix_ns = 1700000000123456789;
  h.extra["gl_renderer"] = "llvmpipe (LLVM 15.0.6, 256 bits)";
  h.extra["empty"] = "";
  return h;
}

struct Chunk {
  Bytes records;
  ChunkInfo info;
};

struct ReadResult {
  std::vector<Chunk> chunks;
  std::vector<uint64_t> offsets;  // Where each chunk started.
  std::string error;
};

ReadResult ReadAll(TraceFileReader* reader) {
  ReadResult r;
  Chunk c;
  for (uint64_t at = reader->offset(); reader->NextChunk(&c.records, &c.info, &r.error); at = reader->offset()) {
    r.chunks.push_back(c);
    r.offsets.push_back(at);
  }
  return r;
}

void ExpectSameChunk(const Chunk& a, const Chunk& b) {
  EXPECT_EQ(a.records, b.records);
  EXPECT_EQ(a.info.thread_id, b.info.thread_id);
  EXPECT_EQ(a.info.first_sequence, b.info.first_sequence);
  EXPECT_EQ(a.info.record_count, b.info.record_count);
  EXPECT_EQ(a.info.first_frame, b.info.first_frame);
}

// The fd a writer holds for `path`, found through /proc, so a test can swap
// /dev/full in behind it.
int FindFdFor(const std::string& path) {
  std::string target = std::filesystem::canonical(path);
  for (const auto& entry : std::filesystem::directory_iterator("/proc/self/fd")) {
    std::error_code ec;
    if (std::filesystem::read_symlink(entry.path(), ec) == target) return std::stoi(entry.path().filename());
  }
  return -1;
}

class TraceFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (std::filesystem::temp_directory_path() / "strata-stream-XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string Path(const std::string& name) const { return dir_ + "/" + name; }

  // Writes `chunks` and one frame per chunk, optionally finishing.
  void WriteTrace(const std::string& path, Compression compression, const std::vector<Chunk>& chunks, bool finish) {
    std::string error;
    auto writer = TraceFileWriter::Create(path, SampleHeader(), compression, &error);
    ASSERT_TRUE(writer) << error;
    for (const Chunk& c : chunks) {
      writer->AddFrame(c.info.first_frame, c.info.first_sequence);
      ASSERT_TRUE(writer->WriteChunk(c.records, c.info, &error)) << error;
    }
    if (finish) {
      ASSERT_TRUE(writer->Finish(&error)) << error;
    }
  }

  std::vector<Chunk> SampleChunks(size_t count, size_t size) {
    std::vector<Chunk> chunks;
    for (uint32_t i = 0; i < count; ++i)
      chunks.push_back({MakeRecords(i, size + i * 37), {i % 2 + 1, 100 * i, 10 + i, i}});
    return chunks;
  }

  std::string dir_;
};

class TraceFileCompressionTest : public TraceFileTest, public ::testing::WithParamInterface<Compression> {};

TEST_P(TraceFileCompressionTest, RoundTripsChunksHeaderAndFrameIndex) {
  const std::string path = Path("trace.strata");
  std::vector<Chunk> chunks = SampleChunks(5, 20000);
  chunks.push_back({{}, {7, 999, 0, 5}});                                       // Empty chunk.
  chunks.push_back({Bytes(50000, 0xab), {8, 1000, 50000, 6}});                   // Very compressible.
  std::mt19937 rng(1);
  Bytes noise(4096);
  for (auto& b : noise) b = static_cast<uint8_t>(rng());
  chunks.push_back({noise, {9, 2000, 1, 7}});                                    // Incompressible: stored raw.
  WriteTrace(path, GetParam(), chunks, true);

  std::string error;
  auto reader = TraceFileReader::Open(path, &error);
  ASSERT_TRUE(reader) << error;
  const TraceHeader& h = reader->header();
  TraceHeader want = SampleHeader();
  EXPECT_EQ(h.format_version, kTraceFormatVersion);
  EXPECT_EQ(h.program, want.program);
  EXPECT_EQ(h.pid, want.pid);
  EXPECT_EQ(h.command_line, want.command_line);
  EXPECT_EQ(h.start_time_unix_ns, want.start_time_unix_ns);
  EXPECT_EQ(h.extra, want.extra);
  EXPECT_TRUE(reader->complete());

  ReadResult r = ReadAll(reader.get());
  EXPECT_EQ(r.error, "");
  ASSERT_EQ(r.chunks.size(), chunks.size());
  for (size_t i = 0; i < chunks.size(); ++i) ExpectSameChunk(r.chunks[i], chunks[i]);

  // One frame per chunk, each pointing at its chunk.
  ASSERT_EQ(reader->frames().size(), chunks.size());
  for (size_t i = 0; i < chunks.size(); ++i) {
    FrameIndexEntry e{chunks[i].info.first_frame, r.offsets[i], chunks[i].info.first_sequence};
    EXPECT_EQ(reader->frames()[i], e);
  }
  // Seeking to a frame's chunk reads on from there.
  ASSERT_TRUE(reader->SeekToChunkAt(reader->frames()[3].chunk_offset, &error)) << error;
  ReadResult rest = ReadAll(reader.get());
  EXPECT_EQ(rest.error, "");
  ASSERT_EQ(rest.chunks.size(), chunks.size() - 3);
  ExpectSameChunk(rest.chunks[0], chunks[3]);

  size_t raw = 0;
  for (const Chunk& c : chunks) raw += c.records.size();
  const size_t file_size = std::filesystem::file_size(path);
  if (GetParam() == Compression::kNone)
    EXPECT_GT(file_size, raw);
  else
    EXPECT_LT(file_size, raw * 3 / 4) << "compression should shrink the repetitive half";
}

// Catches: a reused buffer that hands out bytes of an earlier, larger chunk,
// or a size left over from one, when chunks shrink, grow, are empty or stored raw.
TEST_P(TraceFileCompressionTest, AGrowingBufferReadsEveryChunkAsTheVectorDoes) {
  const std::string path = Path("buffer.strata");
  std::vector<Chunk> chunks = SampleChunks(3, 30000);
  chunks.push_back({MakeRecords(40, 100), {3, 300, 5, 3}});    // Much smaller than the one before.
  chunks.push_back({{}, {4, 400, 0, 4}});                      // Empty.
  chunks.push_back({Bytes(90000, 0x5c), {5, 500, 9, 5}});      // Larger than any before.
  std::mt19937 rng(2);
  Bytes noise(2000);
  for (auto& b : noise) b = static_cast<uint8_t>(rng());
  chunks.push_back({noise, {6, 600, 1, 6}});                   // Stored raw.
  WriteTrace(path, GetParam(), chunks, true);

  std::string error;
  auto reader = TraceFileReader::Open(path, &error);
  ASSERT_TRUE(reader) << error;
  ByteBuffer buffer;
  ChunkInfo info;
  size_t read = 0;
  while (reader->NextChunk(&buffer, &info, &error)) {
    ASSERT_LT(read, chunks.size());
    const Bytes bytes(buffer.bytes().begin(), buffer.bytes().end());
    EXPECT_EQ(bytes, chunks[read].records) << "chunk " << read;
    EXPECT_EQ(info.first_sequence, chunks[read].info.first_sequence);
    ++read;
  }
  EXPECT_EQ(error, "");
  EXPECT_EQ(read, chunks.size());
  EXPECT_GE(buffer.storage.size(), 90000u);  // kept for the next trace's chunks
}

// Catches: a reader that crashes on, or loses whole chunks before, a cut-short file.
TEST_P(TraceFileCompressionTest, TruncationAtEveryByteReadsUpToTheLastWholeChunk) {
  const std::string full_path = Path("full.strata");
  std::vector<Chunk> chunks = SampleChunks(3, 150);
  WriteTrace(full_path, GetParam(), chunks, true);
  const Bytes full = ReadFile(full_path);

  std::string error;
  auto reader = TraceFileReader::Open(full_path, &error);
  ASSERT_TRUE(reader) << error;
  const uint64_t data_start = reader->offset();
  ReadResult whole = ReadAll(reader.get());
  ASSERT_EQ(whole.chunks.size(), 3u);
  std::vector<uint64_t> ends(whole.offsets.begin() + 1, whole.offsets.end());
  ends.push_back(reader->offset());  // The index's offset.
  const uint64_t index_offset = ends.back();

  const std::string path = Path("cut.strata");
  for (size_t cut = 0; cut < full.size(); ++cut) {
    SCOPED_TRACE("cut at byte " + std::to_string(cut));
    WriteFile(path, full, cut);
    error.clear();
    auto r = TraceFileReader::Open(path, &error);
    if (cut < data_start) {
      ASSERT_FALSE(r);
      EXPECT_TRUE(Contains(error, path + ": ")) << error;
      EXPECT_TRUE(Contains(error, cut == 0 ? "empty file" : "truncated at byte " + std::to_string(cut))) << error;
      continue;
    }
    ASSERT_TRUE(r) << error;
    EXPECT_FALSE(r->complete());
    EXPECT_TRUE(r->frames().empty());
    ReadResult got = ReadAll(r.get());
    size_t whole_chunks = 0;
    while (whole_chunks < 3 && ends[whole_chunks] <= cut) ++whole_chunks;
    ASSERT_EQ(got.chunks.size(), whole_chunks) << got.error;
    for (size_t i = 0; i < whole_chunks; ++i) ExpectSameChunk(got.chunks[i], chunks[i]);
    const bool on_boundary = cut == data_start || std::find(ends.begin(), ends.end(), cut) != ends.end();
    if (on_boundary) {
      EXPECT_EQ(got.error, "");
    } else if (cut > index_offset) {
      EXPECT_TRUE(Contains(got.error, path + ": index at byte " + std::to_string(index_offset) + " is truncated"))
          << got.error;
    } else {
      uint64_t at = whole_chunks == 0 ? data_start : ends[whole_chunks - 1];
      EXPECT_TRUE(Contains(got.error, path + ": chunk at byte " + std::to_string(at) + " is truncated")) << got.error;
      EXPECT_TRUE(Contains(got.error, std::to_string(whole_chunks) + " chunks read before it")) << got.error;
    }
    // The failure is sticky and never yields more data.
    Chunk c;
    std::string again;
    EXPECT_FALSE(r->NextChunk(&c.records, &c.info, &again));
    EXPECT_EQ(again, got.error);
  }
}

INSTANTIATE_TEST_SUITE_P(Codecs, TraceFileCompressionTest,
                         ::testing::Values(Compression::kNone, Compression::kLz4, Compression::kZstd),
                         [](const auto& info) { return std::string(CompressionName(info.param)); });

// Catches: damage read as data, or an error that does not say where.
TEST_F(TraceFileTest, FlippedByteIsCaughtByTheCrcWithTheChunkOffset) {
  const std::string path = Path("trace.strata");
  std::vector<Chunk> chunks = SampleChunks(3, 3000);
  WriteTrace(path, Compression::kLz4, chunks, true);
  std::string error;
  std::vector<uint64_t> offsets;
  {
    auto reader = TraceFileReader::Open(path, &error);
    ASSERT_TRUE(reader) << error;
    offsets = ReadAll(reader.get()).offsets;
  }
  const Bytes good = ReadFile(path);
  // A payload byte, then a header field (thread id at +20), of the second chunk.
  for (uint64_t delta : {uint64_t{40 + 100}, uint64_t{20}}) {
    SCOPED_TRACE("flipped byte at chunk + " + std::to_string(delta));
    Bytes bad = good;
    bad[offsets[1] + delta] ^= 0x10;
    WriteFile(path, bad, bad.size());
    auto reader = TraceFileReader::Open(path, &error);
    ASSERT_TRUE(reader) << error;
    EXPECT_TRUE(reader->complete());  // The index is intact.
    ReadResult r = ReadAll(reader.get());
    ASSERT_EQ(r.chunks.size(), 1u);
    ExpectSameChunk(r.chunks[0], chunks[0]);
    EXPECT_TRUE(Contains(r.error, path + ": chunk at byte " + std::to_string(offsets[1]) + " is corrupt (CRC mismatch"))
        << r.error;
    EXPECT_TRUE(Contains(r.error, "1 chunks read before it")) << r.error;
    // The third chunk is still reachable by seeking past the damage.
    ASSERT_TRUE(reader->SeekToChunkAt(offsets[2], &error)) << error;
    r = ReadAll(reader.get());
    EXPECT_EQ(r.error, "");
    ASSERT_EQ(r.chunks.size(), 1u);
    ExpectSameChunk(r.chunks[0], chunks[2]);
  }
}

uint32_t Le32(const Bytes& b, size_t at) {
  return b[at] | b[at + 1] << 8 | b[at + 2] << 16 | uint32_t{b[at + 3]} << 24;
}
void SetLe32(Bytes* b, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) (*b)[at + i] = static_cast<uint8_t>(v >> (8 * i));
}
// Recomputes the CRC of the chunk at `at` (header with the CRC zeroed, then
// the stored bytes), so damage gets past it to the checks behind.
void FixCrc(Bytes* b, size_t at) {
  SetLe32(b, at + 16, 0);
  const size_t stored = std::min<size_t>(Le32(*b, at + 8), b->size() - at - 40);
  SetLe32(b, at + 16, static_cast<uint32_t>(crc32(crc32(0, nullptr, 0), b->data() + at, static_cast<uInt>(40 + stored))));
}

TEST_F(TraceFileTest, DamageBehindAValidCrcIsRejected) {
  const std::string path = Path("trace.strata");
  std::vector<uint64_t> offsets;
  struct Case {
    Compression compression;
    size_t field;    // Byte offset in the chunk.
    uint32_t value;  // New u32 there (or a byte, for field 4).
    std::string message;
  };
  const Case cases[] = {
      {Compression::kNone, 12, 2u << 30, "implausible sizes (stored 1000, raw 2147483648"},
      {Compression::kNone, 8, 999, "inconsistent sizes (codec 0, stored 999, raw 1000)"},
      {Compression::kLz4, 12, 1001, "LZ4 data decompresses to 1000 bytes, not 1001"},
      // Refused before 900 MiB is allocated: LZ4 cannot expand a few bytes that far.
      {Compression::kLz4, 12, 900u << 20, "implausible sizes (LZ4 cannot make 943718400 bytes of "},
      {Compression::kLz4, 40, 0xffffffff, "LZ4 decompression failed"},
      {Compression::kZstd, 12, 999, "zstd frame holds 1000 bytes, not 999"},
      {Compression::kZstd, 40, 0, "zstd frame header is invalid"},
      {Compression::kZstd, 4, 7, "unknown codec 7"},
      {Compression::kLz4, 0, 0x4b4e4843 + 1, "bad chunk magic"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.message);
    WriteTrace(path, c.compression, {{MakeRecords(1, 1000), {1, 2, 3, 4}}}, true);
    Bytes b = ReadFile(path);
    std::string error;
    const uint64_t at = TraceFileReader::Open(path, &error)->offset();
    if (c.field == 4)
      b[at + 4] = static_cast<uint8_t>(c.value);
    else
      SetLe32(&b, at + c.field, c.value);
    FixCrc(&b, at);
    WriteFile(path, b, b.size());
    auto reader = TraceFileReader::Open(path, &error);
    ASSERT_TRUE(reader) << error;
    ReadResult r = ReadAll(reader.get());
    EXPECT_TRUE(r.chunks.empty());
    EXPECT_TRUE(Contains(r.error, "chunk at byte " + std::to_string(at) + " is corrupt (" + c.message)) << r.error;
  }
}

TEST_F(TraceFileTest, RandomDamageNeverCrashes) {
  // Run under ASan or valgrind, this checks the reader stays in bounds.
  const std::string path = Path("fuzz.strata");
  std::mt19937 rng(7);
  for (Compression compression : {Compression::kNone, Compression::kLz4, Compression::kZstd}) {
    WriteTrace(path, compression, SampleChunks(3, 400), true);
    const Bytes good = ReadFile(path);
    std::string error;
    const uint64_t start = TraceFileReader::Open(path, &error)->offset();
    for (int round = 0; round < 300; ++round) {
      Bytes b = good;
      const size_t at = start + rng() % (b.size() - start);
      for (int n = 1 + rng() % 3; n > 0; --n) b[at + rng() % std::min<size_t>(8, b.size() - at)] = static_cast<uint8_t>(rng());
      // Re-sign every chunk so the damage reaches the decoders.
      for (size_t off = start; off + 40 <= b.size() && Le32(b, off) == Le32(good, start);
           off += 40 + Le32(b, off + 8)) {
        if (round % 2) FixCrc(&b, off);
        if (Le32(b, off + 8) > b.size()) break;
      }
      WriteFile(path, b, b.size());
      auto reader = TraceFileReader::Open(path, &error);
      ASSERT_TRUE(reader) << error;
      ReadResult r = ReadAll(reader.get());
      EXPECT_TRUE(r.chunks.size() == 3 || !r.error.empty());
    }
  }
}

TEST_F(TraceFileTest, ForeignAndDamagedFilesGiveClearErrors) {
  const std::string png = Path("image.png");
  const Bytes png_bytes = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13, 'I', 'H', 'D', 'R', 0, 0, 0, 1};
  WriteFile(png, png_bytes, png_bytes.size());
  const std::string empty = Path("empty.strata");
  WriteFile(empty, {}, 0);
  const std::string good = Path("good.strata");
  WriteTrace(good, Compression::kZstd, SampleChunks(1, 100), true);
  Bytes bytes = ReadFile(good);
  const std::string newer = Path("v2.strata");
  Bytes v2 = bytes;
  v2[8] = 2;
  WriteFile(newer, v2, v2.size());
  const std::string huge = Path("huge-header.strata");
  Bytes hh = bytes;
  hh[15] = 0x7f;
  WriteFile(huge, hh, hh.size());
  const std::string bad_header = Path("bad-header.strata");
  Bytes bh = bytes;
  bh[30] ^= 1;
  WriteFile(bad_header, bh, bh.size());

  const std::pair<std::string, std::string> cases[] = {
      {png, png + ": not a Strata trace (bad magic at byte 0"},
      {"/bin/true", "/bin/true: not a Strata trace (bad magic at byte 0"},
      {empty, empty + ": empty file (0 bytes), not a Strata trace"},
      {Path("missing.strata"), Path("missing.strata") + ": cannot open: No such file or directory"},
      {dir_, dir_ + ": not a regular file"},
      {newer, newer + ": unsupported trace format version 2 at byte 8 (this build reads version 1)"},
      {huge, huge + ": header length 2130706" /* 0x7f000000 + ... */},
      {bad_header, bad_header + ": file header is corrupt (CRC mismatch"},
  };
  for (const auto& [file, message] : cases) {
    std::string error;
    EXPECT_FALSE(TraceFileReader::Open(file, &error));
    EXPECT_TRUE(Contains(error, message)) << error;
  }
}

TEST_F(TraceFileTest, UnwritablePathsFailCreate) {
  for (const std::string& path : {dir_, std::string("/proc/version"), Path("no/such/dir/trace.strata")}) {
    std::string error;
    EXPECT_FALSE(TraceFileWriter::Create(path, SampleHeader(), Compression::kLz4, &error));
    EXPECT_TRUE(Contains(error, path + ": ")) << error;
    EXPECT_GT(error.size(), path.size() + 10) << error;  // Says why.
  }
  TraceHeader clash = SampleHeader();
  clash.extra["pid"] = "1";
  std::string error;
  EXPECT_FALSE(TraceFileWriter::Create(Path("x.strata"), clash, Compression::kNone, &error));
  EXPECT_TRUE(Contains(error, "clashes")) << error;
}

TEST_F(TraceFileTest, FullDiskIsReportedByCreateWriteChunkAndFinish) {
  // /dev/full: the header write already fails.
  std::string error;
  auto writer = TraceFileWriter::Create("/dev/full", SampleHeader(), Compression::kNone, &error);
  EXPECT_FALSE(writer);
  EXPECT_TRUE(Contains(error, "/dev/full: write failed at byte 0: No space left on device")) << error;

  // The disk fills after the first chunk: swap /dev/full in behind the writer.
  std::vector<Chunk> chunks = SampleChunks(2, 500);
  for (bool fail_in_finish : {false, true}) {
    const std::string path = Path(fail_in_finish ? "b.strata" : "a.strata");
    writer = TraceFileWriter::Create(path, SampleHeader(), Compression::kNone, &error);
    ASSERT_TRUE(writer) << error;
    ASSERT_TRUE(writer->WriteChunk(chunks[0].records, chunks[0].info, &error)) << error;
    int fd = FindFdFor(path);
    ASSERT_GE(fd, 0);
    int full = open("/dev/full", O_WRONLY | O_CLOEXEC);
    ASSERT_GE(full, 0);
    ASSERT_EQ(dup3(full, fd, O_CLOEXEC), fd);
    close(full);
    if (!fail_in_finish) {
      EXPECT_FALSE(writer->WriteChunk(chunks[1].records, chunks[1].info, &error));
      EXPECT_TRUE(Contains(error, path + ": write failed at byte ")) << error;
      EXPECT_TRUE(Contains(error, "No space left on device")) << error;
      std::string again;
      EXPECT_FALSE(writer->WriteChunk(chunks[1].records, chunks[1].info, &again));  // Sticky.
      EXPECT_EQ(again, error);
    }
    std::string finish_error;
    EXPECT_FALSE(writer->Finish(&finish_error));
    EXPECT_TRUE(Contains(finish_error, path + ": write failed at byte ")) << finish_error;
    EXPECT_TRUE(Contains(finish_error, "No space left on device")) << finish_error;
    writer.reset();
    // What reached the disk before it filled is still readable.
    auto reader = TraceFileReader::Open(path, &error);
    ASSERT_TRUE(reader) << error;
    ReadResult r = ReadAll(reader.get());
    EXPECT_EQ(r.error, "");
    ASSERT_EQ(r.chunks.size(), 1u);
    ExpectSameChunk(r.chunks[0], chunks[0]);
  }
}

TEST_F(TraceFileTest, ShortWriteAtAFileSizeLimitLeavesOnePartialChunk) {
  // RLIMIT_FSIZE makes write(2) write what fits, then fail with EFBIG; in a
  // child, so the limit does not reach the test runner.
  const std::string path = Path("limited.strata");
  const size_t kChunk = 3000, kLimit = 10000;
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    signal(SIGXFSZ, SIG_IGN);
    rlimit limit{kLimit, kLimit};
    setrlimit(RLIMIT_FSIZE, &limit);
    std::string error;
    auto writer = TraceFileWriter::Create(path, SampleHeader(), Compression::kNone, &error);
    if (!writer) _exit(2);
    for (uint32_t i = 0; i < 10; ++i)
      if (!writer->WriteChunk(MakeRecords(i, kChunk), {1, i, 1, i}, &error))
        _exit(Contains(error, path + ": write failed at byte ") && Contains(error, "File too large") ? 0 : 3);
    _exit(4);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  ASSERT_EQ(WEXITSTATUS(status), 0);
  EXPECT_EQ(std::filesystem::file_size(path), kLimit);

  std::string error;
  auto reader = TraceFileReader::Open(path, &error);
  ASSERT_TRUE(reader) << error;
  ReadResult r = ReadAll(reader.get());
  ASSERT_EQ(r.chunks.size(), 3u);
  for (uint32_t i = 0; i < 3; ++i) EXPECT_EQ(r.chunks[i].records, MakeRecords(i, kChunk));
  EXPECT_TRUE(Contains(r.error, "is truncated")) << r.error;
}

TEST_F(TraceFileTest, WriterDestroyedWithoutFinishLeavesAReadableFile) {
  const std::string path = Path("unfinished.strata");
  std::vector<Chunk> chunks = SampleChunks(3, 1000);
  WriteTrace(path, Compression::kLz4, chunks, false);
  std::string error;
  auto reader = TraceFileReader::Open(path, &error);
  ASSERT_TRUE(reader) << error;
  EXPECT_FALSE(reader->complete());
  EXPECT_TRUE(reader->frames().empty());
  ReadResult r = ReadAll(reader.get());
  EXPECT_EQ(r.error, "");
  ASSERT_EQ(r.chunks.size(), 3u);
  for (size_t i = 0; i < 3; ++i) ExpectSameChunk(r.chunks[i], chunks[i]);
}

// A program that never swaps (offscreen, compute) leaves an empty frame index.
TEST_F(TraceFileTest, FinishedTraceWithoutFramesIsComplete) {
  const std::string path = Path("no-frames.strata");
  std::vector<Chunk> chunks = SampleChunks(2, 1000);
  std::string error;
  auto writer = TraceFileWriter::Create(path, SampleHeader(), Compression::kLz4, &error);
  ASSERT_TRUE(writer) << error;
  for (const Chunk& c : chunks) ASSERT_TRUE(writer->WriteChunk(c.records, c.info, &error)) << error;
  ASSERT_TRUE(writer->Finish(&error)) << error;
  auto reader = TraceFileReader::Open(path, &error);
  ASSERT_TRUE(reader) << error;
  EXPECT_TRUE(reader->complete());
  EXPECT_TRUE(reader->frames().empty());
  ReadResult r = ReadAll(reader.get());
  EXPECT_EQ(r.error, "");
  ASSERT_EQ(r.chunks.size(), 2u);
}

TEST_F(TraceFileTest, KilledWriterLeavesWholeChunksAndAtMostOnePartial) {
  const std::string path = Path("killed.strata");
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    std::string error;
    auto writer = TraceFileWriter::Create(path, SampleHeader(), Compression::kZstd, &error);
    if (!writer) _exit(2);
    for (uint32_t i = 0;; ++i)
      if (!writer->WriteChunk(MakeRecords(i, 65536), {1, i, 1, i}, &error)) _exit(3);
  }
  int status = 0;
  while (!std::filesystem::exists(path) || std::filesystem::file_size(path) < (4u << 20)) {
    ASSERT_EQ(waitpid(pid, &status, WNOHANG), 0) << "the writer stopped by itself";
    usleep(1000);
  }
  kill(pid, SIGKILL);
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFSIGNALED(status));

  std::string error;
  auto reader = TraceFileReader::Open(path, &error);
  ASSERT_TRUE(reader) << error;
  EXPECT_FALSE(reader->complete());
  ReadResult r = ReadAll(reader.get());
  EXPECT_GT(r.chunks.size(), 10u);
  for (size_t i = 0; i < r.chunks.size(); ++i) {
    EXPECT_EQ(r.chunks[i].info.first_sequence, i);
    EXPECT_EQ(r.chunks[i].records, MakeRecords(static_cast<uint32_t>(i), 65536));
  }
  EXPECT_TRUE(r.error.empty() || Contains(r.error, "is truncated")) << r.error;
}

TEST_F(TraceFileTest, ConcurrentWritersInterleaveWholeChunks) {
  const std::string path = Path("threads.strata");
  constexpr uint32_t kThreads = 2, kChunks = 200;
  std::string error;
  auto writer = TraceFileWriter::Create(path, SampleHeader(), Compression::kLz4, &error);
  ASSERT_TRUE(writer) << error;
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (uint32_t t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      std::string e;
      for (uint32_t i = 0; i < kChunks; ++i) {
        if (t == 0 && i % 10 == 0) writer->AddFrame(i / 10, i);
        if (!writer->WriteChunk(MakeRecords(t * 1000 + i, 1000 + i * 13), {t, i, i, 0}, &e)) ++failures;
      }
    });
  }
  for (auto& thread : threads) thread.join();
  ASSERT_EQ(failures, 0);
  ASSERT_TRUE(writer->Finish(&error)) << error;

  auto reader = TraceFileReader::Open(path, &error);
  ASSERT_TRUE(reader) << error;
  EXPECT_TRUE(reader->complete());
  EXPECT_EQ(reader->frames().size(), kChunks / 10);
  ReadResult r = ReadAll(reader.get());
  EXPECT_EQ(r.error, "");
  ASSERT_EQ(r.chunks.size(), kThreads * kChunks);
  uint32_t next[kThreads] = {};
  for (const Chunk& c : r.chunks) {
    const uint32_t t = c.info.thread_id, i = static_cast<uint32_t>(c.info.first_sequence);
    ASSERT_LT(t, kThreads);
    EXPECT_EQ(i, next[t]++) << "a thread's chunks stay in order";
    EXPECT_EQ(c.records, MakeRecords(t * 1000 + i, 1000 + i * 13));
  }
}

TEST_F(TraceFileTest, SeekRejectsOffsetsThatAreNoChunk) {
  const std::string path = Path("trace.strata");
  WriteTrace(path, Compression::kNone, SampleChunks(2, 100), true);
  std::string error;
  auto reader = TraceFileReader::Open(path, &error);
  ASSERT_TRUE(reader) << error;
  const uint64_t first = reader->offset();
  EXPECT_FALSE(reader->SeekToChunkAt(0, &error));
  EXPECT_TRUE(Contains(error, "cannot seek to byte 0")) << error;
  EXPECT_FALSE(reader->SeekToChunkAt(first + 1, &error));
  EXPECT_TRUE(Contains(error, "no chunk starts at byte " + std::to_string(first + 1))) << error;
  EXPECT_FALSE(reader->SeekToChunkAt(1u << 30, &error));
  EXPECT_TRUE(reader->SeekToChunkAt(first, &error)) << error;
  EXPECT_EQ(ReadAll(reader.get()).chunks.size(), 2u);
}

TEST(CompressionTest, ParsesNames) {
  Compression c = Compression::kNone;
  EXPECT_TRUE(ParseCompression("lz4", &c));
  EXPECT_EQ(c, Compression::kLz4);
  EXPECT_TRUE(ParseCompression("zstd", &c));
  EXPECT_EQ(c, Compression::kZstd);
  EXPECT_TRUE(ParseCompression("none", &c));
  EXPECT_EQ(c, Compression::kNone);
  EXPECT_FALSE(ParseCompression("gzip", &c));
  EXPECT_FALSE(ParseCompression("", &c));
  EXPECT_STREQ(CompressionName(Compression::kZstd), "zstd");
}

}  // namespace
}  // namespace strata::stream
