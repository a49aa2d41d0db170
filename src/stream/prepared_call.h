#pragma once
// Call records decoded once and kept decoded, for the loops of a replay
// after the first (RecordStore::PrepareCalls): each call's head and times as
// absolute numbers and its scalar arguments as one word each, so that running
// it again reads no varint and checks no bound. Only calls whose arguments
// are all scalars are kept so; the executor's generated handlers read the
// words in parameter order (host/fast_call.h, PreparedArguments). Calls kept
// decoded that follow one another on one thread, in one chunk, with no other
// record between them, form a run, handed out as one record: the dispatch
// runs them in one loop (host/record_dispatch.h).

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
  const uint8_t* record;  // its record's payload, to run it from there instead
  uint32_t record_size;
  int32_t slot;
  uint32_t argument_count;
  uint32_t unused;
  // The arguments follow the call, in parameter order; the next call of its run follows them.
  const PreparedWord* arguments() const { return reinterpret_cast<const PreparedWord*>(this + 1); }
  const PreparedCall* next() const { return reinterpret_cast<const PreparedCall*>(arguments() + argument_count); }
};

struct PreparedRun {
  uint64_t count;                     // calls, at least one
  uint64_t first_start_ns, last_end_ns;  // the least start and the greatest end of its calls
  const PreparedCall* first() const { return reinterpret_cast<const PreparedCall*>(this + 1); }
};

static_assert(sizeof(PreparedCall) % sizeof(PreparedWord) == 0 && sizeof(PreparedRun) % sizeof(PreparedWord) == 0,
              "what follows stays aligned");

}  // namespace strata::stream
