#pragma once
// The client process's session with the renderer: where it is
// (STRATA_REMOTE), the handshake (protocol version, features, the TCP token),
// the session every thread's connection joins, and what happens when the
// renderer cannot be reached or goes away: one error line (naming, where the
// renderer can say, how the worker serving this client ended); EGL calls
// fail with EGL_CONTEXT_LOST and GL calls do nothing, as in a lost context.
// A program that made a context with EGL_LOSE_CONTEXT_ON_RESET is told as of
// a GPU reset (glGetGraphicsResetStatus); any other is ended at its next
// call with kRendererLostStatus, as drivers end programs whose GPU hung.
// Before a renderer was reached, with STRATA_REMOTE_FALLBACK=native at
// eglInitialize, the local driver takes over.

#include <sys/types.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "remote/sequence_numbers.h"
#include "stream/wire.h"
#include "transport/byte_stream.h"

namespace strata::remote {

class Connection;

// The exit status of a program whose renderer went away (sysexits' EX_UNAVAILABLE).
inline constexpr int kRendererLostStatus = 69;

// What went over the wire, for STRATA_REMOTE_STATS=1 (printed at exit).
struct TrafficCounts {
  std::atomic<uint64_t> calls{0}, bytes_sent{0}, bytes_received{0}, round_trips{0}, flushes{0}, frames{0};
  std::atomic<uint64_t> bulk_bytes{0};  // of bytes_sent, blobs sent out of line (stream/bulk_blobs.h)
  std::atomic<uint64_t> word_calls{0};  // of calls, those sent in word runs (stream/word_run.h)
  std::atomic<int64_t> absorbed{0};  // calls the app made that never had to go (deferred_state.h)
};

class Session {
 public:
  static Session& Get();

  // Connects the first time (the "process" handshake); true when the
  // renderer is there. Called by eglInitialize and by a thread's first call.
  bool Start();
  // A connection for the calling thread (a "thread" handshake joining the
  // session); null when the renderer is gone.
  std::unique_ptr<Connection> ConnectThread(uint32_t thread_id);

  // STRATA_REMOTE names a renderer.
  bool requested() const { return !address_.empty(); }
  bool started() const { return started_.load(std::memory_order_acquire); }
  // The renderer could not be reached and STRATA_REMOTE_FALLBACK=native took over.
  bool fell_back() const { return fell_back_.load(std::memory_order_acquire); }
  bool lost() const { return lost_.load(std::memory_order_acquire); }
  // The renderer is gone: says why once, and every later call fails fast.
  // `ask_why`: the connection ended with no word from the renderer: its
  // listener is asked how the worker serving this client ended.
  void Lose(const std::string& why, bool ask_why = false);
  // At an app's call once the renderer is gone: ends the program unless one
  // of its contexts asked to be told of resets (see above).
  void EndUnlessToldOfResets();
  // A context made with EGL_LOSE_CONTEXT_ON_RESET.
  void NoteResetNotification() { told_of_resets_.store(true, std::memory_order_release); }
  const std::string& address() const { return address_; }
  const std::string& features() const { return features_; }

  // Calls' numbers: each thread's connection takes them through a taker of its own.
  SequenceNumbers& sequence_numbers() { return sequence_numbers_; }
  uint32_t NewThreadId() { return next_thread_.fetch_add(1, std::memory_order_relaxed); }
  // A handle the client proposes for an object it asks the renderer to make
  // (EGL contexts, surfaces, syncs, images; GL syncs).
  uint64_t NewHandle() { return next_handle_.fetch_add(1, std::memory_order_relaxed); }

  TrafficCounts& traffic() { return traffic_; }
  // STRATA_REMOTE_STATS=1: one line of traffic per frame and in all, on stderr.
  void PrintTraffic();

  // STRATA_REMOTE_FALLBACK=native: load the local driver and send every
  // call there. True when it is in place.
  bool FallBackToNative();

  // Every thread's live connection, so that a forked child can let go of
  // the parent's (AfterForkInChild). A connection adds itself when made and
  // takes itself out last thing before its stream goes.
  void AddConnection(Connection* connection);
  void RemoveConnection(Connection* connection);

 private:
  Session();
  // Connects and says hello as `role`; the stream, with the renderer's
  // answer in *answer where given, or null with *error.
  std::unique_ptr<transport::ByteStream> Handshake(const std::string& role, std::string* error,
                                                   stream::wire::Hello* answer = nullptr);
  // How the worker that served this session ended, in the listener's words; empty if it cannot say.
  std::string AskFate();
  static void SayGoodbyeAtExit();
  // pthread_atfork's handlers: the list of connections stays whole across
  // fork(), and a child of a process with a session lets go of the parent's
  // connections and starts a session of its own.
  static void BeforeFork();
  static void AfterForkInParent();
  static void AfterForkInChild();

  std::mutex mu_;
  // Held across fork() (BeforeFork), and never while waiting for anything.
  std::mutex connections_mu_;
  std::vector<Connection*> connections_;
  // The process handshake's connection, kept idle for the process's life: the
  // renderer keeps a session while one of its connections lives, and threads
  // come and go (a thread that starts after every earlier one ended must
  // still find the session). It says goodbye at exit.
  std::unique_ptr<transport::ByteStream> process_stream_;
  pid_t process_ = 0;  // whose it is: a forked child's exit must not say the parent's goodbye
  std::string address_, token_, session_id_, session_key_, features_;
  const char* transport_kind_ = "";  // the first thread connection's: "socket" or "shared-memory ring"
  std::atomic<bool> started_{false}, lost_{false}, fell_back_{false}, told_of_resets_{false};
  bool tried_ = false;
  bool exit_handlers_ = false;  // registered with atexit (once a process image)
  SequenceNumbers sequence_numbers_;
  std::atomic<uint32_t> next_thread_{1};
  // Small, so that the context handle every call record carries is a
  // one-byte varint for a program's first contexts and surfaces (the
  // renderer's decoder reads it in a few instructions; 0x5000 took three
  // bytes and its slowest path); never 0, which is EGL's "no object".
  std::atomic<uint64_t> next_handle_{1};
  TrafficCounts traffic_;
};

}  // namespace strata::remote
