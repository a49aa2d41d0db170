#include "stream/call_decoder.h"
#include "stream/call_encoder.h"

namespace strata::stream {
namespace {

// By the layout's kind, not the value's: a reply may leave its kind unset.
uint64_t ScalarWord(const DecodedValue& v, api::ArgKind kind) {
  switch (kind) {
    case api::ArgKind::kInt: return static_cast<uint64_t>(v.i);
    case api::ArgKind::kFloat: {
      float f = static_cast<float>(v.f);
      uint32_t bits;
      std::memcpy(&bits, &f, sizeof bits);
      return bits;
    }
    case api::ArgKind::kDouble: {
      uint64_t bits;
      std::memcpy(&bits, &v.f, sizeof bits);
      return bits;
    }
    default: return v.u;
  }
}

}  // namespace

void EncodeCall(const DecodedCall& call, CallRun& run, ByteBuffer& out) {
  const api::FunctionInfo& info = api::kFunctions[call.slot];
  RecordOutput o(out, CallRecordBound(info));
  const size_t at = o.BeginRecord(RecordType::kCall);
  o.o() = PutCallHead(o.o(), run, call.function_id, call.sequence, call.context, call.flags);
  for (int i = 0; i < info.param_count && static_cast<size_t>(i) < call.args.size(); ++i) {
    const DecodedValue& v = call.args[i];
    o.o() = PutScalar(o.o(), info.params[i].kind, ScalarWord(v, info.params[i].kind));
    if (!IsDataPointer(info.params[i].kind)) continue;
    if (v.has_in) {
      o.Blob(v.in.data(), v.in.size());
    } else {
      o.Absent();
    }
  }
  o.o() = PutCallTimes(o.o(), run, call.start_ns, call.start_ns + call.duration_ns);
  if (call.flags & kCallHasReply) PutReplyValues(o, info, call.result, call.args);
  o.EndRecord(at);
}

void PutReplyValues(RecordOutput& o, const api::FunctionInfo& info, const DecodedValue& result,
                    const std::vector<DecodedValue>& outputs) {
  auto blob = [&o](const DecodedValue& v) {
    if (v.has_out) {
      o.Blob(v.out.data(), v.out.size());
    } else {
      o.Absent();
    }
  };
  if (info.return_kind == api::ArgKind::kString) {
    blob(result);
  } else if (info.return_kind != api::ArgKind::kVoid) {
    o.o() = PutScalar(o.o(), info.return_kind, ScalarWord(result, info.return_kind));
  }
  for (int i = 0; i < info.param_count; ++i) {
    if (!IsDataPointer(info.params[i].kind)) continue;
    if (static_cast<size_t>(i) < outputs.size()) {
      blob(outputs[i]);
    } else {
      o.Absent();
    }
  }
}

}  // namespace strata::stream
