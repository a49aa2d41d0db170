#pragma once
// Lines up two sequences of keys the way `diff` does: the longest run of
// keys both share, in order, and what is only in one or the other. Knows
// nothing of calls: `strata diff` feeds it one key per call.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace strata::inspect {

struct AlignedRun {
  enum class Kind { kBoth, kOnlyA, kOnlyB };
  Kind kind;
  size_t a = 0, b = 0;  // where the run starts in each sequence
  size_t length = 0;    // kBoth: in both; kOnlyA: of a; kOnlyB: of b
};

// Runs in order, covering both sequences; adjacent runs differ in kind.
// Myers' O((N+M)D) algorithm: the alignment is minimal while the sequences
// differ in at most `max_edits` keys between two stretches they share. Past
// that it keeps the best alignment found within `max_edits` and goes on from
// there, so that time and memory stay bounded on unrelated inputs.
std::vector<AlignedRun> AlignSequences(std::span<const uint64_t> a, std::span<const uint64_t> b,
                                       size_t max_edits = 2048);

}  // namespace strata::inspect
