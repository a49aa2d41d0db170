#include "stream/call_decoder.h"

#include "stream/bulk_blobs.h"
#include "stream/byte_reader.h"
#include "stream/record_format.h"

namespace strata::stream {

using api::ArgKind;

void FunctionTable::Load(std::string_view names) {
  slots_.clear();
  names_.clear();
  size_t start = 0;
  while (start <= names.size()) {
    size_t end = names.find('\n', start);
    if (end == std::string_view::npos) end = names.size();
    if (end > start || end < names.size()) {
      std::string name(names.substr(start, end - start));
      slots_.push_back(api::FindFunction(name.c_str()));
      names_.push_back(std::move(name));
    }
    start = end + 1;
  }
}

std::string FunctionTable::OwnNames() {
  std::string names;
  for (const api::FunctionInfo& info : api::kFunctions) (names += info.name) += '\n';
  return names;
}

namespace {

bool IsDataPointer(ArgKind kind) { return kind == ArgKind::kPointer || kind == ArgKind::kString; }

[[gnu::always_inline]] inline void ReadScalar(ByteReader& r, ArgKind kind, DecodedValue* v) {
  v->kind = kind;
  switch (kind) {
    case ArgKind::kInt: v->i = r.Zigzag(); break;
    case ArgKind::kFloat: v->f = r.Float(); break;
    case ArgKind::kDouble: v->f = r.Double(); break;
    default: v->u = r.Varint(); break;
  }
}

}  // namespace

bool CallDecoder::Decode(std::span<const uint8_t> payload, uint32_t thread, uint64_t chunk, DecodedCall* call,
                         std::string* error) {
  const FunctionTable& table = table_;
  // Calls come in runs of one thread: remember the last one (map nodes do not move).
  if (last_state_ == nullptr || last_thread_ != thread) {
    last_state_ = &threads_[thread];
    last_thread_ = thread;
  }
  ThreadState& state = *last_state_;
  bool first = state.chunk != chunk;
  // The reader stays in registers only while its address goes nowhere: the
  // blob reading below is inlined, the rare paths get copies.
  ByteReader r(payload);
  std::string bulk_error;
  // A blob, in its record or out of line; false when absent. A missing or
  // wrongly sized bulk segment sets bulk_error.
  auto blob = [&](std::span<const uint8_t>* bytes) -> bool {
    const uint64_t tag = r.Varint();
    if (tag == 0 || !r.ok()) return false;
    const uint64_t size = tag - 1;
    if (bulk_ == nullptr || size < bulk_threshold_) {
      *bytes = r.Bytes(size);
      return r.ok();
    }
    if (bulk_error.empty() && !bulk_->Take(call->slot, static_cast<size_t>(size), bytes, &bulk_error)) *bytes = {};
    return true;
  };
  // Field by field, so the argument vector keeps its capacity from call to call.
  call->result = DecodedValue{};
  call->flags = 0;
  call->has_reply = false;
  call->function_id = r.Varint();
  uint64_t sequence = r.Varint();
  call->sequence = first ? sequence : state.sequence + 1 + sequence;
  call->thread = thread;
  call->context = r.Varint();
  call->flags = r.U8();
  if (!r.ok()) {
    *error = "truncated call record header";
    return false;
  }
  if (call->flags & kCallUnknownFunction) {
    if (!DecodeUnknownFunction(ByteReader(r), first, call, error)) return false;
    state = {chunk, call->sequence, call->start_ns};  // later calls count from it, accepted or not
    if (!accept_unknown_) {
      *error = "call to " + std::string(call->name) + ", a function the tracer did not know (recorded without arguments)";
      return false;
    }
    return true;
  }
  call->slot = table.SlotOf(call->function_id);
  call->name = table.NameOf(call->function_id);
  if (call->slot < 0) {
    *error = "call to a function this build of Strata does not know: " + std::string(call->name);
    return false;
  }
  const api::FunctionInfo& info = api::kFunctions[call->slot];
  call->args.resize(info.param_count);
  for (int i = 0; i < info.param_count; ++i) {
    DecodedValue& v = call->args[i];
    v = DecodedValue{};
    ReadScalar(r, info.params[i].kind, &v);
    if (IsDataPointer(v.kind)) v.has_in = blob(&v.in);
  }
  uint64_t start = r.Varint();
  call->start_ns = first ? start : state.start_ns + start;
  call->duration_ns = r.Varint();
  call->has_reply = call->flags & kCallHasReply;
  if (call->has_reply) {
    if (info.return_kind == ArgKind::kString) {
      call->result.kind = ArgKind::kString;
      call->result.has_out = blob(&call->result.out);
    } else if (info.return_kind != ArgKind::kVoid) {
      ReadScalar(r, info.return_kind, &call->result);
    }
    for (DecodedValue& v : call->args) {
      if (IsDataPointer(v.kind)) v.has_out = blob(&v.out);
    }
  }
  if (!bulk_error.empty()) {
    *error = std::string(info.name) + ": " + bulk_error;
    return false;
  }
  if (!r.ok() || !r.done()) {
    *error = std::string("malformed call record for ") + info.name + " (at byte " + std::to_string(r.offset()) +
             " of " + std::to_string(payload.size()) + ")";
    return false;
  }
  state = {chunk, call->sequence, call->start_ns};
  return true;
}

CallDecoder::ThreadState* CallDecoder::StateOf(uint32_t thread) {
  last_state_ = &threads_[thread];
  last_thread_ = thread;
  return last_state_;
}

size_t CallDecoder::ResultLength(ByteReader r, ArgKind return_kind) {
  const size_t at = r.offset();
  DecodedValue skipped;
  if (return_kind != ArgKind::kVoid) ReadScalar(r, return_kind, &skipped);
  return r.ok() ? r.offset() - at : SIZE_MAX;
}

bool CallDecoder::DecodeUnknownFunction(ByteReader r, bool first, DecodedCall* call, std::string* error) {
  const ThreadState& state = *last_state_;
  std::span<const uint8_t> name;
  const bool named = r.Blob(&name);
  const uint64_t start = r.Varint();
  call->duration_ns = r.Varint();
  if (!named || !r.ok() || !r.done() || name.empty() || name.size() > 256) {
    *error = "malformed record of a call to a function the tracer did not know";
    return false;
  }
  call->slot = -1;
  call->name = std::string_view(reinterpret_cast<const char*>(name.data()), name.size());
  for (char c : call->name) {
    if (c <= ' ' || c > '~') {
      *error = "malformed record of a call to a function the tracer did not know: its name is not printable";
      return false;
    }
  }
  call->args.clear();
  call->result = DecodedValue{};
  call->start_ns = first ? start : state.start_ns + start;
  return true;
}

std::vector<std::string_view> DecodeStrings(std::span<const uint8_t> blob, bool* ok) {
  ByteReader r(blob);
  std::vector<std::string_view> strings;
  uint64_t count = r.Varint();
  for (uint64_t i = 0; i < count && r.ok(); ++i) {
    auto bytes = r.Bytes(r.Varint());
    strings.emplace_back(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  }
  *ok = r.ok() && r.done();
  return strings;
}

}  // namespace strata::stream
