#pragma once
// Call records decoded once and kept decoded, for the loops of a replay
// after the first (RecordStore::PrepareCalls): each call's head and times as
// absolute numbers and its scalar arguments as one word each, so that running
// it again reads no varint and checks no bound. Only calls whose arguments
// are all scalars are kept so; the executor's generated handlers read the
// words in parameter order (host/fast_call.h, PreparedArguments). Calls kept
// decoded that follow one another on one thread, in one chunk and one
// context, with no other record between them, form a run, handed out as one record: the dispatch
// runs them in one loop (host/record_dispatch.h).

#include <cstddef>
#include <cstdint>

#include "common/growing_array.h"

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
  int32_t slot;  // what the dispatch reads of every call first
  uint32_t argument_count;
  uint64_t sequence, start_ns, duration_ns;
  const uint8_t* record;  // its record's payload, to run it from there instead
  uint64_t record_size;
  // The arguments follow the call, in parameter order; the next call of its run follows them.
  const PreparedWord* arguments() const { return reinterpret_cast<const PreparedWord*>(this + 1); }
  const PreparedCall* next() const { return reinterpret_cast<const PreparedCall*>(arguments() + argument_count); }
};

struct PreparedRun {
  uint64_t count;                     // calls, at least one
  uint64_t context;                   // the stream's current context of all of them
  uint64_t first_start_ns, last_end_ns;  // the least start and the greatest end of its calls
  uint64_t last_sequence, last_start_ns;  // its last call's
  const PreparedCall* first() const { return reinterpret_cast<const PreparedCall*>(this + 1); }
};

static_assert(sizeof(PreparedCall) % sizeof(PreparedWord) == 0 && sizeof(PreparedRun) % sizeof(PreparedWord) == 0,
              "what follows stays aligned");

// The words of runs, appended to without being zeroed first (a vector's
// resize would zero every word it then overwrites).
class PreparedWords {
 public:
  size_t size() const { return words_.size(); }
  PreparedWord* data() { return words_.data(); }
  const PreparedWord* data() const { return words_.data(); }
  // Room for `n` more words at the end, which the caller writes.
  PreparedWord* Append(size_t n) { return words_.Append(n); }
  void Truncate(size_t size) { words_.Truncate(size); }
  void Clear() { words_.clear(); }
  // Gives back what is not used (for words kept long).
  void ShrinkToFit() { words_.ShrinkToFit(); }

 private:
  GrowingArray<PreparedWord> words_;
};

}  // namespace strata::stream
