#pragma once
// The renderer's worker processes, as its listener keeps them: started ahead
// (fresh execs of this program in worker mode: never a fork of a process with
// a GL driver in it), each serving one client process at a time; reaped with
// how they ended. A worker whose client was a Unix peer of the renderer's own
// user and ended normally may come back idle ("warm": its driver's compiled
// code kept) and serve another such client; one that served anyone else ends
// with its client. Thread-safe: the listener's main thread starts and reaps,
// handshake threads take idle workers.

#include <sys/types.h>

#include <chrono>
#include <condition_variable>
#include <functional>
#include <list>
#include <mutex>
#include <string>
#include <vector>

namespace strata::serve {

struct Worker {
  pid_t pid = 0;
  int channel = -1;  // the listener's end of the control socket pair (-1 once it closed)
  enum class State { kStarting, kIdle, kServing } state = State::kStarting;
  bool warm = false;  // it served a client before: only the renderer's own user's clients get it
  // Its channel closed: it is ending, and is reaped without waiting for it.
  bool ending = false;
  std::chrono::steady_clock::time_point ending_since;
  std::string session;  // while serving
  std::string client;   // ClientInfo::Describe() while serving
  std::string failure;  // why it could not start, in its own words
  std::string ended;    // why it ended its client, in its own words (the renderer stopping)
};

// How a process ended, for people: "exited normally", "exited with status 1",
// "was killed by signal 9 (SIGKILL)" (and "dumping core").
std::string DescribeExit(int wait_status);
// How a worker's client's session ended when the worker went back to the pool.
inline constexpr char kBackInPool[] = "ended its client's session normally and went back to the pool";

class WorkerPool {
 public:
  // `argv`: the worker's command line after the program (this one: WorkerProgram in the .cpp).
  // `idle`: how many started, idle workers to keep ahead of clients.
  WorkerPool(std::vector<std::string> argv, size_t idle);
  // Stops every worker (SIGTERM, then SIGKILL after 5 s) and reaps them.
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  // Main thread: starts workers for the clients waiting for one, one to
  // keep ahead if none is, and, while `core_to_spare`, until the idle ones
  // (and those starting) cover the pool's size: a worker's start-up (its
  // driver's) would otherwise take the cores of the clients just starting.
  // False with *error when a worker cannot be started at all. `short_of`:
  // whether the pool is still below its size.
  bool Fill(bool core_to_spare, bool* short_of, std::string* error);
  // Main thread: the control sockets to watch, with the pid of each.
  std::vector<std::pair<int, pid_t>> Channels();
  // Main thread: `pid`'s channel has something to say (a message, or its
  // end: then the worker is ending, and Reap takes it).
  void OnChannel(pid_t pid);
  // Main thread: reaps the workers that ended, calling `ended(worker, how)`
  // (under no lock) for each, and for each that went back to the pool since
  // (`how`: kBackInPool, `worker` as it was while serving); one that takes
  // more than 5 s to end after its channel closed is killed. True while some
  // are still ending.
  using Ended = std::function<void(const Worker&, const std::string& how)>;
  bool Reap(const Ended& ended);

  // Any thread: an idle worker, marked serving `session` for `client`,
  // waiting up to `timeout_ms` for one to be started and ready; a warm one
  // first where `own_user` (the client is a Unix peer of the renderer's own
  // user), never otherwise. `wake` is called when the main thread must start
  // one. False with *error (why the workers started for it failed, or the
  // time ran out).
  bool Take(const std::string& session, const std::string& client, bool own_user, int timeout_ms,
            const std::function<void()>& wake, Worker* taken, std::string* error);
  // Any thread: the channel of the worker serving `pid`'s client (-1 if it ended).
  int ChannelOf(pid_t pid);

  // Whether the first worker started: 1 it is ready, -1 it could not start
  // (*error: its own words: no driver, no display), 0 not known yet.
  int FirstVerdict(std::string* error);
  // How many idle workers to keep ahead from now on.
  void SetIdle(size_t idle);

  // Stops the workers (SIGTERM), idle and serving; they end their clients.
  void StopAll();

 private:
  bool Start(std::string* error);  // under mu_
  Worker* Find(pid_t pid);         // under mu_

  const std::vector<std::string> argv_;
  size_t idle_;
  std::mutex mu_;
  std::condition_variable changed_;
  std::list<Worker> workers_;
  std::vector<Worker> back_in_pool_;  // as they were serving, until Reap reports their sessions' end
  size_t waiting_ = 0;           // clients waiting in Take
  std::string last_failure_;     // the last worker that could not start, in its own words
  size_t failures_in_a_row_ = 0; // workers that ended before they were ready, since one was
  size_t failures_ = 0;          // ever: a client waiting in Take sees the ones after it came
  bool first_done_ = false;      // the first worker has said ready or failed
};

}  // namespace strata::serve
