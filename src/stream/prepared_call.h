#pragma once
// A call record decoded once and kept decoded, for the loops of a replay
// after the first (RecordStore::PrepareCalls): the call's head and times as
// absolute values and its scalar arguments as one word each, so that running
// it again reads no varint and checks no bound. Only calls whose arguments
// are all scalars are kept so; the executor's generated handlers read the
// words in parameter order (host/fast_call.h, PreparedArguments).

#include <cstdint>

namespace strata::stream {

// One argument, by its kind (api::ArgKind): kInt in `i`, kFloat in `f`,
// kDouble in `d`, every other scalar kind in `u`.
union PreparedWord {
  uint64_t u;
  int64_t i;
  float f;
  double d;
};

struct PreparedCall {
  uint64_t sequence, context, start_ns, duration_ns;
  int32_t slot;
  uint32_t argument_count;
  // The arguments follow the call, in parameter order.
  const PreparedWord* arguments() const { return reinterpret_cast<const PreparedWord*>(this + 1); }
};
static_assert(sizeof(PreparedCall) % sizeof(PreparedWord) == 0, "the arguments follow aligned");

}  // namespace strata::stream
