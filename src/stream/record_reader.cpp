#include "stream/record_reader.h"

#include <cstring>

namespace strata::stream {

std::unique_ptr<RecordReader> RecordReader::Open(const std::string& path, std::string* error) {
  auto file = TraceFileReader::Open(path, error);
  if (!file) return nullptr;
  auto it = file->header().extra.find("functions");
  if (it == file->header().extra.end()) {
    *error = path + ": the trace header has no function table (not written by Strata's tracer?)";
    return nullptr;
  }
  std::unique_ptr<RecordReader> reader(new RecordReader(std::move(file)));
  reader->functions_.Load(it->second);
  return reader;
}

bool RecordReader::Next(Record* record) {
  while (at_ >= chunk_.size()) {
    chunk_offset_ = file_->offset();
    std::string error;
    if (!file_->NextChunk(&chunk_, &info_, &error)) {
      error_ = error;
      truncated_ = error.find("truncated") != std::string::npos;
      chunk_.clear();
      return false;
    }
    at_ = 0;
  }
  if (chunk_.size() - at_ < kRecordHeaderSize) {
    error_ = "chunk at byte " + std::to_string(chunk_offset_) + " ends inside a record header";
    return false;
  }
  uint32_t length;
  std::memcpy(&length, chunk_.data() + at_ + 1, sizeof length);
  if (length > chunk_.size() - at_ - kRecordHeaderSize) {
    error_ = "record at offset " + std::to_string(at_) + " of the chunk at byte " + std::to_string(chunk_offset_) +
             " claims " + std::to_string(length) + " bytes, more than the chunk holds";
    return false;
  }
  record->type = static_cast<RecordType>(chunk_[at_]);
  record->payload = std::span<const uint8_t>(chunk_.data() + at_ + kRecordHeaderSize, length);
  record->thread_id = info_.thread_id;
  at_ += kRecordHeaderSize + length;
  return true;
}

}  // namespace strata::stream
