#pragma once
// The numbers of a client process's calls, in the order its threads make
// them (the renderer's --record merges the threads' calls by them).
//
// A locked add per call cost a draw-heavy client a sixth to a quarter of
// its CPU time (its full barrier waits for the call's words to leave the
// store buffer; docs/benchmarks.md). So the first thread to number calls numbers
// them alone, with plain stores, until a second thread asks for a number.
// That thread ends it with an asymmetric barrier (membarrier(2): every
// running thread of the process passes a full barrier): the first thread
// then either sees, before it uses a number, that it is no longer alone, or
// its numbers are seen and the shared count starts past them. Where the
// kernel lacks membarrier's private expedited command every number is a
// locked add.

#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <mutex>

namespace strata::remote {

class SequenceNumbers {
 public:
  // One thread's own state: its numbers come from Next(taker), on that thread.
  class Taker {
   private:
    friend class SequenceNumbers;
    bool alone_ = false;
  };

  // A taker for a thread: the first one made numbers alone (where the kernel
  // allows); making a second ends that for good.
  Taker NewTaker() {
    Taker taker;
    std::lock_guard lock(mu_);
    if (!alone_given_.load(std::memory_order_relaxed)) {
      alone_given_.store(true, std::memory_order_relaxed);
      taker.alone_ = Membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) == 0;
      if (!taker.alone_) shared_.store(true, std::memory_order_relaxed);
    } else if (!shared_.load(std::memory_order_relaxed)) {
      EndAlone();
    }
    return taker;
  }

  uint64_t Next(Taker& taker) {
    if (taker.alone_) [[likely]] {
      const uint64_t n = alone_next_.load(std::memory_order_relaxed);
      alone_next_.store(n + 1, std::memory_order_relaxed);
      // Only the compiler is held to the order of the store and the load:
      // EndAlone's membarrier orders them on the processor.
      std::atomic_signal_fence(std::memory_order_seq_cst);
      if (!shared_.load(std::memory_order_relaxed)) [[likely]] return n;
      taker.alone_ = false;  // n is dropped: EndAlone may not have seen it
      RaiseTo(n + 1);
    }
    return next_.fetch_add(1, std::memory_order_relaxed);
  }

  // Whether the first thread still numbers alone (STRATA_REMOTE_STATS).
  bool numbering_alone() const {
    return alone_given_.load(std::memory_order_relaxed) && !shared_.load(std::memory_order_relaxed);
  }

 private:
  static long Membarrier(int command) { return syscall(SYS_membarrier, command, 0, 0); }

  void EndAlone() {
    shared_.store(true, std::memory_order_relaxed);
    // Registered again first: a forked child's registration is its parent's.
    // Where the private command still fails, the global one (no
    // registration; slower, and taken once).
    if (Membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) != 0 ||
        Membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) != 0) {
      Membarrier(MEMBARRIER_CMD_GLOBAL);
    }
    RaiseTo(alone_next_.load(std::memory_order_relaxed));
  }

  void RaiseTo(uint64_t floor) {
    uint64_t now = next_.load(std::memory_order_relaxed);
    while (now < floor && !next_.compare_exchange_weak(now, floor, std::memory_order_relaxed)) {
    }
  }

  std::mutex mu_;
  std::atomic<bool> alone_given_{false};  // a first taker was made
  std::atomic<bool> shared_{false};      // every taker adds to next_
  alignas(64) std::atomic<uint64_t> alone_next_{0};  // stored by the lone thread only
  alignas(64) std::atomic<uint64_t> next_{0};
};

}  // namespace strata::remote
