#include "remote/connection.h"

#include <EGL/egl.h>
#include <GLES3/gl32.h>
#include <pthread.h>
#include <time.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <set>
#include <utility>

#include "common/log.h"
#include "present/window_presenter.h"
#include "remote/reply_scan.h"
#include "remote/session.h"
#include "strata/api/traits.h"
#include "stream/event_records.h"
#include "stream/record_format.h"

namespace strata::remote {

void* const* g_native_functions = nullptr;

namespace {

uint64_t MonotonicNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
}

// The largest message the renderer may send (a 16k x 16k RGBA frame and change).
constexpr uint32_t kMaxIncoming = 1100u << 20;
// A message at least this large (a window's frame) is read where it lies in the ring.
constexpr uint32_t kViewedMessageBytes = 64u << 10;

thread_local int32_t t_egl_error = EGL_SUCCESS;
// A call of a lost context that asked for reset notification made GL_CONTEXT_LOST.
thread_local bool t_context_lost_error = false;

}  // namespace

// Strings handed to the app live as long as the process.
const char* InternString(std::string_view s) {
  static std::mutex mu;
  static std::set<std::string, std::less<>> strings;
  std::lock_guard lock(mu);
  auto it = strings.find(s);
  if (it == strings.end()) it = strings.emplace(s).first;
  return it->c_str();
}

int32_t TakeThreadEglError() {
  EGLint e = t_egl_error;
  t_egl_error = EGL_SUCCESS;
  return e;
}
void SetThreadEglError(int32_t error) { t_egl_error = error; }

Connection::Connection(Session& session, std::unique_ptr<transport::ByteStream> stream, uint32_t thread_id)
    : BulkSink(stream::wire::kBulkBlobBytes),
      session_(session),
      stream_(std::move(stream)),
      thread_id_(thread_id),
      sequence_taker_(session.sequence_numbers().NewTaker()),
      shadow_(&no_context_) {
  if (stream::wire::HasFeature(session.features(), stream::wire::kFeatureBulk)) batch_.bulk = this;
  word_runs_ = stream::wire::HasFeature(session.features(), stream::wire::kFeatureWordRuns);
  word_arrays_ = word_runs_ && stream::wire::HasFeature(session.features(), stream::wire::kFeatureWordArrays);
  // A reply to a state query takes the renderer a few us: wait for it awake.
  stream_->SetReadSpin(kReplySpinMicroseconds);
  no_context_.set_connection(this);
  batch_ns_ = MonotonicNs();
  session_.AddConnection(this);
}

Connection::~Connection() {
  // What the thread held goes out with it: another thread may make its context current next.
  if (!session_.lost()) {
    SendDeferred();
    if (Flush()) {
      uint8_t goodbye[stream::wire::kMessageHeaderBytes];
      stream::wire::PutMessageHeader(goodbye, stream::wire::kGoodbye);
      stream_->Write(goodbye, sizeof goodbye);
      stream_->Flush();
    }
  }
  // The frames already sent are shown before the thread goes.
  WaitForFrames(0);
  {
    std::lock_guard lock(frames_mu_);
    stopping_ = true;
  }
  frames_cv_.notify_all();
  if (frame_thread_.joinable()) frame_thread_.join();
  session_.RemoveConnection(this);
}

bool Connection::ReadMessage(std::vector<uint8_t>& incoming, bool may_view, std::span<const uint8_t>* message,
                             bool* viewed) {
  uint8_t header[stream::wire::kMessageHeaderBytes];
  if (!stream_->ReadFully(header, sizeof header)) {
    Fail(stream_->error(), true);
    return false;
  }
  const uint32_t size = stream::wire::MessageSize(header);
  if (size > kMaxIncoming) {
    Fail("the renderer at " + session_.address() + " sent a message of " + std::to_string(size) +
         " bytes, larger than any reply");
    return false;
  }
  session_.traffic().bytes_received += sizeof header + size;
  *viewed = false;
  if (may_view && size >= kViewedMessageBytes && size <= stream_->ViewLimit()) {
    if (const uint8_t* in_place = stream_->View(size)) {
      *message = {in_place, size};
      *viewed = true;
      return true;
    }
  }
  incoming.resize(size);
  if (!stream_->ReadFully(incoming.data(), size)) {
    Fail(stream_->error(), true);
    return false;
  }
  *message = incoming;
  return true;
}

bool Connection::SendWindowSwap(uint64_t sequence, int slot, std::shared_ptr<WindowPresenter> presenter) {
  if (!Flush()) return false;
  {
    std::lock_guard lock(frames_mu_);
    swaps_.push_back({sequence, slot, std::move(presenter)});
    if (!frame_thread_.joinable()) frame_thread_ = std::thread([this] { ShowFrames(); });
  }
  frames_cv_.notify_all();
  WaitForFrames(1);
  return !session_.lost();
}

