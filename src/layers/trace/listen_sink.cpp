#include "layers/trace/listen_sink.h"

#include <unistd.h>

#include "common/log.h"
#include "transport/sockets.h"

namespace strata::trace {

std::unique_ptr<ListenSink> ListenSink::Create(const std::string& address, const stream::TraceHeader& header,
                                               stream::Compression compression, int wait_seconds,
                                               std::string* error) {
  int fd = transport::ListenOn(address, error);
  if (fd < 0) return nullptr;
  std::unique_ptr<ListenSink> sink(new ListenSink());
  sink->address_ = address;
  sink->header_ = header;
  sink->compression_ = compression;
  sink->wait_seconds_ = wait_seconds;
  sink->listen_fd_ = fd;
  STRATA_WARN("tracing: waiting up to %d s for a client on %s (strata trace --connect %s -o FILE)", wait_seconds,
              address.c_str(), address.c_str());
  return sink;
}

ListenSink::~ListenSink() {
  if (listen_fd_ >= 0) close(listen_fd_);
}

bool ListenSink::Connect(std::string* error) {
  int fd = transport::AcceptOne(listen_fd_, wait_seconds_ * 1000, address_, error);
  if (fd < 0) return false;
  auto writer = stream::TraceFileWriter::CreateOnSocket(fd, "the client of " + address_, header_, compression_, error);
  if (!writer) return false;
  std::lock_guard<std::mutex> lock(mutex_);
  writer_ = std::move(writer);
  STRATA_INFO("tracing: client connected on %s", address_.c_str());
  return true;
}

bool ListenSink::WriteChunk(std::span<const uint8_t> records, const stream::ChunkInfo& info, std::string* error) {
  if (!writer_ && !Connect(error)) return false;  // only the writer thread writes chunks
  return writer_->WriteChunk(records, info, error);
}

void ListenSink::AddFrame(uint32_t frame, uint64_t sequence) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (writer_) writer_->AddFrame(frame, sequence);
}

bool ListenSink::Finish(std::string* error) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!writer_) return true;  // no client ever connected: nothing was promised
  return writer_->Finish(error);
}

}  // namespace strata::trace
