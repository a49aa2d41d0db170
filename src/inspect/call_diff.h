#pragma once
// `strata diff`'s comparison of two traces call by call: calls lined up as
// `diff` lines up text (by function and every value, data by content; see
// call_identity.h), then each stretch that differs lined up again by function
// alone, so that a call whose arguments changed shows as one changed call
// rather than one removed and one added (as apitrace's diff does).

#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>

namespace strata::inspect {

struct CallDiffOptions {
  // Which calls take part, by frame and call number; null: every call.
  std::function<bool(uint64_t frame, uint64_t sequence)> selected;
  size_t context = 3;        // unchanged calls shown around each change
  bool color = false;        // ANSI colors: removed red and struck through, added green
  size_t max_edits = 2048;   // sequence_alignment.h
};

struct CallDiffSummary {
  uint64_t calls_a = 0, calls_b = 0;  // taking part
  uint64_t changed = 0;               // same function, some value differs
  uint64_t only_a = 0, only_b = 0;    // removed, added
  std::string warning_a, warning_b;   // a trace cut short: compared up to where it ends
  bool equal() const { return changed == 0 && only_a == 0 && only_b == 0; }
};

// Writes the differences to `out`:
//   @@ frame 2: A calls 120-126, B calls 120-127 @@
//     121 glUseProgram(program=3)
//   | 122 glUniform4f(location=0, v0=0.35 -> 0.5, v1=0.35, v2=0.45, v3=1)
//   - 123 glDisable(cap=GL_BLEND)
//   + 124 glEnable(cap=GL_BLEND)
// A call number prints once when it is the same in both traces, else as "A B".
// `out` null: only the summary.
// False with `error` when a trace cannot be read or is damaged.
bool DiffCalls(const std::string& path_a, const std::string& path_b, const CallDiffOptions& options, FILE* out,
               CallDiffSummary* summary, std::string* error);

}  // namespace strata::inspect
