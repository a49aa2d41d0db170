#pragma once
// A live trace (STRATA_TRACE=listen:ADDRESS): the process listens and serves
// the stream to one host client, which stores it as a trace file (the bytes on
// the wire are the file). The client is awaited on the writer thread before
// the first chunk; until then chunks queue, and the app runs on.

#include <memory>
#include <mutex>
#include <string>

#include "layers/trace/trace_sink.h"

namespace strata::trace {

class ListenSink : public TraceSink {
 public:
  // Starts listening now, so a bad or busy address is reported at once.
  static std::unique_ptr<ListenSink> Create(const std::string& address, const stream::TraceHeader& header,
                                            stream::Compression compression, int wait_seconds, std::string* error);
  ~ListenSink() override;

  bool WriteChunk(std::span<const uint8_t> records, const stream::ChunkInfo& info, std::string* error) override;
  void AddFrame(uint32_t frame, uint64_t sequence) override;
  bool Finish(std::string* error) override;
  std::string Describe() const override { return "a client of " + address_; }

 private:
  ListenSink() = default;
  bool Connect(std::string* error);

  std::string address_;
  stream::TraceHeader header_;
  stream::Compression compression_ = stream::Compression::kLz4;
  int wait_seconds_ = 60;
  int listen_fd_ = -1;
  std::mutex mutex_;  // guards writer_ between the writer thread and AddFrame
  std::unique_ptr<stream::TraceFileWriter> writer_;
};

}  // namespace strata::trace
