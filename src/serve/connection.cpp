#include "serve/connection.h"

#include <EGL/egl.h>
#include <GLES3/gl3.h>

#include <algorithm>
#include <cstring>

#include "serve/log.h"
#include "strata/api/traits.h"
#include "stream/byte_reader.h"
#include "stream/event_records.h"
#include "stream/framebuffer_record.h"
#include "stream/record_format.h"
#include "stream/record_reader.h"
#include "stream/slack_reader.h"
#include "stream/wire.h"

namespace strata::serve {
namespace {

namespace wire = stream::wire;
using stream::RecordType;

constexpr int kNextMessageSpinMicroseconds = 200;
// The least message whose calls are kept decoded ahead on a second thread.
constexpr size_t kDecodeAheadBytes = 4096;
// After a message of which less than half was kept decoded, how many go
// without (then one is tried again: a program's calls change with its scenes).
constexpr uint32_t kMessagesUnpreparedAfterFew = 63;

// The framebuffer record's fields for a frame read back before `swap`.
stream::FramebufferImage FrameOfSwap(const stream::DecodedCall& swap, int width, int height, bool bgra) {
  stream::FramebufferImage frame;
  frame.sequence = swap.sequence;
  frame.context = swap.context;
  frame.width = static_cast<uint64_t>(width);
  frame.height = static_cast<uint64_t>(height);
  frame.format = bgra ? stream::kFramebufferBgra8 : stream::kFramebufferRgba8;
  return frame;
}

}  // namespace

Connection::Connection(ServeContext& context, std::unique_ptr<transport::ByteStream> stream,
                       std::shared_ptr<Session> session, wire::Hello answer)
    : context_(context), stream_(std::move(stream)), session_(std::move(session)), answer_(std::move(answer)) {}

Connection::~Connection() = default;

bool Connection::Begin() {
  bulk_allowed_ = wire::HasFeature(session_->features(), wire::kFeatureBulk);
  word_runs_allowed_ = wire::HasFeature(session_->features(), wire::kFeatureWordRuns);
  thread_ = session_->NewThread();
  session_->Attach(stream_.get());
  std::vector<uint8_t> bytes = wire::EncodeHello(wire::kRendererMagic, answer_);
  stream_->Write(bytes.data(), bytes.size());
  if (!stream_->Flush()) {
    session_->Detach(stream_.get(), "lost during the handshake: " + stream_->error());
    session_.reset();
    return false;
  }
  return true;
}

void Connection::Run() {
  if (Begin()) {
    // The client's next call after an answer comes within microseconds
    // when it is querying state: wait for it awake (byte_stream.h).
    stream_->SetReadSpin(kNextMessageSpinMicroseconds);
    std::string how_it_ended;
    bool said_goodbye = false;
    for (;;) {
      uint8_t header[wire::kMessageHeaderBytes];
      const auto got = stream_->ReadFullyWithin(header, sizeof header, -1);
      if (got == transport::ByteStream::ReadResult::kClosed) {
        // Only a client thread that ends on purpose says goodbye first.
        how_it_ended = said_goodbye ? "normal end"
                                    : "disconnected without a goodbye (killed, crashed, or its process exited "
                                      "while this thread still ran)";
        break;
      }
      if (got != transport::ByteStream::ReadResult::kOk) {
        how_it_ended = "connection error: " + stream_->error();
        break;
      }
      const uint32_t word = wire::MessageSize(header);
      const bool bulk = (word & wire::kBulkSegmentBit) != 0;
      const bool padding = bulk && (word & wire::kPaddingBit) != 0;
      const uint32_t size = bulk ? word & (wire::kPaddingBit - 1) : word;
      std::string problem;
      if (said_goodbye) {
        problem = "a message after the client's goodbye";
      } else if (word == wire::kGoodbye) {
        said_goodbye = true;
        continue;
      } else if (bulk && !bulk_allowed_) {
        problem = "a bulk segment, but bulk-v1 was not agreed in the handshake";
      } else if (size > kMaxMessageBytes) {
        problem = std::string(bulk ? "a bulk segment" : "a message") + " of " + std::to_string(size) +
                  " bytes (at most " + std::to_string(kMaxMessageBytes) + " allowed)";
      } else if (padding) {
        if (stream_->Skip(size)) continue;
        how_it_ended = "lost in the middle of padding (killed?): " + stream_->error();
        break;
      } else if (bulk) {
        if (ReadBulkSegment(size)) continue;
        how_it_ended = "lost in the middle of a bulk segment (killed?): " + stream_->error();
        break;
      } else {
        MakeRoomToRead(size);
        // Grown, never shrunk: a vector resized down and up again zero-fills
        // the difference, 4 MiB per frame between batches and uploads. The
        // slack after the message lets the handlers read its records in place.
        if (message_.size() < size + stream::SlackReader::kSlackBytes) {
          message_.resize(size + stream::SlackReader::kSlackBytes);
        }
        if (!stream_->ReadFully(message_.data(), size)) {
          how_it_ended = "lost in the middle of a message (killed?): " + stream_->error();
          break;
        }
        bulk_held_ += size;
        const bool handled = HandleMessage(std::span<const uint8_t>(message_.data(), size), message_.size(), &problem);
        if (handled && bulk_.untaken() != 0) {
          problem = std::to_string(bulk_.untaken()) + " bulk segment(s) no call of the message used";
        }
        bulk_.Clear();
        stream_->ReleaseViews();
        bulk_held_ = 0;
        if (problem.empty()) continue;
      }
      // Bad input ends this client only; the others never notice.
      SendError(problem);
      Log("closing " + session_->client().Describe() + ": " + problem);
      how_it_ended = "error: " + problem;
      session_->Close(how_it_ended);
      break;
    }
    {
      std::lock_guard lock(session_->mutex());
      ReleaseHostThread();
    }
    preparer_.reset();  // it decodes with the session's function table
    session_->Detach(stream_.get(), how_it_ended);
    session_.reset();  // the last connection of a client frees its objects here, on a thread of its own
  }
  stream_->Shutdown();
  done_ = true;
}

bool Connection::ReadBulkSegment(uint32_t size) {
  // In place where the transport can (a ring: the driver reads the texture
  // from shared memory), else into memory of the connection's own.
  if (const uint8_t* view = stream_->View(size)) {
    bulk_.Add({view, size}, true);
    bulk_held_ += size;
    return true;
  }
  if (!stream_->error().empty()) return false;
  MakeRoomToRead(size);
  uint8_t* room = bulk_.Room(size);
  if (!stream_->ReadFully(room, size)) return false;
  bulk_.Add({room, size}, false);
  bulk_held_ += size;
  return true;
}

void Connection::MakeRoomToRead(size_t size) {
  // The client must be able to write `size` more bytes past the views held
  // (byte_stream.h); if not, the views are copied out and given back.
  if (bulk_held_ == 0 || size <= stream_->ViewLimit() - std::min(stream_->ViewLimit(), bulk_held_)) return;
  bulk_.Own();
  stream_->ReleaseViews();
  bulk_held_ = 0;
}

bool Connection::PreparesAhead(size_t message_bytes) {
  // Only calls that run through the generated handlers are kept decoded;
  // a short message is run before a second thread would have helped.
  if (!context_.decode_ahead || message_bytes < kDecodeAheadBytes || !session_->dispatch().RunsHandlers()) return false;
  if (messages_unprepared_ == 0) return true;
  --messages_unprepared_;
  return false;
}

void Connection::ReleaseHostThread() {
  const host::HostDriver& driver = *context_.driver;
  EGLDisplay display = driver.Get<PFNEGLGETCURRENTDISPLAYPROC>(api::eglGetCurrentDisplay)();
  if (display != EGL_NO_DISPLAY) {
    driver.Get<PFNEGLMAKECURRENTPROC>(api::eglMakeCurrent)(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  }
  driver.Get<PFNEGLRELEASETHREADPROC>(api::eglReleaseThread)();
}

void Connection::SendError(const std::string& message) {
  stream::ByteBuffer record;
  stream::ByteWriter w(&record);
  const size_t at = w.BeginRecord(static_cast<uint8_t>(RecordType::kTraceEvent));
  w.String("error");
  w.String(message);
  w.EndRecord(at);
  uint8_t header[wire::kMessageHeaderBytes];
  wire::PutMessageHeader(header, static_cast<uint32_t>(record.size));
  stream_->Write(header, sizeof header);
  stream_->Write(record.storage.data(), record.size);
  stream_->Flush();  // best effort: the client may be gone already
}

void Connection::StoreRecord(std::span<const uint8_t> record) {
  if (session_->recorder() == nullptr) return;
  std::memcpy(chunk_.Reserve(record.size()), record.data(), record.size());
  chunk_.size += record.size();
  ++chunk_records_;
}

bool Connection::HandleMessage(std::span<const uint8_t> message, size_t readable, std::string* problem) {
  {
    std::lock_guard lock(session_->mutex());
    host::RecordDispatch& dispatch = session_->dispatch();
    dispatch.on_reply = [this](const stream::DecodedCall& call, const host::CallReply& reply) { OnReply(call, reply); };
    dispatch.SetBulk(bulk_allowed_ ? &bulk_ : nullptr, wire::kBulkBlobBytes);
    // Frames the server also shows itself (--display) are read into its own buffer.
    if (context_.display == nullptr) {
      session_->send_window_frame = [this](const stream::DecodedCall& swap) { return SendWindowFrameInPlace(swap); };
    }
    // EGL calls always: their error is taken after each (eglGetError answers
    // from it), and OnReply follows window surfaces and swaps.
    const bool recording = session_->recorder() != nullptr;
    dispatch.wants_reply = [recording](const stream::DecodedCall& call) {
      return recording || (call.flags & wire::kCallWantsReply) || api::kFunctions[call.slot].is_egl;
    };
    out_.Clear();
    frame_at_ = kNoFrame;
    chunk_.Clear();
    run_.Restart();
    chunk_records_ = 0;
    stream::Record record;
    record.thread_id = thread_;
    record.chunk = session_->NextChunk();
    // One record (or run of calls kept decoded) of the message; false when it
    // closes the client. `handlers_tried`: RunHandledIn stopped at it.
    const auto run_record = [&](std::span<const uint8_t> bytes, bool handlers_tried) __attribute__((always_inline)) {
      // What a client may send: calls and what they read (memory, surface sizes).
      if (record.type != RecordType::kCall && record.type != RecordType::kMemory &&
          record.type != RecordType::kTraceEvent && (record.type != RecordType::kWordRun || !word_runs_allowed_))
          [[unlikely]] {
        *problem = "a record of type " + std::to_string(static_cast<int>(record.type)) + ", which clients do not send" +
                   (record.type == RecordType::kWordRun ? " (words-v1 was not agreed in the handshake)" : "");
        return false;
      }
      if (!(handlers_tried ? dispatch.DispatchUnhandled(record, problem) : dispatch.Dispatch(record, problem))) {
        return false;
      }
      // Calls are stored as they ran, with what they gave back (OnReply), those of word runs as call records.
      if (record.type == RecordType::kMemory || record.type == RecordType::kTraceEvent) StoreRecord(bytes);
      return true;
    };
    bool ok = true;
    if (PreparesAhead(message.size())) {
      if (preparer_ == nullptr) {
        preparer_ = std::make_unique<MessagePreparer>(session_->functions(), bulk_allowed_ ? wire::kBulkBlobBytes : 0);
      }
      preparer_->Begin(message, readable, thread_, record.chunk);
      std::span<const uint8_t> bytes;
      while (ok && preparer_->Next(&record, &bytes, problem)) ok = run_record(bytes, false);
      if (!ok) preparer_->Finish();
      session_->CountDecodedAhead(preparer_->message_records_prepared());
      // Where few calls were kept decoded (most take pointers), the second
      // thread only adds its handing over: the next messages go without it.
      if (preparer_->message_records_prepared() * 2 < preparer_->message_records()) {
        messages_unprepared_ = kMessagesUnpreparedAfterFew;
        preparer_->Rest();
      }
    } else {
      // Most records run in the dispatch's own loop; each it stops at (a call
      // no handler takes, a memory record) runs here, and the loop goes on after it.
      size_t at = 0, start = 0;
      while (ok) {
        if (!dispatch.RunHandledIn(message, readable, &at, thread_, record.chunk, word_runs_allowed_, problem)) {
          ok = false;
          break;
        }
        start = at;
        if (!stream::NextRecordIn(message, &at, &record, problem)) break;
        if (at + host::RecordDispatch::kPrefetchBytes < message.size()) {
          __builtin_prefetch(message.data() + at + host::RecordDispatch::kPrefetchBytes);
        }
        ok = run_record(message.subspan(start, at - start), true);
      }
    }
    ok = ok && problem->empty();
    dispatch.on_reply = nullptr;
    dispatch.wants_reply = nullptr;
    session_->send_window_frame = nullptr;
    dispatch.SetBulk(nullptr, 0);
    // What ran is stored even when the message broke off: the file shows what the client did.
    if (Recorder* recorder = session_->recorder()) {
      recorder->WriteChunk(thread_, chunk_first_sequence_, chunk_records_, chunk_.bytes());
    }
    if (!ok) return false;
  }
  if (out_.size == 0) return true;
  // Sent outside the session's lock: a client slow to read holds up none of its other threads.
  uint8_t header[wire::kMessageHeaderBytes];
  if (frame_at_ == kNoFrame) {
    wire::PutMessageHeader(header, static_cast<uint32_t>(out_.size));
    stream_->Write(header, sizeof header);
    stream_->Write(out_.storage.data(), out_.size);
  } else {
    // The window frame's pixels from the readback buffer, in their record's place.
    wire::PutMessageHeader(header, static_cast<uint32_t>(out_.size + frame_.pixels.size()));
    stream_->Write(header, sizeof header);
    stream_->Write(out_.storage.data(), frame_at_);
    stream_->Write(frame_.pixels.data(), frame_.pixels.size());
    stream_->Write(out_.storage.data() + frame_at_, out_.size - frame_at_);
  }
  if (!stream_->Flush()) {
    *problem = "cannot answer: " + stream_->error();
    return false;
  }
  return true;
}

bool Connection::SendWindowFrameInPlace(const stream::DecodedCall& swap) {
  // Laid out in the transport's memory: this message's answers so far (they
  // go first) as a message of their own, then the frame's message, whose
  // pixels the driver writes where they are sent from.
  size_t answers_bytes = 0, total = 0;
  uint8_t* room = nullptr;
  const auto place = [&](int width, int height, bool bgra) -> uint8_t* {
    frame_head_.Clear();
    stream::WriteFramebufferRecordHead(frame_head_, FrameOfSwap(swap, width, height, bgra));
    const size_t pixels = static_cast<size_t>(width) * static_cast<size_t>(height) * 4;
    answers_bytes = out_.size == 0 ? 0 : wire::kMessageHeaderBytes + out_.size;
    total = answers_bytes + wire::kMessageHeaderBytes + frame_head_.size + pixels;
    room = stream_->ReserveIfRoom(total);
    if (room == nullptr) return nullptr;
    uint8_t* at = room;
    if (answers_bytes != 0) {
      wire::PutMessageHeader(at, static_cast<uint32_t>(out_.size));
      std::memcpy(at + wire::kMessageHeaderBytes, out_.storage.data(), out_.size);
      at += answers_bytes;
    }
    wire::PutMessageHeader(at, static_cast<uint32_t>(frame_head_.size + pixels));
    at += wire::kMessageHeaderBytes;
    std::memcpy(at, frame_head_.storage.data(), frame_head_.size);
    return at + frame_head_.size;
  };
  std::string error;
  const bool read = session_->executor().ReadSurfaceInto(static_cast<uint32_t>(swap.thread), place, &error,
                                                         host::ReadOrder::kBgraWhereNative);
  if (room == nullptr) return false;  // no room without waiting: read into the capture, sent after the lock
  stream_->Commit(read ? total : answers_bytes);
  stream_->Flush();
  out_.Clear();
  if (!read) Log(session_->client().Describe() + ": cannot read the frame back: " + error);
  frame_sent_in_place_ = true;
  return true;
}

void Connection::OnReply(const stream::DecodedCall& call, const host::CallReply& reply) {
  Session& session = *session_;
  const int slot = call.slot;
  const bool swap = api::HasTrait(slot, api::kEndsFrame) && call.args.size() >= 2;  // (display, surface, ...)

  // Which surfaces are windows: their swaps answer with the frame.
  if (api::HasTrait(slot, api::kMakesWindowSurface) && reply.result.u != 0) {
    session.window_surfaces().insert(reply.result.u);
  } else if (slot == api::eglDestroySurface && call.args.size() >= 2) {
    session.window_surfaces().erase(call.args[1].u);
    if (context_.display != nullptr) context_.display->Forget(session.id(), call.args[1].u);
  }

  // The frame read back before a swap: into the answer for a window, into
  // --record's chunk (before the swap, as the tracer's --capture swap) for all.
  const bool window = swap && session.window_frames() && session.window_surfaces().count(call.args[1].u) != 0;
  std::string error;
  // The message's first window frame stays where it was read back until it is sent.
  const bool sent_apart = window && frame_at_ == kNoFrame;
  host::RgbaImage* image = sent_apart ? &frame_ : &more_frames_;
  // Sent already, from where the driver read it (SendWindowFrameInPlace).
  const bool sent_in_place = window && frame_sent_in_place_;
  frame_sent_in_place_ = false;
  const bool wanted = swap && (window || session.recorder() != nullptr) && !sent_in_place;
  const bool captured = wanted && session.TakeCapture(image, &error);
  if (wanted && !captured) {
    Log(session.client().Describe() + ": cannot read the frame back: " + error);
  }
  stream::FramebufferImage frame;
  if (captured) {
    frame = FrameOfSwap(call, image->width, image->height, image->bgra);
    frame.frame = session.recorder() ? session.recorder()->frame() : 0;
    frame.pixels = image->pixels;
  }
  if (captured && window) {
    if (sent_apart) {
      stream::WriteFramebufferRecordHead(out_, frame);  // never a final frame: nothing follows the pixels
      frame_at_ = out_.size;
    } else {
      stream::WriteFramebufferRecord(out_, frame);
    }
    if (context_.display != nullptr) {
      context_.display->Show(session.id(), call.args[1].u, session.client().Describe(), frame);
    }
  }

  if (call.flags & wire::kCallWantsReply) {
    wire::Reply answer;
    answer.sequence = call.sequence;
    answer.result = reply.result;
    answer.outputs = reply.outputs;
    if (api::kFunctions[slot].is_egl) answer.egl_error = reply.egl_error;
    answer.has_data = !reply.mapped.empty();
    answer.data = reply.mapped;
    wire::EncodeReply(out_, slot, answer);
  }

  if (Recorder* recorder = session.recorder()) {
    // Stored with its reply merged in, so the file replays like a traced program's.
    stored_ = call;
    stored_.flags = static_cast<uint8_t>((call.flags & ~wire::kCallWantsReply) | stream::kCallHasReply);
    stored_.result = reply.result;
    for (size_t i = 0; i < stored_.args.size(); ++i) {
      // Names the client made itself (glGen*) stay the client's: its later calls use them.
      if (call.args[i].has_out) continue;
      const bool has = i < reply.outputs.size() && reply.outputs[i].has_out;
      stored_.args[i].has_out = has;
      stored_.args[i].out = has ? reply.outputs[i].out : std::span<const uint8_t>();
    }
    if (chunk_records_ == 0) chunk_first_sequence_ = call.sequence;
    if (captured) {
      stream::WriteFramebufferRecord(chunk_, frame);
      ++chunk_records_;
    }
    stream::EncodeCall(stored_, run_, chunk_);
    ++chunk_records_;
    if (swap) {
      stream::ByteWriter w(&chunk_);
      const size_t at = w.BeginRecord(static_cast<uint8_t>(RecordType::kFrame));
      w.Varint(recorder->EndFrame(call.sequence));
      w.EndRecord(at);
      ++chunk_records_;
    }
    // The driver a context ran on, as the tracer records it, so that a replay
    // knows which answers were this driver's own (docs/replay.md).
    const uint64_t context = slot == api::eglMakeCurrent && call.args.size() == 4 && reply.result.u != 0 ? call.args[3].u : 0;
    if (context != 0 && session.described_contexts().insert(context).second) DescribeContext(context, call.thread);
  }
}

void Connection::DescribeContext(uint64_t context, uint64_t thread) {
  const auto get_string = context_.driver->Get<PFNGLGETSTRINGPROC>(api::glGetString);
  stream::KeyValues info;
  for (auto [name, key] : {std::pair{GL_VENDOR, "GL_VENDOR"}, std::pair{GL_RENDERER, "GL_RENDERER"},
                           std::pair{GL_VERSION, "GL_VERSION"}}) {
    if (const GLubyte* value = get_string(name)) info.emplace_back(key, reinterpret_cast<const char*>(value));
  }
  info.emplace_back("client_version",
                    std::to_string(session_->executor().CurrentVersion(static_cast<uint32_t>(thread))));
  stream::ByteWriter w(&chunk_);
  const size_t at = w.BeginRecord(static_cast<uint8_t>(RecordType::kTraceEvent));
  stream::EncodeContextEvent(w, context, info);
  w.EndRecord(at);
  ++chunk_records_;
}

}  // namespace strata::serve
