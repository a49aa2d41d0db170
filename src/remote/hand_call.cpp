#include "remote/hand_call.h"

#include "remote/session.h"

namespace strata::remote {
namespace {

uint8_t FlagsOf(HandCall::Kind kind, uint64_t proposed) {
  uint8_t flags = stream::kCallUntimed;
  if (kind == HandCall::kAnswer || kind == HandCall::kCreatesWaiting) flags |= stream::wire::kCallWantsReply;
  // A result the client names makes the record one with a reply part, as a trace's.
  if (proposed != 0) flags |= stream::kCallHasReply;
  return flags;
}

bool Creates(HandCall::Kind kind) { return kind == HandCall::kCreates || kind == HandCall::kCreatesWaiting; }

}  // namespace

HandCall::HandCall(Connection& c, api::Slot slot, Kind kind, uint64_t result)
    : c_(c),
      slot_(slot),
      kind_(kind),
      sequence_(c.NextSequence()),
      handle_(Creates(kind) ? Session::Get().NewHandle() : 0),
      proposed_(Creates(kind) ? handle_ : result),
      w_(c.batch(), c.run(), slot, sequence_, c.context_id(), FlagsOf(kind, proposed_)) {}

void HandCall::End() {
  if (ended_) return;
  ended_ = true;
  w_.Times(c_.batch_ns(), c_.batch_ns());
  if (proposed_ != 0) {
    w_.Unsigned(proposed_);
    const api::FunctionInfo& info = api::kFunctions[slot_];
    for (int i = 0; i < info.param_count; ++i) {
      if (stream::IsDataPointer(info.params[i].kind)) w_.Absent();
    }
  }
  w_.End();
  if (kind_ == kNoAnswer || kind_ == kCreates) c_.Sent();
}

const stream::wire::Reply* HandCall::Wait() {
  End();
  const stream::wire::Reply* r = c_.Roundtrip(sequence_, slot_);
  if (r != nullptr && api::kFunctions[slot_].is_egl) c_.TakeEglError(*r);
  return r;
}

uint64_t HandCall::Create() {
  if (kind_ == kCreates) {
    End();
    return handle_;
  }
  const stream::wire::Reply* r = Wait();
  return r != nullptr && r->result.u != 0 ? handle_ : 0;
}

}  // namespace strata::remote
