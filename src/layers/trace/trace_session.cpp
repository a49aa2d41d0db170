#include "layers/trace/trace_session.h"

#include <time.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "common/env.h"
#include "common/log.h"
#include "common/process_info.h"
#include "layers/trace/listen_sink.h"
#include "stream/call_decoder.h"

namespace strata::trace {
namespace {

bool HasInvariantTsc() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string text((std::istreambuf_iterator<char>(cpuinfo)), std::istreambuf_iterator<char>());
  return text.find(" constant_tsc") != std::string::npos && text.find(" nonstop_tsc") != std::string::npos;
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


}  // namespace

// Never destroyed: threads may still trace while the process exits.
TraceSession* const TraceSession::instance_ = new TraceSession();

uint64_t TraceSession::MonotonicNs() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000u + static_cast<uint64_t>(ts.tv_nsec);
}

// Two clock readings per call cost more than the cheapest GL calls; the TSC
// is a few cycles. Its rate is measured against CLOCK_MONOTONIC over 2 ms.
void TraceSession::CalibrateClock() {
  start_ns_ = MonotonicNs();
  if (!HasInvariantTsc()) return;
  uint64_t tsc0 = __rdtsc(), ns0 = MonotonicNs(), ns1 = ns0;
  while (ns1 - ns0 < 2000000) ns1 = MonotonicNs();
  uint64_t tsc1 = __rdtsc();
  if (tsc1 <= tsc0) return;
  ns_per_tick_ = static_cast<double>(ns1 - ns0) / static_cast<double>(tsc1 - tsc0);
  tsc_start_ = tsc0 - static_cast<uint64_t>((ns0 - start_ns_) / ns_per_tick_);
}

bool TraceSession::Start(const std::string& destination, const std::string& compression_name, std::string* error) {
  std::lock_guard<std::mutex> lifecycle(lifecycle_mutex_);
  if (active()) {
    *error = "already tracing to " + sink_->Describe();
    return false;
  }
  bool listen = destination.rfind("listen:", 0) == 0;
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
  header.program = ProcessNames().front();
  header.pid = getpid();
  header.command_line = CommandLine();
  header.start_time_unix_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                                  std::chrono::system_clock::now().time_since_epoch())
                                  .count();
  header.extra["functions"] = stream::FunctionTable::OwnNames();
  if (!driver_.empty()) header.extra["driver"] = driver_;
  header.extra["writer"] = "strata " STRATA_VERSION;
  if (listen) {
    const char* wait = GetEnv("STRATA_TRACE_WAIT");
    int seconds = wait ? std::atoi(wait) : 60;
    auto sink = ListenSink::Create(destination.substr(7), header, compression, seconds > 0 ? seconds : 60, error);
    if (!sink) return false;
    sink_ = std::move(sink);
  } else {
    auto writer = stream::TraceFileWriter::Create(path, header, compression, error);
    if (!writer) return false;
    sink_ = std::make_unique<FileSink>(std::move(writer));
  }
  CalibrateClock();
  sequence_ = 0;
  frame_ = 0;
  session_number_.fetch_add(1);
  stopping_ = false;
  failed_ = false;
  writer_done_ = false;
  active_.store(true);
  flusher_ = std::thread([this] { FlusherLoop(); });
  writer_ = std::thread([this] { WriterLoop(); });
  static std::once_flag at_exit;
  std::call_once(at_exit, [] { std::atexit([] { TraceSession::Get().Finish(); }); });
  desired_.store(true);
  STRATA_INFO("tracing to %s", sink_->Describe().c_str());
  return true;
}

ThreadStream& TraceSession::RegisterThread() {
  auto stream = std::make_shared<ThreadStream>();
  stream->thread_id = static_cast<uint32_t>(gettid());
  stream->buffer.storage.resize(kChunkBytes + 64 * 1024);
  std::lock_guard<std::mutex> lock(streams_mutex_);
  streams_.push_back(stream);
  return *stream;
}

void TraceSession::Flush(ThreadStream& stream) {
  if (stream.records == 0) return;
  if (!active()) {  // after a failure or the end of the session: nowhere to go
    stream.buffer.Clear();
    stream.records = 0;
    stream.calls_in_chunk = 0;
    return;
  }
  PendingChunk chunk;
  chunk.info.thread_id = stream.thread_id;
  chunk.info.first_sequence = stream.first_sequence;
  chunk.info.record_count = stream.records;
  chunk.info.first_frame = stream.first_frame;
  chunk.size = stream.buffer.size;
  {
    // Compression and the write happen on the writer thread; the app thread
    // swaps in a spare buffer and goes on.
    std::unique_lock<std::mutex> lock(queue_mutex_);
    queue_space_.wait(lock, [&] { return queue_.size() < kMaxQueuedChunks || writer_done_; });
    chunk.storage = std::move(stream.buffer.storage);
    if (!spare_.empty()) {
      stream.buffer.storage = std::move(spare_.back());
      spare_.pop_back();
    }
    queue_.push_back(std::move(chunk));
  }
  queue_ready_.notify_one();
  if (stream.buffer.storage.size() < kChunkBytes) stream.buffer.storage.resize(kChunkBytes + 64 * 1024);
  stream.buffer.Clear();
  stream.records = 0;
  stream.calls_in_chunk = 0;
}

void TraceSession::WriterLoop() {
  std::unique_lock<std::mutex> lock(queue_mutex_);
  for (;;) {
    queue_ready_.wait(lock, [&] { return !queue_.empty() || writer_done_; });
    if (queue_.empty()) return;  // done, and everything written
    PendingChunk chunk = std::move(queue_.front());
    queue_.pop_front();
    lock.unlock();
    queue_space_.notify_all();
    std::string error;
    if (sink_ && active() && !sink_->WriteChunk({chunk.storage.data(), chunk.size}, chunk.info, &error)) Fail(error);
    lock.lock();
    if (spare_.size() < 4) spare_.push_back(std::move(chunk.storage));
  }
}

void TraceSession::EndFrame() {
  uint32_t next = frame_.fetch_add(1, std::memory_order_relaxed) + 1;
  if (sink_) sink_->AddFrame(next, sequence_.load(std::memory_order_relaxed));
}

void TraceSession::Fail(const std::string& error) {
  if (failed_.exchange(true)) return;
  desired_.store(false);
  active_.store(false);
  STRATA_ERROR("tracing stopped: %s; the program continues untraced", error.c_str());
}

void TraceSession::Stop(int grace_ms) {
  desired_.store(false);
  for (int waited = 0; waited < grace_ms && tracing_threads.load() > 0; waited += 10) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  Finish();
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
  std::lock_guard<std::mutex> lifecycle(lifecycle_mutex_);
  desired_.store(false);
  if (!sink_ || stopping_.exchange(true)) return;
  if (flusher_.joinable()) flusher_.join();
  auto stop_writer = [this] {
    {
      std::lock_guard<std::mutex> lock(queue_mutex_);
      writer_done_ = true;
    }
    queue_ready_.notify_all();
    queue_space_.notify_all();
    if (writer_.joinable()) writer_.join();
  };
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
  stop_writer();
  bool was_active = active();
  active_.store(false);
  std::string error;
  if (was_active && !sink_->Finish(&error)) {
    STRATA_ERROR("tracing: %s", error.c_str());
  } else if (was_active) {
    STRATA_INFO("trace written to %s (%llu calls, %u frames)", sink_->Describe().c_str(),
                static_cast<unsigned long long>(sequence_.load()), frame());
  }
  sink_.reset();
  {
    std::lock_guard<std::mutex> lock(queue_mutex_);
    queue_.clear();
  }
}

}  // namespace strata::trace
