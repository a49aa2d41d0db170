#pragma once
// One host thread per recorded thread, running work strictly one item at a
// time in the order it is given: EGL binds contexts to threads, and the
// recorded order across threads must hold. The first recorded thread runs on
// the caller's own thread, so a single-threaded trace never switches threads.

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

namespace strata::host {

class ThreadRunner {
 public:
  ThreadRunner() = default;
  ~ThreadRunner();
  ThreadRunner(const ThreadRunner&) = delete;
  ThreadRunner& operator=(const ThreadRunner&) = delete;

  // Runs `work` on the host thread of `recorded_thread` and waits for it.
  void Run(uint64_t recorded_thread, const std::function<void()>& work);
  // Whether `recorded_thread`'s work runs on the caller's own thread (the
  // first recorded thread does); the caller may then run it directly.
  bool RunsOnCaller(uint64_t recorded_thread) {
    if (!have_main_) {
      have_main_ = true;
      main_thread_ = recorded_thread;
    }
    return recorded_thread == main_thread_;
  }

 private:
  struct Worker {
    std::thread thread;
    std::mutex mu;
    std::condition_variable cv;
    const std::function<void()>* work = nullptr;
    bool done = false, stop = false;
  };
  static void Loop(Worker* worker);

  bool have_main_ = false;
  uint64_t main_thread_ = 0;
  std::map<uint64_t, std::unique_ptr<Worker>> workers_;
};

}  // namespace strata::host
