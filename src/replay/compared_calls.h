#pragma once
// Which calls replay compares with the recording, and how: what a call gives
// back that must be the same on any driver given the same calls, and the
// driver's own answers (limits, strings, extension lists, formats), which
// agree only on the driver that recorded the trace. The rest of what is the
// driver's choice (uniform and attribute locations, timings, info logs, what
// depends on the replay's stand-ins for windows and configs) is left out.
// docs/replay.md lists the same, with the reasons.

#include <cstdint>

#include "stream/call_decoder.h"

namespace strata::replay {

enum class Agreement : uint8_t {
  kNone,         // not compared
  kGlError,      // glGetError: against the errors the replay met since the last ask
  kSameResult,   // the return value, exactly (glCheckFramebufferStatus, glIs*, eglGetError)
  kSuccess,      // the return value's success: true/false, a name or handle or none
  kWaitOutcome,  // a sync wait: failed or not (signalled or timed out is timing, not behaviour)
  kSameOutput,   // the bytes written behind the output pointer
  kQueryResult,  // glGetQueryObject*: the output, for queries whose result is exact
  kDriverAnswer, // the returned string and every output, only on the driver that recorded the trace
};

struct Comparison {
  Agreement agreement = Agreement::kNone;
  int output = -1;  // kSameOutput, kQueryResult: the parameter written
};

Comparison ComparisonOf(const stream::DecodedCall& call);

// Query targets whose result does not depend on the driver (kQueryResult).
bool QueryResultIsExact(uint32_t target);

}  // namespace strata::replay
