#include "layers/trace/trace_session.h"

#include <pthread.h>
#include <sys/mman.h>
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
#include "layers/trace/raw_entry.h"
#include "stream/call_decoder.h"
#include "stream/record_format.h"
#include "strata/api/functions.h"

namespace strata::trace {

PerCallSettings g_per_call;

namespace {

// Named, so that top and perf tell the tracer's threads from the app's.
void NameThread(const char* name) { pthread_setname_np(pthread_self(), name); }

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
std::atomic<TraceSession*> TraceSession::instance_{new TraceSession()};

void TraceSession::WatchForks() {
  static std::once_flag registered;
  std::call_once(registered, [] { pthread_atfork(nullptr, nullptr, [] { TraceSession::Get().MarkForked(); }); });
}

void TraceSession::RenewAfterFork() {
  TraceSession* parents = instance_.load();
  // Only the forking thread came over, and it is here: nobody else writes the rings.
  for (auto& stream : parents->streams_) munmap(stream->ring, kRingBytes);
  auto* fresh = new TraceSession();
  fresh->session_number_.store(parents->session_number());  // contexts' "in this trace" marks expire
  fresh->driver_ = parents->driver_;
  fresh->time_every_call_ = parents->time_every_call_;
  instance_.store(fresh);  // the parent's session is left as it is: its mutexes may be locked for good
}

uint64_t TraceSession::MonotonicNs() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000u + static_cast<uint64_t>(ts.tv_nsec);
}

// Two clock readings per call cost more than the cheapest GL calls; the TSC
// is a few cycles. Its rate is measured against CLOCK_MONOTONIC over 2 ms.
void TraceSession::CalibrateClock() {
  start_ns_ = MonotonicNs();
  // The clock choice is the process's, read by threads still recording while a
  // new session starts: set once, never switched off and on around the calibration.
  if (!HasInvariantTsc()) {
    g_per_call.use_tsc = false;
    return;
  }
  uint64_t tsc0 = __rdtsc(), ns0 = MonotonicNs(), ns1 = ns0;
  while (ns1 - ns0 < 2000000) ns1 = MonotonicNs();
  uint64_t tsc1 = __rdtsc();
  if (tsc1 <= tsc0) return;
  ns_per_tick_ = static_cast<double>(ns1 - ns0) / static_cast<double>(tsc1 - tsc0);
  tsc_start_ = tsc0 - static_cast<uint64_t>((ns0 - start_ns_) / ns_per_tick_);
  g_per_call.use_tsc = true;
}

bool TraceSession::Start(const std::string& destination, const std::string& compression_name, std::string* error,
                         bool switch_on) {
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
  const std::vector<std::string> names = ProcessNames();
  header.program = names.front();
  // A forked child that named itself (an app started by a launcher) is known by that name.
  if (names.size() > 2 && names.front().rfind(names.back(), 0) != 0) header.program = names.back();
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
  sequence_.value = 0;
  g_per_call.frame = 0;
  session_number_.fetch_add(1);
  {
    // Entries a thread made after the last session finished belong to no trace.
    std::lock_guard<std::mutex> encode(encode_mutex_);
    std::lock_guard<std::mutex> lock(streams_mutex_);
    for (auto& stream : streams_) Discard(*stream);
  }
  stopping_ = false;
  failed_ = false;
  writer_done_ = false;
  active_.store(true);
  encoder_ = std::thread([this] {
    NameThread("strata-encode");
    EncoderLoop();
  });
  writer_ = std::thread([this] {
    NameThread("strata-write");
    WriterLoop();
  });
  static std::once_flag at_exit;
  std::call_once(at_exit, [] { std::atexit([] { TraceSession::Get().Finish(); }); });
  WatchForks();
  if (switch_on) desired_.store(true);
  STRATA_INFO("tracing to %s%s", sink_->Describe().c_str(), switch_on ? "" : " (switched on later)");
  return true;
}

void TraceSession::SwitchOn() {
  // Nothing was recorded since Start: the clock may start again, calibrated as it is.
  start_ns_ = MonotonicNs();
  if (g_per_call.use_tsc) tsc_start_ = __rdtsc();
  desired_.store(true);
}

ThreadStream& TraceSession::RegisterThread() {
  auto stream = std::make_shared<ThreadStream>();
  stream->thread_id = static_cast<uint32_t>(gettid());
  // Pages are only backed once written: a thread that makes few calls costs little.
  void* ring = mmap(nullptr, kRingBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (ring == MAP_FAILED) {
    STRATA_ERROR("tracing: no memory for a thread's trace ring");
    std::abort();
  }
  stream->ring = static_cast<uint8_t*>(ring);
  stream->write = stream->limit = stream->ring;  // the first entry asks MakeRoom
  stream->kick_at = kRingKickBytes;
  stream->state_limit = stream->limit;
  stream->session = session_number();
  stream->last_end_ns = NowNs();  // before its first timed call, the thread's untimed calls start here
  std::lock_guard<std::mutex> lock(streams_mutex_);
  streams_.push_back(stream);
  return *stream;
}

uint8_t* TraceSession::MakeRoom(ThreadStream& stream, uint8_t* entry, uint8_t* cursor, size_t need) {
  const size_t written = static_cast<size_t>(cursor - entry);
  const size_t total = written + need;  // what the entry needs from its start
  if (total > kRingBytes / 2) return nullptr;
  if (entry == stream.ring + kRingBytes) {
    // The last entry ended exactly at the end of the ring (so nothing of this
    // one is written yet): it starts at the beginning.
    entry = stream.write = stream.ring;
  }
  for (int waits = 0;; ++waits) {
    uint64_t consumed = stream.consumed.load(std::memory_order_acquire);
    const uint64_t produced = Produced(stream);
    size_t offset = static_cast<size_t>(produced & (kRingBytes - 1));
    size_t tail = kRingBytes - offset;
    size_t free = kRingBytes - static_cast<size_t>(produced - consumed);
    if (total <= tail && total <= free) {
      stream.limit = stream.ring + offset + std::min(tail, free);
      SetStateLimit(stream);
      return entry;
    }
    if (total > tail && tail + total <= free) {
      // The entry would cross the end of the ring: it moves to the start, and
      // a wrap entry tells the encoder to follow.
      std::memmove(stream.ring, entry, written);
      uint64_t wrap = raw::kEntryWrap;
      std::memcpy(stream.ring + offset, &wrap, sizeof wrap);
      stream.write = stream.ring;
      stream.committed.store(produced + tail, std::memory_order_release);
      stream.limit = stream.ring + (free - tail);
      SetStateLimit(stream);
      return stream.ring;
    }
    if (forked_.load()) {  // no encoder in this process, and its locks may be held for good
      stream.consumed.store(produced, std::memory_order_release);
      continue;
    }
    if (!active()) {
      // Nobody will encode these entries (the trace finished or failed): drop them.
      std::lock_guard<std::mutex> encode(encode_mutex_);
      Discard(stream);
      continue;
    }
    Kick(stream);
    std::unique_lock<std::mutex> lock(kick_mutex_);
    room_.wait_for(lock, std::chrono::milliseconds(waits < 10 ? 1 : 10));
  }
}

void TraceSession::Kick(ThreadStream& stream) {
  stream.kick_at = Produced(stream) + kRingKickBytes;
  SetStateLimit(stream);
  {
    std::lock_guard<std::mutex> lock(kick_mutex_);
    kick_ = true;
  }
  kicked_.notify_one();
}

void TraceSession::EncoderLoop() {
  std::unique_lock<std::mutex> lock(kick_mutex_);
  while (!stopping_.load()) {
    kicked_.wait_for(lock, std::chrono::milliseconds(kChunkMillis / 4), [&] { return kick_ || stopping_.load(); });
    kick_ = false;
    lock.unlock();
    {
      std::lock_guard<std::mutex> encode(encode_mutex_);
      EncodeAll(false);
    }
    room_.notify_all();
    lock.lock();
  }
}

void TraceSession::EncodeAll(bool finish) {
  std::vector<std::shared_ptr<ThreadStream>> streams;
  {
    std::lock_guard<std::mutex> lock(streams_mutex_);
    streams = streams_;
  }
  for (auto& stream : streams) EncodeStream(*stream, finish);
}

void TraceSession::EncodeStream(ThreadStream& stream, bool finish) {
  if (stream.session != session_number()) {  // chunk state of an earlier session
    ResetChunk(stream);
    stream.session = session_number();
    stream.run.last_start_ns = stream.last_end_ns = 0;  // the new session's clock starts at 0
  }
  uint64_t read = stream.consumed.load(std::memory_order_relaxed);
  const uint64_t committed = stream.committed.load(std::memory_order_acquire);
  uint64_t released = read;
  while (read < committed) {
    size_t offset = static_cast<size_t>(read & (kRingBytes - 1));
    const uint8_t* p = stream.ring + offset;
    uint64_t head;
    std::memcpy(&head, p, sizeof head);
    if ((head & 0xff) == raw::kEntryWrap) {
      read += kRingBytes - offset;
      continue;
    }
    read += EncodeEntry(stream, p, false);
    if (stream.chunk.size >= kChunkBytes) HandOver(stream);
    if (read - released >= kRingKickBytes) {  // give the producer its room back as we go
      stream.consumed.store(read, std::memory_order_release);
      released = read;
      room_.notify_all();
    }
  }
  stream.consumed.store(read, std::memory_order_release);
  // A chunk goes out at kChunkBytes, or once it is old enough that, with the
  // encoder's period, no record waits much longer than kChunkMillis.
  if (stream.records > 0 && (finish || MonotonicNs() - stream.chunk_start_ns >= kChunkMillis / 2 * 1000000)) {
    HandOver(stream);
  }
}

void TraceSession::Discard(ThreadStream& stream) {
  uint64_t read = stream.consumed.load(std::memory_order_relaxed);
  const uint64_t committed = stream.committed.load(std::memory_order_acquire);
  while (read < committed) {
    size_t offset = static_cast<size_t>(read & (kRingBytes - 1));
    uint64_t head;
    std::memcpy(&head, stream.ring + offset, sizeof head);
    read += (head & 0xff) == raw::kEntryWrap ? kRingBytes - offset : EncodeEntry(stream, stream.ring + offset, true);
  }
  stream.consumed.store(read, std::memory_order_release);
  ResetChunk(stream);
}

void TraceSession::ResetChunk(ThreadStream& stream) {
  stream.chunk.Clear();
  stream.records = 0;
  stream.run.Restart();
}

void TraceSession::HandOver(ThreadStream& stream) {
  if (stream.records == 0) return;
  if (!active()) {  // after a failure or the end of the session: nowhere to go
    ResetChunk(stream);
    return;
  }
  PendingChunk chunk;
  chunk.info.thread_id = stream.thread_id;
  chunk.info.first_sequence = stream.first_sequence;
  chunk.info.record_count = stream.records;
  chunk.info.first_frame = stream.first_frame;
  chunk.size = stream.chunk.size;
  {
    // Compression and the write happen on the writer thread.
    std::unique_lock<std::mutex> lock(queue_mutex_);
    queue_space_.wait(lock, [&] { return queue_.size() < kMaxQueuedChunks || writer_done_; });
    chunk.storage = std::move(stream.chunk.storage);
    if (!spare_.empty()) {
      stream.chunk.storage = std::move(spare_.back());
      spare_.pop_back();
    }
    queue_.push_back(std::move(chunk));
  }
  queue_ready_.notify_one();
  if (stream.chunk.storage.size() < kChunkBytes) stream.chunk.storage.resize(kChunkBytes + 64 * 1024);
  ResetChunk(stream);
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

uint32_t TraceSession::EndFrame() {
  uint32_t ended = g_per_call.frame.fetch_add(1, std::memory_order_relaxed);
  if (sink_) sink_->AddFrame(ended + 1, PeekSequence());
  return ended;
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

void TraceSession::Finish() {
  if (forked_.load()) return;  // the trace belongs to the parent process
  std::lock_guard<std::mutex> lifecycle(lifecycle_mutex_);
  desired_.store(false);
  if (!sink_ || stopping_.load()) return;
  {
    std::lock_guard<std::mutex> lock(kick_mutex_);
    stopping_.store(true);
  }
  kicked_.notify_all();
  if (encoder_.joinable()) encoder_.join();
  auto stop_writer = [this] {
    {
      std::lock_guard<std::mutex> lock(queue_mutex_);
      writer_done_ = true;
    }
    queue_ready_.notify_all();
    queue_space_.notify_all();
    if (writer_.joinable()) writer_.join();
  };
  {
    // Whole entries only: a thread in the middle of a call has not published it.
    std::lock_guard<std::mutex> encode(encode_mutex_);
    EncodeAll(true);
  }
  room_.notify_all();
  stop_writer();
  bool was_active = active();
  active_.store(false);
  std::string error;
  if (was_active && !sink_->Finish(&error)) {
    STRATA_ERROR("tracing: %s", error.c_str());
  } else if (was_active) {
    STRATA_INFO("trace written to %s (%llu calls, %u frames)", sink_->Describe().c_str(),
                static_cast<unsigned long long>(PeekSequence()), frame());
  }
  sink_.reset();
  {
    std::lock_guard<std::mutex> lock(queue_mutex_);
    queue_.clear();
  }
}

}  // namespace strata::trace
