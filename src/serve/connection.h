#pragma once
// One client connection = one client thread = one host thread: EGL binds
// contexts to threads, so the calls a client thread makes run on a host
// thread of their own, this connection's, for its whole life.

#include <atomic>
#include <memory>
#include <string>

#include "host/host_driver.h"
#include "serve/frame_display.h"
#include "serve/message_preparer.h"
#include "serve/session.h"
#include "stream/bulk_blobs.h"
#include "stream/byte_writer.h"
#include "stream/call_decoder.h"
#include "stream/call_encoder.h"
#include "transport/byte_stream.h"
#include "stream/wire.h"

namespace strata::serve {

// What every connection of a worker shares.
struct ServeContext {
  const host::HostDriver* driver = nullptr;
  std::string record_dir;  // empty: no --record
  FrameDisplay* display = nullptr;  // --display
  uint64_t client_memory = 0;       // --client-memory (0: no limit)
  // --decode-ahead: large messages' calls are kept decoded on a second
  // thread while the connection's thread runs them (serve/message_preparer.h).
  bool decode_ahead = false;
};

// The largest message a client may send (a texture upload of 8192x8192 RGBA
// float is 1 GiB; clients split bigger uploads, and a bogus length must not
// make us allocate gigabytes).
inline constexpr uint32_t kMaxMessageBytes = 512u << 20;

class Connection {
 public:
  // A client's connection the listener handed over with its hello accepted
  // (worker_channel.h): `answer` goes to the client first, then its messages
  // run in `session`.
  Connection(ServeContext& context, std::unique_ptr<transport::ByteStream> stream, std::shared_ptr<Session> session,
             stream::wire::Hello answer);
  ~Connection();

  // The answer, then messages until the client leaves or is closed. On the
  // connection's own thread.
  void Run();
  // From any thread: wakes Run() and makes it end.
  void Shutdown() { stream_->Shutdown(); }
  bool done() const { return done_.load(); }

 private:
  // Joins the session and sends the answer; false when the client is gone.
  bool Begin();
  // False with *problem for input that closes the client. `readable`: the
  // bytes readable from message.data() on (the message and its slack).
  bool HandleMessage(std::span<const uint8_t> message, size_t readable, std::string* problem);
  // Whether a message of this size is kept decoded ahead (MessagePreparer).
  bool PreparesAhead(size_t message_bytes);
  // After each call ran: its reply (and a window's frame) into this
  // message's answer, and the call with its reply into --record's chunk.
  void OnReply(const stream::DecodedCall& call, const host::CallReply& reply);
  void StoreRecord(std::span<const uint8_t> record);
  // --record: a `context` trace event with the driver's strings for `context`, current on this thread now.
  void DescribeContext(uint64_t context, uint64_t thread);
  // Session::send_window_frame: the frame read back straight into the
  // transport where it has room now (a ring), with this message's answers
  // so far sent before it. False where it has not.
  bool SendWindowFrameInPlace(const stream::DecodedCall& swap);
  // A bulk segment (stream/bulk_blobs.h) for the next message: viewed in
  // place or copied. False once the stream failed.
  bool ReadBulkSegment(uint32_t size);
  // Before reading `size` bytes that are not a view: the views held are
  // copied out and the ring's room given back if the client could not
  // otherwise write them.
  void MakeRoomToRead(size_t size);
  void SendError(const std::string& message);
  // Leaves the thread's EGL state so the session's executor can free everything.
  void ReleaseHostThread();

  ServeContext& context_;
  std::unique_ptr<transport::ByteStream> stream_;
  std::shared_ptr<Session> session_;
  const stream::wire::Hello answer_;
  uint32_t thread_ = 0;
  stream::DecodedCall stored_;
  std::vector<uint8_t> message_;
  std::unique_ptr<MessagePreparer> preparer_;  // made for the first message it pays for
  uint32_t messages_unprepared_ = 0;           // large messages still to run without it
  bool bulk_allowed_ = false;  // the client agreed to bulk-v1
  bool word_runs_allowed_ = false;  // and to words-v1
  stream::BulkBlobs bulk_;     // the segments before the next message
  // Bytes read since views were taken (headers aside: ViewLimit leaves half
  // the ring as slack); the transport's room is not given back until released.
  size_t bulk_held_ = 0;
  stream::ByteBuffer out_;  // this message's answer: framebuffers and replies
  // The first window frame of this message: its pixels go from here to the
  // transport after out_'s first `frame_at_` bytes (a frame is not copied into out_).
  host::RgbaImage frame_;
  size_t frame_at_ = kNoFrame;
  static constexpr size_t kNoFrame = SIZE_MAX;
  host::RgbaImage more_frames_;  // any other frame of the message, copied into out_
  stream::ByteBuffer frame_head_;     // a frame's record up to its pixels, sent in place
  bool frame_sent_in_place_ = false;  // by the swap that runs now: OnReply has nothing to send
  // --record: this message's records as one chunk of the connection's thread.
  stream::ByteBuffer chunk_;
  stream::CallRun run_;
  uint32_t chunk_records_ = 0;
  uint64_t chunk_first_sequence_ = 0;
  std::atomic<bool> done_{false};
};

}  // namespace strata::serve
