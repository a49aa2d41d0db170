#include "layers/trace/trace_session.h"

#include <time.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "common/log.h"
#include "stream/call_decoder.h"

namespace strata::trace {
namespace {

uint64_t MonotonicNs() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000u + static_cast<uint64_t>(ts.tv_nsec);
}

std::string CommandLine() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::string raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (char& c : raw) {
    if (c == '\0') c = ' ';
  }
  while (!raw.empty() && raw.back() == ' ') raw.pop_back();
  return raw;
}

std::string ExecutableName() {
  char buffer[4096];
  ssize_t n = readlink("/proc/self/exe", buffer, sizeof buffer - 1);
  std::string path = n > 0 ? std::string(buffer, n) : "unknown";
  return path.substr(path.rfind('/') + 1);
}

}  // namespace

TraceSession& TraceSession::Get() {
  static TraceSession* session = new TraceSession();  // never destroyed: threads may trace during exit
  return *session;
}

uint64_t TraceSession::NowNs() const { return MonotonicNs() - start_ns_; }

bool TraceSession::Start(const std::string& destination, const std::string& compression_name, std::string* error) {
  std::string path = destination.rfind("file:", 0) == 0 ? destination.substr(5) : destination;
  if (path.empty()) {
    *error = "STRATA_TRACE names no file";
    return false;
  }
  stream::Compression compression = stream::Compression::kLz4;
  if (!compression_name.empty() && !stream::ParseCompression(compression_name, &compression)) {
    *error = "unknown compression '" + compression_name + "' (use lz4, zstd or none)";
    return false;
  }
  stream::TraceHeader header;
  header.program = ExecutableName();
  header.pid = getpid();
  header.command_line = CommandLine();
  header.start_time_unix_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                                  std::chrono::system_clock::now().time_since_epoch())
                                  .count();
  header.extra["functions"] = stream::FunctionTable::OwnNames();
  header.extra["writer"] = "strata " STRATA_VERSION;
  auto writer = stream::TraceFileWriter::Create(path, header, compression, error);
  if (!writer) return false;
  sink_ = std::make_unique<FileSink>(std::move(writer));
  start_ns_ = MonotonicNs();
  active_.store(true);
  flusher_ = std::thread([this] { FlusherLoop(); });
  std::atexit([] { TraceSession::Get().Finish(); });
  STRATA_INFO("tracing to %s", sink_->Describe().c_str());
  return true;
}

ThreadStream& TraceSession::RegisterThread() {
  auto stream = std::make_shared<ThreadStream>();
  stream->thread_id = static_cast<uint32_t>(gettid());
  stream->buffer.reserve(kChunkBytes + 64 * 1024);
  std::lock_guard<std::mutex> lock(streams_mutex_);
  streams_.push_back(stream);
  return *stream;
}

void TraceSession::Flush(ThreadStream& stream) {
  if (stream.records == 0) return;
  stream::ChunkInfo info;
  info.thread_id = stream.thread_id;
  info.first_sequence = stream.first_sequence;
  info.record_count = stream.records;
  info.first_frame = stream.first_frame;
  std::string error;
  if (sink_ && active() && !sink_->WriteChunk(stream.buffer, info, &error)) Fail(error);
  stream.buffer.clear();
  stream.records = 0;
}

void TraceSession::EndFrame() {
  uint32_t next = frame_.fetch_add(1, std::memory_order_relaxed) + 1;
  if (sink_) sink_->AddFrame(next, sequence_.load(std::memory_order_relaxed));
}

void TraceSession::Fail(const std::string& error) {
  std::call_once(failed_once_, [&] {
    active_.store(false);
    STRATA_ERROR("tracing stopped: %s; the program continues untraced", error.c_str());
  });
}

void TraceSession::FlusherLoop() {
  while (!stopping_.load()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(kChunkMillis / 2));
    std::vector<std::shared_ptr<ThreadStream>> streams;
    {
      std::lock_guard<std::mutex> lock(streams_mutex_);
      streams = streams_;
    }
    uint64_t now = NowNs();
    for (auto& stream : streams) {
      // A thread in the middle of a record keeps its buffer; it checks age itself on commit.
      if (stream->busy.exchange(true, std::memory_order_acquire)) continue;
      if (stream->records > 0 && now - stream->chunk_start_ns >= kChunkMillis * 1000000) Flush(*stream);
      stream->busy.store(false, std::memory_order_release);
    }
  }
}

void TraceSession::Finish() {
  if (!sink_ || stopping_.exchange(true)) return;
  if (flusher_.joinable()) flusher_.join();
  std::vector<std::shared_ptr<ThreadStream>> streams;
  {
    std::lock_guard<std::mutex> lock(streams_mutex_);
    streams = streams_;
  }
  for (auto& stream : streams) {
    // Wait briefly for a thread that is mid-record; at exit that is rare.
    for (int i = 0; i < 1000 && stream->busy.exchange(true, std::memory_order_acquire); ++i) {
      std::this_thread::sleep_for(std::chrono::microseconds(100));
    }
    Flush(*stream);
    stream->busy.store(false, std::memory_order_release);
  }
  bool was_active = active();
  active_.store(false);
  std::string error;
  if (was_active && !sink_->Finish(&error)) {
    STRATA_ERROR("tracing: %s", error.c_str());
  } else if (was_active) {
    STRATA_INFO("trace written to %s (%llu calls, %u frames)", sink_->Describe().c_str(),
                static_cast<unsigned long long>(sequence_.load()), frame());
  }
}

}  // namespace strata::trace
