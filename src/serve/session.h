#pragma once
// One client process, in the worker process that serves it: its own
// executor, so its own namespace of objects (a client can name only what it
// made; share groups stay inside the process), and its own stand-in
// surfaces. Its threads join it over connections of their own; their calls
// run one at a time under the session's mutex, since the executor is not
// thread-safe.

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>

#include "host/executor.h"
#include "host/host_driver.h"
#include "host/record_dispatch.h"
#include "host/surface_factory.h"
#include "serve/recorder.h"
#include "stream/call_decoder.h"
#include "transport/byte_stream.h"

namespace strata::serve {

class FrameDisplay;

struct ClientInfo {
  std::string program;
  int64_t pid = 0;
  std::string address;  // its connection, as ClientAddress (handshake.h) says: "uid 1000", "127.0.0.1:5000"
  std::string Describe() const;  // NameClient's: "glmark2 (pid 1234, uid 1000)"
};

class Session {
 public:
  // `display` (--display, may be null) loses the client's windows when it ends.
  // `memory_limit`: the GL storage the client may hold (host/storage_budget.h; 0: no limit).
  Session(std::string id, std::string key, ClientInfo client, const std::string& functions, std::string features,
          const host::HostDriver& driver, std::unique_ptr<Recorder> recorder, FrameDisplay* display = nullptr,
          uint64_t memory_limit = 0);
  // Runs on the thread of the session's last connection: the executor frees
  // the client's contexts, surfaces and objects there. Logs the leaving line.
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  const std::string& id() const { return id_; }
  const std::string& key() const { return key_; }
  const ClientInfo& client() const { return client_; }
  const std::string& features() const { return features_; }
  const stream::FunctionTable& functions() const { return functions_; }
  bool window_frames() const { return window_frames_; }

  // A stream thread id no other connection of this session has.
  uint32_t NewThread();

  // Guards everything below: one call of the session at a time.
  std::mutex& mutex() { return mu_; }
  // The client's records run here, on the calling connection's thread.
  host::RecordDispatch& dispatch() { return *dispatch_; }
  host::Executor& executor() { return dispatch_->executor(); }
  Recorder* recorder() { return recorder_.get(); }
  uint64_t NextChunk() { return ++chunks_; }
  // Calls run from their decoded form kept ahead (serve/message_preparer.h), for the leaving line.
  void CountDecodedAhead(uint64_t calls) { decoded_ahead_ += calls; }
  // Recorded handles of the window surfaces the client made (their swaps send frames back).
  std::set<uint64_t>& window_surfaces() { return window_surfaces_; }
  // --record: the contexts whose driver strings the recording holds (a `context` trace event each).
  std::set<uint64_t>& described_contexts() { return described_contexts_; }
  // The frame the last swap read back (before_swap: a window's, or any with
  // --record), taken once: swapped into `into`, whose storage the next
  // capture reuses (the caller keeps the frame as long as it needs).
  bool TakeCapture(host::RgbaImage* into, std::string* error);
  // Set by the connection whose message runs (under mutex()) where it can
  // send a window's frame itself, read back straight into its transport:
  // true when it took the frame (sent it, or said why it could not), false
  // to have it read into the capture as above. Not asked with --record.
  std::function<bool(const stream::DecodedCall& swap)> send_window_frame;

  // Connections register so that closing the session wakes them all.
  void Attach(transport::ByteStream* stream);
  void Detach(transport::ByteStream* stream, const std::string& how_it_ended);
  // Ends the client: every connection is shut down; the first reason is the one logged.
  void Close(const std::string& reason);
  bool closed() const;

 private:
  FrameDisplay* const display_;
  const std::string id_, key_;
  const ClientInfo client_;
  const std::string features_;
  const bool window_frames_;
  stream::FunctionTable functions_;
  std::unique_ptr<host::SurfaceFactory> surfaces_;
  std::unique_ptr<host::RecordDispatch> dispatch_;
  std::unique_ptr<Recorder> recorder_;
  std::mutex mu_;
  uint64_t decoded_ahead_ = 0;
  uint64_t chunks_ = 0;
  std::set<uint64_t> window_surfaces_;
  std::set<uint64_t> described_contexts_;
  bool captured_ = false;
  host::RgbaImage capture_;
  std::string capture_error_;

  // Connections and the ending; under links_mu_ (Close comes from any thread).
  mutable std::mutex links_mu_;
  std::set<transport::ByteStream*> streams_;
  uint32_t next_thread_ = 0;
  bool closed_ = false;
  std::string close_reason_, last_end_;
};

}  // namespace strata::serve