void Connection::WaitForFrames(size_t at_most) {
  std::unique_lock lock(frames_mu_);
  frames_cv_.wait(lock, [&] { return swaps_.size() <= at_most; });
}

void Connection::ShowFrames() {
  std::unique_lock lock(frames_mu_);
  for (;;) {
    frames_cv_.wait(lock, [&] { return stopping_ || !swaps_.empty(); });
    if (swaps_.empty()) return;  // stopping, nothing in flight
    const WindowSwap swap = swaps_.front();
    lock.unlock();
    // Its frame comes before its reply. Replies come in order and the app
    // waits for no other while a swap is in flight, so the stream is this
    // thread's until Await returns. A frame comes a frame's time after the
    // last, not within a reply's microseconds: this thread sleeps at once
    // instead of spinning on a core the renderer's rasterizer needs.
    stream_->SetReadSpin(0);
    const bool ok = Await(swap.sequence, swap.slot, frame_incoming_, &frame_reply_, swap.presenter.get());
    stream_->SetReadSpin(kReplySpinMicroseconds);
    lock.lock();
    // A renderer that is gone shows no more frames: nobody waits for them.
    if (ok) swaps_.pop_front(); else swaps_.clear();
    frames_cv_.notify_all();
  }
}

void Connection::SetCurrent(uint64_t context_id, ContextShadow* shadow) {
  EndWordRun();  // a run's calls are of one context
  context_id_ = context_id;
  deferred_.ContextChanged();
  shadow_ = shadow != nullptr ? shadow : &no_context_;
  shadow_->set_connection(this);
}

void Connection::Fail(const std::string& why, bool ask_why) {
  session_.Lose(why, ask_why);
  stream_->Shutdown();
}

void Connection::PutBulk(const void* data, size_t size) {
  flush_at_ = 0;
  if (session_.lost()) return;
  uint8_t header[stream::wire::kMessageHeaderBytes];
  if (const size_t padding = stream_->PlacementPadding(2 * sizeof header, size); padding > 0) {
    stream::wire::PutMessageHeader(header, static_cast<uint32_t>(padding) | stream::wire::kBulkSegmentBit |
                                               stream::wire::kPaddingBit);
    stream_->Write(header, sizeof header);
    stream_->WritePadding(padding);
  }
  // Past 1 GiB the header says less than comes: the renderer refuses it by size.
  const uint32_t announced = static_cast<uint32_t>(std::min<size_t>(size, stream::wire::kPaddingBit - 1));
  stream::wire::PutMessageHeader(header, announced | stream::wire::kBulkSegmentBit);
  stream_->Write(header, sizeof header);
  stream_->Write(data, size);
  session_.traffic().bytes_sent += sizeof header + size;
  session_.traffic().bulk_bytes += size;
}

void Connection::BeginWordRun(uint64_t sequence) {
  EndWordRun();
  word_run_.Open(batch_, sequence, context_id_, batch_ns_);
}

bool Connection::Flush() {
  EndWordRun();
  flush_at_ = kBatchBytes;
  if (session_.lost()) return false;
  session_.traffic().absorbed += deferred_.TakeAbsorbed() + answered_;
  answered_ = 0;
  if (batch_.size == 0) return true;
  uint8_t header[stream::wire::kMessageHeaderBytes];
  stream::wire::PutMessageHeader(header, static_cast<uint32_t>(batch_.size));
  stream_->Write(header, sizeof header);
  stream_->Write(batch_.storage.data(), batch_.size);
  TrafficCounts& traffic = session_.traffic();
  traffic.calls += run_.calls;
  traffic.word_calls += std::exchange(word_calls_, 0);
  traffic.bytes_sent += sizeof header + batch_.size;
  traffic.flushes += 1;
  const bool ok = stream_->Flush();
  batch_.Clear();
  run_.Restart();
  batch_ns_ = MonotonicNs();
  if (!ok) Fail(stream_->error(), true);
  return ok;
}

const stream::wire::Reply* Connection::Roundtrip(uint64_t sequence, int slot) {
  bool answered = false;
  if (Flush()) {
    session_.traffic().round_trips += 1;
    // The replies of window swaps come first; the frame thread takes them.
    WaitForFrames(0);
    answered = !session_.lost() && Await(sequence, slot, incoming_, &reply_, nullptr);
  }
  if (answered) return &reply_;
  // The renderer is gone: the program ends in the call that found it out, as
  // the line Session::Lose wrote says (the app's own handling of the failed
  // call would end it otherwise), unless it asked to be told of resets.
  if (session_.lost()) session_.EndUnlessToldOfResets();
  return nullptr;
}

