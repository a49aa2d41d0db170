#pragma once
// Replay checking itself against the recording as it runs: what a call gives
// back on the host is compared with what it gave back when traced, wherever
// the two must agree (compared_calls.h). GL errors are followed per recorded
// context: after every call the check sees (Sees), and before each error the
// tracer took at a frame's end, the replay takes the host's errors, and each
// glGetError of the trace (and each such error) is compared with the errors
// the replay met since the last ask. A call that fails on the host where the
// app's did not is named when the check sees every call; when calls that
// give nothing back run unseen (host/fast_call.h), the calls since the last
// one seen are named, from first to last.
//
// Calls run one at a time (RecordDispatch), so no locking; each method runs
// on the host thread of the call's recorded thread.

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "host/executor.h"
#include "host/host_driver.h"
#include "stream/call_decoder.h"

namespace strata::replay {

struct CallDifference {
  uint64_t sequence = 0;  // the call compared (for a frame's end: the call after it)
  // For an error: the first of the calls that may have raised it, when not
  // only `sequence` may have (calls that give nothing back run unseen).
  uint64_t first = UINT64_MAX;
  std::string function;   // with the pname where one decides
  std::string recorded, replayed;
};

// The driver's own answers of one kind (a function and its enums) that were
// not compared: their context was recorded on another driver (or the trace
// does not say on which).
struct IgnoredAnswers {
  std::string function;    // "glGetIntegerv(GL_MAX_TEXTURE_SIZE)"
  uint64_t count = 0;      // calls
  uint64_t differing = 0;  // of them, those whose answer differs from the recording
};

class SelfCheck {
 public:
  explicit SelfCheck(const host::HostDriver& driver);

  // Whether Check needs the call's reply. Every EGL call does: the
  // executor's eglGetError answers from the replies of the calls before it.
  bool WantsReply(const stream::DecodedCall& call) const;
  // Whether calls of `slot` must be seen (Check): those that give something
  // back, EGL's, and those whose effect the check follows (glBeginQuery).
  static bool Sees(int slot);
  // Takes the host's errors of recorded context `context`, current on the
  // calling thread, as raised by the calls before `next_sequence` since the
  // last one seen (before a frame's end is compared).
  void TakeErrorsBefore(uint64_t context, uint64_t next_sequence);
  // A call that ran, with its reply when WantsReply said so (else null).
  void Check(const stream::DecodedCall& call, const host::CallReply* reply);
  // The error the tracer's own glGetError took at a frame's end (trace
  // event `gl-error`), before call `next_sequence`.
  void CheckFrameEndError(uint64_t context, uint64_t error, uint64_t next_sequence);
  // Errors the replay's own reads (snapshots, verification) raised are not the app's.
  void DropHostErrors();
  // Whether a recorded context runs on the driver that recorded it (the
  // trace's driver strings for it equal the host's). The driver's own answers
  // (compared_calls.h: kDriverAnswer) are compared only there, and tallied
  // as ignored elsewhere.
  void SetDriverOfContext(uint64_t context, bool same);

  uint64_t compared() const { return compared_; }
  uint64_t differing() const { return differing_; }
  const std::vector<CallDifference>& first_differences() const { return differences_; }
  // In the order first met.
  const std::vector<IgnoredAnswers>& ignored() const { return ignored_; }

 private:
  struct MetError {
    uint32_t code;
    uint64_t first, sequence;  // the calls that may have raised it (one, when first == sequence)
    std::string function;      // of the call `sequence`
  };
  // Takes the host's errors after `call`; true when it raised any.
  bool TakeHostErrors(const stream::DecodedCall& call);
  // Takes the host's errors of `context` as raised by calls up to
  // `sequence`, the last of them `function` (empty: not a call seen).
  bool TakeHostErrors(uint64_t context, uint64_t sequence, const std::string& function);
  // An ask for the error (recorded answer `recorded`) against what the replay
  // met; `consume`: the answer clears that error (the app's glGetError, not
  // the tracer's record of what is pending).
  void CompareError(uint64_t context, uint64_t recorded, uint64_t sequence, const std::string& function,
                    bool consume);
  void Differ(uint64_t sequence, std::string function, std::string recorded, std::string replayed,
              uint64_t first = UINT64_MAX);
  void CheckDriverAnswer(const stream::DecodedCall& call, const host::CallReply& reply);

  using GetError = unsigned int (*)();
  GetError get_error_;
  // Per recorded context: the distinct errors the host raised since the
  // app's last glGetError, in order (GL keeps one flag per error).
  std::map<uint64_t, std::vector<MetError>> met_;
  // Per recorded context: the sequence of the last call whose errors were taken.
  std::map<uint64_t, uint64_t> taken_through_;
  // Per (recorded context, query name): the query's target, from glBeginQuery.
  std::map<std::pair<uint64_t, uint64_t>, uint32_t> query_targets_;
  uint64_t compared_ = 0, differing_ = 0;
  std::vector<CallDifference> differences_;
  std::map<uint64_t, bool> same_driver_;  // per recorded context
  std::vector<IgnoredAnswers> ignored_;
  std::map<std::string, size_t> ignored_index_;  // function -> its entry in ignored_
};

}  // namespace strata::replay
