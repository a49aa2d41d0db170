#include "serve/session.h"

#include <EGL/egl.h>

#include "serve/frame_display.h"
#include "serve/handshake.h"
#include "serve/log.h"
#include "stream/wire.h"

namespace strata::serve {

std::string ClientInfo::Describe() const { return NameClient(program, std::to_string(pid), address); }

Session::Session(std::string id, std::string key, ClientInfo client, const std::string& functions,
                 std::string features, const host::HostDriver& driver, std::unique_ptr<Recorder> recorder,
                 FrameDisplay* display, uint64_t memory_limit)
    : display_(display),
      id_(std::move(id)),
      key_(std::move(key)),
      client_(std::move(client)),
      features_(std::move(features)),
      window_frames_(stream::wire::HasFeature(features_, stream::wire::kFeatureWindowFrames)),
      surfaces_(host::MakePbufferSurfaceFactory(driver)),
      recorder_(std::move(recorder)) {
  functions_.Load(functions);
  dispatch_ = std::make_unique<host::RecordDispatch>(driver, *surfaces_, functions_, host::HostThreads::kCaller);
  // Calls that give nothing back run through the executor's generated
  // handlers; --record sees every call, with what it gave back.
  if (recorder_ == nullptr) dispatch_->HookSlots([](int) { return false; });
  dispatch_->AllowWordArrays(stream::wire::HasFeature(features_, stream::wire::kFeatureWordArrays));
  executor().SetStorageLimit(memory_limit);
  // A frame is read back before its swap: a window's for the client to
  // show, every one for --record (so that the file replays with --verify).
  executor().before_swap = [this](const stream::DecodedCall& swap, uint64_t surface) {
    const bool window = window_frames_ && window_surfaces_.count(surface) != 0;
    if (!window && recorder_ == nullptr) return;
    if (window && recorder_ == nullptr && send_window_frame && send_window_frame(swap)) return;
    const auto thread = static_cast<uint32_t>(swap.thread);
    capture_error_.clear();
    // In the host's own order: the client and --record's readers take either.
    captured_ = executor().ReadSurface(thread, &capture_, &capture_error_, host::ReadOrder::kBgraWhereNative);
  };
}

Session::~Session() {
  uint64_t calls = 0;
  {
    std::lock_guard lock(mu_);
    // What the executor refused (over the memory budget, blobs short of
    // their sizes, ...): the operator's to know, one line per function.
    for (const std::string& problem : dispatch_->executor().problems()) {
      Log("client " + client_.Describe() + ": " + problem);
    }
    calls = dispatch_->calls();
    dispatch_.reset();  // frees the client's objects on this thread
    surfaces_.reset();
    recorder_.reset();
  }
  if (display_ != nullptr) display_->ForgetSession(id_);
  std::string how = close_reason_.empty() ? last_end_ : close_reason_;
  Log("client left: " + client_.Describe() + ": " + (how.empty() ? "normal end" : how) + " (" +
      std::to_string(calls) + " calls run, " + std::to_string(decoded_ahead_) + " of them decoded ahead)");
}

bool Session::TakeCapture(host::RgbaImage* into, std::string* error) {
  if (!captured_) {
    *error = capture_error_.empty() ? "the swap read back nothing" : capture_error_;
    return false;
  }
  captured_ = false;
  std::swap(*into, capture_);
  return true;
}

uint32_t Session::NewThread() {
  std::lock_guard lock(links_mu_);
  return ++next_thread_;
}

void Session::Attach(transport::ByteStream* stream) {
  std::lock_guard lock(links_mu_);
  streams_.insert(stream);
  // A session closed while this thread joined: end the newcomer too.
  if (closed_) stream->Shutdown();
}

void Session::Detach(transport::ByteStream* stream, const std::string& how_it_ended) {
  std::lock_guard lock(links_mu_);
  streams_.erase(stream);
  last_end_ = how_it_ended;
}

void Session::Close(const std::string& reason) {
  std::lock_guard lock(links_mu_);
  if (!closed_) close_reason_ = reason;
  closed_ = true;
  for (transport::ByteStream* stream : streams_) stream->Shutdown();
}

bool Session::closed() const {
  std::lock_guard lock(links_mu_);
  return closed_;
}

}  // namespace strata::serve
