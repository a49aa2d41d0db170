#pragma once
// The trace file container: a header, then compressed chunks of the command
// stream, then (at a clean finish) a frame index and a trailer. It knows
// nothing of GL or of record contents: a chunk's payload is an opaque byte
// range of whole records from one app thread. Layout: docs/trace-format.md.

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "stream/byte_writer.h"

namespace strata::stream {

// Where a chunk's raw bytes go (trace_file.cpp): room for exactly n bytes,
// every one of which is written before the chunk is handed out.
class ChunkSink {
 public:
  virtual uint8_t* Room(size_t n) = 0;
  virtual void Clear() = 0;

 protected:
  ~ChunkSink() = default;
};

inline constexpr uint32_t kTraceFormatVersion = 1;

enum class Compression { kNone, kLz4, kZstd };

// For fuzz targets only (fuzz/trace_file_fuzz.cpp): CRC mismatches are let
// through, so that mutated bytes reach the decompressors and the readers
// behind them. The CRC checks themselves have tests of their own.
void IgnoreChecksumsForFuzzing();

// Accepts "none", "lz4", "zstd".
bool ParseCompression(std::string_view name, Compression* out);
const char* CompressionName(Compression compression);

struct TraceHeader {
  uint32_t format_version = kTraceFormatVersion;  // The writer always writes its own.
  std::string program;
  int64_t pid = 0;
  std::string command_line;
  int64_t start_time_unix_ns = 0;
  // Anything else (driver strings, ...). Keys must not be one of the fixed
  // field names above ("program", "pid", "command_line", "start_time_unix_ns").
  std::map<std::string, std::string> extra;
};

struct ChunkInfo {
  uint32_t thread_id = 0;
  uint64_t first_sequence = 0;
  uint32_t record_count = 0;
  uint32_t first_frame = 0;
};

struct FrameIndexEntry {
  uint32_t frame = 0;
  uint64_t chunk_offset = 0;  // Every record with sequence >= `sequence` lies at or after it.
  uint64_t sequence = 0;

  bool operator==(const FrameIndexEntry&) const = default;
};

class TraceFileWriter {
 public:
  // Creates (truncates) `path` and writes the file header. On failure returns
  // null and sets *error to a message naming the path and the reason.
  static std::unique_ptr<TraceFileWriter> Create(const std::string& path, const TraceHeader& header,
                                                 Compression compression, std::string* error);
  // The same stream over a connected socket (the live trace): the host side
  // stores the bytes it receives and has a trace file. Takes `fd` over.
  static std::unique_ptr<TraceFileWriter> CreateOnSocket(int fd, const std::string& description,
                                                         const TraceHeader& header, Compression compression,
                                                         std::string* error);
  // Without Finish the file is just closed: readable, but without an index.
  ~TraceFileWriter();
  TraceFileWriter(const TraceFileWriter&) = delete;
  TraceFileWriter& operator=(const TraceFileWriter&) = delete;

  // Compresses `records` (outside the lock, so threads compress in parallel)
  // and appends the chunk with one write(2). Thread-safe. After a failed write
  // the writer stays failed and every later call returns the same error.
  bool WriteChunk(std::span<const uint8_t> records, const ChunkInfo& info, std::string* error);

  // Notes that frame `frame` starts with the record numbered `sequence`: its
  // index entry points at the next chunk to be written. Call it before any
  // record with a sequence >= `sequence` is passed to WriteChunk (from any
  // thread); records with smaller sequences may still follow that offset.
  void AddFrame(uint32_t frame, uint64_t sequence);

  // Writes the index and trailer and closes the file. Thread-safe, but no
  // WriteChunk may follow it.
  bool Finish(std::string* error);

  const std::string& path() const { return path_; }

 private:
  TraceFileWriter(std::string path, int fd, Compression compression, uint64_t offset);
  static std::unique_ptr<TraceFileWriter> Start(int descriptor, const std::string& path, const TraceHeader& header,
                                                Compression compression, std::string* error);
  bool is_socket_ = false;
  // Appends `bytes` at offset_ under mu_; sets the sticky failure on error.
  bool AppendLocked(std::span<const uint8_t> bytes, std::string* error);

  const std::string path_;
  const Compression compression_;
  std::mutex mu_;
  int fd_;                       // -1 once closed.
  uint64_t offset_;              // Where the next chunk goes.
  std::string failure_;          // Sticky error after a failed write.
  std::vector<FrameIndexEntry> frames_;
};

struct ChunkLocation {
  uint64_t offset = 0;
  ChunkInfo info;
};

class TraceFileReader {
 public:
  // Reads and checks the file header, and looks for the trailer and index.
  // On failure returns null with *error naming the path, the byte offset and
  // the reason (not a trace, unsupported version, truncated header, ...).
  static std::unique_ptr<TraceFileReader> Open(const std::string& path, std::string* error);
  ~TraceFileReader();
  TraceFileReader(const TraceFileReader&) = delete;
  TraceFileReader& operator=(const TraceFileReader&) = delete;

  const TraceHeader& header() const { return header_; }

  // Reads the next data chunk into *records (decompressed) and *info.
  // Returns false at the end: with *error empty at a clean end (the index, or
  // the end of a file that stops on a chunk boundary); with *error set at a
  // truncated or corrupt chunk. A failure is sticky.
  bool NextChunk(std::vector<uint8_t>* records, ChunkInfo* info, std::string* error);
  // The same into a buffer that only grows (its bytes in use are
  // records->bytes()): no chunk zero-fills memory the decompressor then
  // overwrites. For readers that go through a whole trace.
  bool NextChunk(ByteBuffer* records, ChunkInfo* info, std::string* error);

  // True when the trailer and a valid index were found (the writer finished).
  bool complete() const { return index_offset_ != 0; }
  // The frame index; empty unless complete().
  const std::vector<FrameIndexEntry>& frames() const { return frames_; }

  // Lists the data chunks from their headers alone (no decompression), in
  // file order. False with *error at the first truncated or damaged header;
  // *chunks then holds every chunk before it.
  bool ScanChunks(std::vector<ChunkLocation>* chunks, std::string* error);

  // Continues reading at the chunk starting at `offset` (e.g. a frames()
  // entry's chunk_offset). Checks that a chunk starts there.
  bool SeekToChunkAt(uint64_t offset, std::string* error);
  // The offset of the next chunk NextChunk reads.
  uint64_t offset() const { return offset_; }

 private:
  TraceFileReader(std::string path, int fd) : path_(std::move(path)), fd_(fd) {}
  bool ReadHeader(std::string* error);
  void LoadIndex();
  std::string ChunkError(uint64_t at, const std::string& what) const;
  // An index at byte `offset` that no trailer confirms: the file was cut while it was finished.
  std::string CutIndexError(uint64_t offset, uint64_t chunks_before) const;
  bool NextChunkInto(ChunkSink* records, ChunkInfo* info, std::string* error);

  const std::string path_;
  const int fd_;
  TraceHeader header_;
  uint64_t data_start_ = 0;    // First chunk, right after the file header.
  uint64_t offset_ = 0;
  uint64_t index_offset_ = 0;  // 0 unless complete().
  uint64_t chunks_read_ = 0;   // Since Open or the last seek, for messages.
  std::string failure_;
  std::vector<FrameIndexEntry> frames_;
  std::vector<uint8_t> stored_;  // Reused buffer for a chunk's stored bytes.
};

}  // namespace strata::stream
