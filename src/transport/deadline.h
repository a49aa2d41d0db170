#pragma once
// A time limit that several waits share (a message read in pieces, a
// handshake's header and body): each wait is given what is left of it.

#include <algorithm>
#include <chrono>
#include <cstdint>

namespace strata::transport {

class Deadline {
 public:
  // `timeout_ms` < 0: no limit.
  explicit Deadline(int timeout_ms)
      : limited_(timeout_ms >= 0), at_(Clock::now() + std::chrono::milliseconds(std::max(timeout_ms, 0))) {}
  bool limited() const { return limited_; }
  // Milliseconds left, at least 0; -1 without a limit (poll's "forever").
  int LeftMs() const {
    if (!limited_) return -1;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(at_ - Clock::now()).count();
    return static_cast<int>(std::max<int64_t>(left, 0));
  }

 private:
  using Clock = std::chrono::steady_clock;
  bool limited_;
  Clock::time_point at_;
};

}  // namespace strata::transport
