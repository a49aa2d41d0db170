#pragma once
// What makes a call of one trace the same as a call of another, for
// `strata diff`: the function, and each argument and result by value, the
// data behind pointers by content. What changes from run to run without the
// program doing anything different does not count: EGL handles (pointers
// the driver chose) are compared by the order in which the trace first used
// them, and addresses of the program's memory not at all.

#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

#include "stream/call_decoder.h"

namespace strata::inspect {

struct CallKeys {
  uint64_t call = 0;              // function and every value below
  uint64_t function = 0;          // the function's name alone
  std::vector<uint64_t> values;   // per argument, then the result
};

// 64-bit hash of bytes; `seed` chains hashes.
uint64_t HashBytes(std::span<const uint8_t> bytes, uint64_t seed = 0);

// Keys for the calls of one trace, fed in call order (handles are numbered
// as they first appear).
class CallIdentity {
 public:
  void Compute(const stream::DecodedCall& call, CallKeys* keys);

 private:
  uint64_t Handle(uint64_t value);
  uint64_t Value(const stream::DecodedValue& value, const char* c_type);
  std::unordered_map<uint64_t, uint64_t> handle_order_;
};

}  // namespace strata::inspect
