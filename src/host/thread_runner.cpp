#include "host/thread_runner.h"

namespace strata::host {

ThreadRunner::~ThreadRunner() {
  for (auto& [id, worker] : workers_) {
    {
      std::lock_guard<std::mutex> lock(worker->mu);
      worker->stop = true;
    }
    worker->cv.notify_all();
    worker->thread.join();
  }
}

void ThreadRunner::Loop(Worker* worker) {
  std::unique_lock<std::mutex> lock(worker->mu);
  for (;;) {
    worker->cv.wait(lock, [&] { return worker->stop || worker->work != nullptr; });
    if (worker->work != nullptr) {
      (*worker->work)();
      worker->work = nullptr;
      worker->done = true;
      worker->cv.notify_all();
    } else if (worker->stop) {
      return;
    }
  }
}

void ThreadRunner::Run(uint64_t recorded_thread, const std::function<void()>& work) {
  if (RunsOnCaller(recorded_thread)) {
    work();
    return;
  }
  std::unique_ptr<Worker>& slot = workers_[recorded_thread];
  if (!slot) {
    slot = std::make_unique<Worker>();
    slot->thread = std::thread(Loop, slot.get());
  }
  Worker& worker = *slot;
  std::unique_lock<std::mutex> lock(worker.mu);
  worker.done = false;
  worker.work = &work;
  worker.cv.notify_all();
  worker.cv.wait(lock, [&] { return worker.done; });
}

}  // namespace strata::host
