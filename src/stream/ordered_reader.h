#pragma once
// Hands out the records of a trace file in the order the calls happened.
// A file holds per-thread chunks in the order they were flushed, so one
// thread's later calls can come before another thread's earlier ones; this
// reader merges the threads by call sequence. Other records (memory,
// framebuffer, frame) keep their place in their thread: they go out right
// after the call before them, or before the thread's next call. Only one
// decompressed chunk per thread is held at a time.

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "stream/call_decoder.h"
#include "stream/record_reader.h"
#include "stream/record_source.h"
#include "stream/trace_file.h"

namespace strata::stream {

class OrderedRecordReader final : public RecordSource {
 public:
  // Opens `path` and lists its chunks. Null with *error when the file is not
  // a readable trace; a file cut short opens and reads up to the damage.
  static std::unique_ptr<OrderedRecordReader> Open(const std::string& path, std::string* error);

  const TraceHeader& header() const { return file_->header(); }
  // The file's frame index (trace_file.h): entry k marks where frame k + 1
  // begins. Empty for a file that was not finished cleanly.
  const std::vector<FrameIndexEntry>& frame_index() const { return file_->frames(); }
  const FunctionTable& functions() const { return functions_; }
  // The file was finished (it has its index and trailer); a file that was not
  // can still read cleanly to a chunk boundary.
  bool complete() const { return file_->complete(); }
  // How many threads have chunks in the file.
  size_t thread_count() const { return threads_.size(); }

  // The next record in call order; false at the end (see error()). Inline
  // for a caller that knows the class (ReadAhead): most records of a trace of
  // one thread are the next of its loaded chunk, in file order.
  bool Next(Record* record) override {
    if (only_ != nullptr && !failed_) [[likely]] {
      auto& [thread, cursor] = *only_;
      if (cursor.loaded && cursor.at < cursor.records->size) [[likely]] return TakeRecord(thread, cursor, record);
    }
    return NextOutOfLine(record);
  }
  // Empty after a clean end; otherwise what stopped the reading, with the byte offset.
  const std::string& error() const override { return error_; }
  bool truncated() const override { return truncated_; }
  // The chunk buffer the record came from: each chunk is read into a buffer
  // of its own, which goes back to a pool once nobody holds it.
  std::shared_ptr<const void> PayloadOwner(uint64_t chunk) const override;
  // Each chunk's buffer has SlackReader's slack after its records.
  size_t PayloadSlack() const override;

 private:
  // Decompressed chunks' buffers not in use, for the next chunks (they only grow).
  struct ChunkBuffers {
    std::mutex mu;
    std::vector<std::unique_ptr<ByteBuffer>> spare;
  };
  struct ThreadCursor {
    std::deque<ChunkLocation> pending;  // chunks not read yet, in file order
    std::shared_ptr<ByteBuffer> records;  // the chunk being read: bytes(); null when none is
    size_t at = 0;
    bool loaded = false;
    uint64_t chunk_serial = 0;          // identifies the loaded chunk for CallDecoder
    uint64_t last_sequence = 0;         // of the last call handed out from the loaded chunk
    bool seen_call = false;             // in the loaded chunk
  };

  explicit OrderedRecordReader(std::unique_ptr<TraceFileReader> file) : file_(std::move(file)) {}
  std::shared_ptr<ByteBuffer> TakeChunkBuffer();
  bool Load(uint32_t thread, ThreadCursor& cursor);
  // The sequence of the call at the cursor, or false when the record there is not a call.
  bool PeekSequence(const ThreadCursor& cursor, uint64_t* sequence, bool* malformed) const;
  // The record at the cursor, the cursor moved past it; a damaged header fails the reader.
  bool TakeRecord(uint32_t thread, ThreadCursor& cursor, Record* record) {
    if (!ReadRecordAt(cursor.records->bytes(), &cursor.at, record)) return DamagedHeader(thread, cursor);
    record->thread_id = thread;
    record->chunk = cursor.chunk_serial;
    return true;
  }
  // Next() past the end of a chunk, or merging several threads.
  bool NextOutOfLine(Record* record);
  // Fails the reader for a record whose header does not decode; false.
  [[gnu::cold]] bool DamagedHeader(uint32_t thread, const ThreadCursor& cursor);
  void Fail(const std::string& message, bool truncated);

  std::unique_ptr<TraceFileReader> file_;
  std::shared_ptr<ChunkBuffers> buffers_ = std::make_shared<ChunkBuffers>();
  FunctionTable functions_;
  std::map<uint32_t, ThreadCursor> threads_;
  // threads_' one entry, in a trace of one thread (null otherwise).
  std::pair<const uint32_t, ThreadCursor>* only_ = nullptr;
  uint64_t serials_ = 0;
  std::string error_;
  std::string scan_error_;  // reported once the readable chunks are used up
  bool truncated_ = false, scan_truncated_ = false, failed_ = false;
};

}  // namespace strata::stream