bool Connection::Await(uint64_t sequence, int slot, std::vector<uint8_t>& incoming, stream::wire::Reply* reply,
                       WindowPresenter* presenter) {
  for (;;) {
    std::span<const uint8_t> message;
    bool viewed = false;
    if (!ReadMessage(incoming, presenter != nullptr, &message, &viewed)) return false;
    std::string why;
    const auto show = [presenter](const stream::FramebufferImage& frame) {
      if (presenter != nullptr) presenter->Present(frame);
    };
    // Read once, in place: a renderer that rewrites the ring meanwhile spoils only its own pixels.
    const ReplyScan scan = ScanRendererMessage(message, sequence, slot, reply, show, &why);
    if (viewed) stream_->ReleaseViews();
    switch (scan) {
      case ReplyScan::kReplied: return true;
      case ReplyScan::kNotYet: break;
      case ReplyScan::kClosed:
        Fail("the renderer at " + session_.address() + " closed this client: " + why);
        return false;
      case ReplyScan::kMalformed:
        Fail("the renderer at " + session_.address() + " sent a malformed message: " + why);
        return false;
    }
  }
}

void Connection::PutMemory(const void* address, size_t size) {
  stream::ByteWriter w(&batch());
  const size_t at = w.BeginRecord(static_cast<uint8_t>(stream::RecordType::kMemory));
  stream::EncodeMemory(w, address, size);
  w.EndRecord(at);
}

void Connection::PutSurfaceEvent(uint64_t surface, int width, int height) {
  stream::ByteWriter w(&batch());
  const size_t at = w.BeginRecord(static_cast<uint8_t>(stream::RecordType::kTraceEvent));
  stream::EncodeSurfaceEvent(w, surface, static_cast<uint64_t>(width), static_cast<uint64_t>(height));
  w.EndRecord(at);
}

const char* Connection::Intern(const stream::DecodedValue& value) {
  if (!value.has_out) return nullptr;
  std::string_view s(reinterpret_cast<const char*>(value.out.data()), value.out.size());
  if (!s.empty() && s.back() == '\0') s.remove_suffix(1);
  return InternString(s);
}

void Connection::TakeEglError(const stream::wire::Reply& reply) {
  if (reply.egl_error) t_egl_error = *reply.egl_error;
}

namespace {

struct ThreadSlot {
  std::unique_ptr<Connection> connection;
  bool tried = false;
  ~ThreadSlot() {
    if (g_first_thread.load(std::memory_order_relaxed) == pthread_self()) {
      g_first_thread.store(0, std::memory_order_relaxed);
    }
    // Runs at thread exit: what the thread sent last must not be lost.
    connection.reset();
  }
};
thread_local ThreadSlot t_slot;

Connection* Unlost(Connection* c) {
  if (!Session::Get().lost()) [[likely]] return c;
  Session::Get().EndUnlessToldOfResets();
  return nullptr;
}

}  // namespace

std::atomic<pthread_t> g_first_thread{0};
Connection* g_first_connection = nullptr;

void ForgetInheritedConnections() {
  (void)t_slot.connection.release();  // its destructor would flush into the parent's ring
  t_slot.tried = false;
  g_first_thread.store(0, std::memory_order_relaxed);
  g_first_connection = nullptr;
}

Connection* OtherThreadConnectionHolding() {
  if (g_first_thread.load(std::memory_order_relaxed) == pthread_self()) return Unlost(g_first_connection);
  Connection* c = t_slot.connection.get();
  if (c != nullptr || t_slot.tried) return Unlost(c);
  Session& session = Session::Get();
  if (!session.Start()) return nullptr;
  t_slot.tried = true;
  t_slot.connection = session.ConnectThread(session.NewThreadId());
  if (t_slot.connection == nullptr) return Unlost(nullptr);  // the renderer went while this thread connected
  pthread_t none = 0;
  if (t_slot.connection != nullptr &&
      g_first_thread.compare_exchange_strong(none, pthread_self(), std::memory_order_relaxed)) {
    g_first_connection = t_slot.connection.get();  // read by this thread alone, from its next call on
  }
  return t_slot.connection.get();
}

void LostEglCall() { t_egl_error = Session::Get().started() ? EGL_CONTEXT_LOST : EGL_NOT_INITIALIZED; }

uint64_t LostCall(int slot) {
  if (api::kFunctions[slot].is_egl) {
    LostEglCall();
    return 0;
  }
  const bool started = Session::Get().started();
  const Connection* c = t_slot.connection.get();
  const bool told = started && c != nullptr && c->shadow().reset_notified();
  // The EXT and KHR entry points are registry aliases of glGetGraphicsResetStatus.
  switch (api::CoreOf(slot)) {
    case api::glGetGraphicsResetStatus:
      return told ? GL_UNKNOWN_CONTEXT_RESET : GL_NO_ERROR;
    case api::glGetError:
      // Every other call of a lost context makes the error; glGetError itself does not.
      return std::exchange(t_context_lost_error, false) ? GL_CONTEXT_LOST : GL_NO_ERROR;
    default:
      t_context_lost_error = told;
      return 0;
  }
}

}  // namespace strata::remote
