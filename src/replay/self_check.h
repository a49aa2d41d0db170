#pragma once
// Replay checking itself against the recording as it runs: what a call gives
// back on the host is compared with what it gave back when traced, wherever
// the two must agree (compared_calls.h). GL errors are followed per recorded
// context: after every call the replay takes the host's error, and each
// glGetError of the trace (and each error the tracer took at a frame's end)
// is compared with the errors the replay met since the last ask, so a call
// that fails on the host where the app's did not is named.
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
    uint64_t sequence;
    std::string function;
  };
  // Takes the host's errors after `call`; true when it raised any.
  bool TakeHostErrors(const stream::DecodedCall& call);
  // An ask for the error (recorded answer `recorded`) against what the replay
  // met; `consume`: the answer clears that error (the app's glGetError, not
  // the tracer's record of what is pending).
  void CompareError(uint64_t context, uint64_t recorded, uint64_t sequence, const std::string& function,
                    bool consume);
  void Differ(uint64_t sequence, std::string function, std::string recorded, std::string replayed);
  void CheckDriverAnswer(const stream::DecodedCall& call, const host::CallReply& reply);

  using GetError = unsigned int (*)();
  GetError get_error_;
  // Per recorded context: the distinct errors the host raised since the
  // app's last glGetError, in order (GL keeps one flag per error).
  std::map<uint64_t, std::vector<MetError>> met_;
  // Per (recorded context, query name): the query's target, from glBeginQuery.
  std::map<std::pair<uint64_t, uint64_t>, uint32_t> query_targets_;
  uint64_t compared_ = 0, differing_ = 0;
  std::vector<CallDifference> differences_;
  std::map<uint64_t, bool> same_driver_;  // per recorded context
  std::vector<IgnoredAnswers> ignored_;
  std::map<std::string, size_t> ignored_index_;  // function -> its entry in ignored_
};

}  // namespace strata::replay
