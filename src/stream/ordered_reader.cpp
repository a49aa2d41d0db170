#include "stream/ordered_reader.h"

#include <limits>

#include "stream/byte_reader.h"
#include "stream/record_format.h"
#include "stream/record_reader.h"
#include "stream/slack_reader.h"

namespace strata::stream {

std::unique_ptr<OrderedRecordReader> OrderedRecordReader::Open(const std::string& path, std::string* error) {
  auto file = TraceFileReader::Open(path, error);
  if (!file) return nullptr;
  FunctionTable functions;
  if (!LoadFunctionTable(file->header(), path, &functions, error)) return nullptr;
  std::unique_ptr<OrderedRecordReader> reader(new OrderedRecordReader(std::move(file)));
  reader->functions_ = std::move(functions);
  std::vector<ChunkLocation> chunks;
  if (!reader->file_->ScanChunks(&chunks, &reader->scan_error_)) {
    reader->scan_truncated_ = reader->scan_error_.find("truncated") != std::string::npos;
  }
  for (const ChunkLocation& chunk : chunks) reader->threads_[chunk.info.thread_id].pending.push_back(chunk);
  if (reader->threads_.size() == 1) reader->only_ = &*reader->threads_.begin();
  return reader;
}

void OrderedRecordReader::Fail(const std::string& message, bool truncated) {
  error_ = message;
  truncated_ = truncated;
  failed_ = true;
}

std::shared_ptr<ByteBuffer> OrderedRecordReader::TakeChunkBuffer() {
  constexpr size_t kSpareBuffers = 8;
  std::unique_ptr<ByteBuffer> buffer;
  {
    std::lock_guard<std::mutex> lock(buffers_->mu);
    if (!buffers_->spare.empty()) {
      buffer = std::move(buffers_->spare.back());
      buffers_->spare.pop_back();
    }
  }
  if (!buffer) buffer = std::make_unique<ByteBuffer>();
  buffer->Clear();
  // Released on whichever thread lets go last (a reader ahead's consumer):
  // the pool outlives this reader for that.
  return std::shared_ptr<ByteBuffer>(buffer.release(), [pool = buffers_](ByteBuffer* released) {
    std::unique_ptr<ByteBuffer> owned(released);
    std::lock_guard<std::mutex> lock(pool->mu);
    if (pool->spare.size() < kSpareBuffers) pool->spare.push_back(std::move(owned));
  });
}

size_t OrderedRecordReader::PayloadSlack() const { return SlackReader::kSlackBytes; }

std::shared_ptr<const void> OrderedRecordReader::PayloadOwner(uint64_t chunk) const {
  for (const auto& [thread, cursor] : threads_) {
    if (cursor.records && cursor.chunk_serial == chunk) return cursor.records;
  }
  return nullptr;
}

bool OrderedRecordReader::Load(uint32_t thread, ThreadCursor& cursor) {
  ChunkLocation chunk = cursor.pending.front();
  cursor.pending.pop_front();
  std::string error;
  ChunkInfo info;
  cursor.records = TakeChunkBuffer();
  if (!file_->SeekToChunkAt(chunk.offset, &error) || !file_->NextChunk(cursor.records.get(), &info, &error)) {
    if (error.empty()) error = "chunk at byte " + std::to_string(chunk.offset) + " could not be read";
    Fail(error, error.find("truncated") != std::string::npos);
    return false;
  }
  if (info.thread_id != thread) {
    Fail("chunk at byte " + std::to_string(chunk.offset) + " changed while it was read", false);
    return false;
  }
  cursor.records->Reserve(SlackReader::kSlackBytes);  // PayloadSlack
  cursor.at = 0;
  cursor.loaded = true;
  cursor.seen_call = false;
  cursor.chunk_serial = ++serials_;
  return true;
}

bool OrderedRecordReader::PeekSequence(const ThreadCursor& cursor, uint64_t* sequence, bool* malformed) const {
  size_t at = cursor.at;
  Record record;
  *malformed = !ReadRecordAt(cursor.records->bytes(), &at, &record);
  if (*malformed || record.type != RecordType::kCall) return false;
  ByteReader r(record.payload);
  r.Varint();  // function id
  uint64_t delta = r.Varint();
  if (!r.ok()) return *malformed = true, false;
  *sequence = cursor.seen_call ? cursor.last_sequence + 1 + delta : delta;
  return true;
}

bool OrderedRecordReader::DamagedHeader(uint32_t thread, const ThreadCursor& cursor) {
  Fail("record at offset " + std::to_string(cursor.at) + " of a chunk of thread " + std::to_string(thread) +
           " has a damaged header",
       false);
  return false;
}

bool OrderedRecordReader::NextOutOfLine(Record* record) {
  if (failed_) return false;
  if (only_ != nullptr) {
    auto& [thread, cursor] = *only_;
    for (;;) {
      if (cursor.loaded && cursor.at < cursor.records->size) return TakeRecord(thread, cursor, record);
      cursor.loaded = false;
      cursor.records.reset();
      if (cursor.pending.empty()) {
        if (!scan_error_.empty()) Fail(scan_error_, scan_truncated_);
        return false;
      }
      if (!Load(thread, cursor)) return false;
    }
  }
  for (;;) {
    uint32_t best_thread = 0;
    ThreadCursor* best = nullptr;
    uint64_t best_key = std::numeric_limits<uint64_t>::max();
    for (auto& [thread, cursor] : threads_) {
      if (cursor.loaded && cursor.at >= cursor.records->size) {
        cursor.loaded = false;
        cursor.records.reset();
      }
      uint64_t key;
      if (cursor.loaded) {
        bool malformed = false;
        if (!PeekSequence(cursor, &key, &malformed)) {
          if (malformed) {
            Fail("record at offset " + std::to_string(cursor.at) + " of a chunk of thread " + std::to_string(thread) +
                     " is damaged",
                 false);
            return false;
          }
          // Memory, framebuffer and frame records belong right where they are in their thread.
          return TakeRecord(thread, cursor, record);
        }
      } else if (!cursor.pending.empty()) {
        key = cursor.pending.front().info.first_sequence;
      } else {
        continue;
      }
      if (best == nullptr || key < best_key) best = &cursor, best_key = key, best_thread = thread;
    }
    if (best == nullptr) {
      if (!scan_error_.empty()) Fail(scan_error_, scan_truncated_);
      return false;
    }
    if (!best->loaded) {
      if (!Load(best_thread, *best)) return false;
      continue;
    }
    if (!TakeRecord(best_thread, *best, record)) return false;
    best->last_sequence = best_key;
    best->seen_call = true;
    return true;
  }
}

}  // namespace strata::stream
