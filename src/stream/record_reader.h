#pragma once
// Walks the records of a trace file in file order: opens it, learns its
// function table, and hands out one record at a time, decompressing chunk by
// chunk. Stops cleanly at the end, or with a message naming the byte offset
// where the file is cut short or damaged; everything before that is read.

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "stream/byte_reader.h"
#include "stream/call_decoder.h"
#include "stream/prepared_call.h"
#include "stream/record_format.h"
#include "stream/trace_file.h"

namespace strata::stream {

struct Record {
  RecordType type{};
  std::span<const uint8_t> payload;  // valid until the next Next()
  uint32_t thread_id = 0;            // of the chunk it came from
  uint64_t chunk = 0;                // which chunk (counts up), for CallDecoder
  // A run of calls kept decoded, this record's call the first of them (a
  // replay's loops from memory: RecordStore); null for every record read
  // from a file or a connection.
  const PreparedRun* prepared = nullptr;
  // Bytes readable after the payload, where its source knows (a trace's
  // chunk buffer, a renderer's message): with SlackReader::kSlackBytes of
  // them the generated handlers read the record in place, else a copy.
  size_t readable_after = 0;
};

// The record at `*at` (before the end) of a run of records: its type and
// payload, `*at` moved past it. False, with nothing moved, when its header
// does not decode or its length runs past `bytes`. Inline: every record of a
// trace or a wire message is read here.
inline bool ReadRecordAt(std::span<const uint8_t> bytes, size_t* at, Record* record) {
  const uint8_t* const p = bytes.data() + *at;
  const size_t left = bytes.size() - *at;
  // u8 type | varint length: most records' length is one byte.
  uint64_t length;
  size_t header;
  if (left >= 2 && p[1] < 0x80) {
    length = p[1];
    header = 2;
  } else {
    ByteReader r({p, left});
    r.U8();
    length = r.Varint();
    header = r.offset();
    if (!r.ok()) return false;
  }
  if (length > left - header) return false;
  record->type = static_cast<RecordType>(p[0]);
  record->payload = std::span<const uint8_t>(p + header, length);
  record->readable_after = 0;  // the caller's to say
  *at += header + length;
  return true;
}

// NextRecordIn's error for a record at `at` whose header does not decode or
// whose length runs past the bytes: false.
[[gnu::cold]] bool BadRecordHeader(std::span<const uint8_t> bytes, size_t at, std::string* error);

// The record at `*at` of a run of records (a chunk's payload, a wire
// message): its type and payload, `*at` moved past it. False at the end of
// `bytes`, or with *error naming the offset when the record runs past it.
// Inline: a renderer reads every record of its messages here, between two
// driver calls.
inline bool NextRecordIn(std::span<const uint8_t> bytes, size_t* at, Record* record, std::string* error) {
  if (*at >= bytes.size()) return false;
  return ReadRecordAt(bytes, at, record) || BadRecordHeader(bytes, *at, error);
}

// The function table a trace's header carries (key `functions`); false with
// *error naming `path` when there is none.
bool LoadFunctionTable(const TraceHeader& header, const std::string& path, FunctionTable* functions,
                       std::string* error);

class RecordReader {
 public:
  static std::unique_ptr<RecordReader> Open(const std::string& path, std::string* error);

  const TraceHeader& header() const { return file_->header(); }
  const FunctionTable& functions() const { return functions_; }
  bool complete() const { return file_->complete(); }

  // False at the end; `error()` then says whether the end was clean.
  bool Next(Record* record);
  const std::string& error() const { return error_; }
  // The file was cut short (e.g. the traced process was killed), as opposed to damaged.
  bool truncated() const { return truncated_; }

 private:
  explicit RecordReader(std::unique_ptr<TraceFileReader> file) : file_(std::move(file)) {}
  std::unique_ptr<TraceFileReader> file_;
  FunctionTable functions_;
  ByteBuffer chunk_;  // the chunk being read: bytes()
  ChunkInfo info_{};
  size_t at_ = 0;
  uint64_t chunk_offset_ = 0;
  uint64_t chunks_ = 0;
  std::string error_;
  bool truncated_ = false;
};

}  // namespace strata::stream
