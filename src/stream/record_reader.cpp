#include "stream/record_reader.h"

#include <cstring>

#include "stream/byte_reader.h"

namespace strata::stream {

std::unique_ptr<RecordReader> RecordReader::Open(const std::string& path, std::string* error) {
  auto file = TraceFileReader::Open(path, error);
  if (!file) return nullptr;
  FunctionTable functions;
  if (!LoadFunctionTable(file->header(), path, &functions, error)) return nullptr;
  std::unique_ptr<RecordReader> reader(new RecordReader(std::move(file)));
  reader->functions_ = std::move(functions);
  return reader;
}

bool LoadFunctionTable(const TraceHeader& header, const std::string& path, FunctionTable* functions,
                       std::string* error) {
  auto it = header.extra.find("functions");
  if (it == header.extra.end()) {
    *error = path + ": the trace header has no function table (not written by Strata's tracer?)";
    return false;
  }
  functions->Load(it->second);
  return true;
}

bool BadRecordHeader(std::span<const uint8_t> bytes, size_t at, std::string* error) {
  ByteReader header(bytes.subspan(at));
  header.U8();
  const uint64_t length = header.Varint();
  *error = "record at offset " + std::to_string(at) +
           (header.ok() ? " claims " + std::to_string(length) + " bytes, more than remain (" +
                              std::to_string(header.remaining()) + ")"
                        : " has a damaged header");
  return false;
}

bool RecordReader::Next(Record* record) {
  while (at_ >= chunk_.size) {
    chunk_offset_ = file_->offset();
    std::string error;
    if (!file_->NextChunk(&chunk_, &info_, &error)) {
      error_ = error;
      truncated_ = error.find("truncated") != std::string::npos;
      chunk_.Clear();
      return false;
    }
    at_ = 0;
    ++chunks_;
  }
  std::string error;
  if (!NextRecordIn(chunk_.bytes(), &at_, record, &error)) {
    error_ = error + " in the chunk at byte " + std::to_string(chunk_offset_);
    return false;
  }
  record->thread_id = info_.thread_id;
  record->chunk = chunks_;
  return true;
}

}  // namespace strata::stream
