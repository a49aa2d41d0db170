#pragma once
// Where finished chunks of records go: a trace file, or a live connection.
// The tracer knows nothing of files or sockets beyond this.

#include <cstdint>
#include <span>
#include <string>

#include "stream/trace_file.h"

namespace strata::trace {

class TraceSink {
 public:
  virtual ~TraceSink() = default;
  // Thread-safe; called once per chunk. False with `error` when the sink failed for good.
  virtual bool WriteChunk(std::span<const uint8_t> records, const stream::ChunkInfo& info, std::string* error) = 0;
  // A frame begins with the call numbered `sequence` (for seeking by frame).
  virtual void AddFrame(uint32_t frame, uint64_t sequence) = 0;
  virtual bool Finish(std::string* error) = 0;
  virtual std::string Describe() const = 0;
};

// A trace file (STRATA_TRACE=file:PATH).
class FileSink : public TraceSink {
 public:
  explicit FileSink(std::unique_ptr<stream::TraceFileWriter> writer) : writer_(std::move(writer)) {}
  bool WriteChunk(std::span<const uint8_t> records, const stream::ChunkInfo& info, std::string* error) override {
    return writer_->WriteChunk(records, info, error);
  }
  void AddFrame(uint32_t frame, uint64_t sequence) override { writer_->AddFrame(frame, sequence); }
  bool Finish(std::string* error) override { return writer_->Finish(error); }
  std::string Describe() const override { return writer_->path(); }

 private:
  std::unique_ptr<stream::TraceFileWriter> writer_;
};

}  // namespace strata::trace
