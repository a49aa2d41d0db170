#include "snapshot/call_list.h"

#include <cstring>
#include <stdexcept>

#include "stream/byte_writer.h"
#include "stream/record_format.h"

namespace strata::snapshot {

CallList::Builder CallList::Add(api::Slot slot) {
  stream::DecodedCall& call = calls_.emplace_back();
  call.slot = static_cast<int>(slot);
  call.function_id = static_cast<uint64_t>(slot);
  call.name = api::kFunctions[slot].name;
  call.flags = stream::kCallSynthesized;
  call.result.kind = api::kFunctions[slot].return_kind;
  return Builder(*this, call);
}

const stream::DecodedCall& CallList::Copy(const stream::DecodedCall& call) {
  stream::DecodedCall& copy = calls_.emplace_back(call);
  copy.flags |= stream::kCallSynthesized;
  copy.function_id = static_cast<uint64_t>(call.slot);
  copy.name = api::kFunctions[call.slot].name;
  for (stream::DecodedValue& value : copy.args) {
    if (value.has_in) value.in = Keep(value.in.data(), value.in.size());
    if (value.has_out) value.out = Keep(value.out.data(), value.out.size());
  }
  if (copy.result.has_out) copy.result.out = Keep(copy.result.out.data(), copy.result.out.size());
  return copy;
}

std::span<const uint8_t> CallList::Keep(const void* data, size_t size) {
  std::vector<uint8_t>& kept = bytes_.emplace_back(size);
  if (size != 0) std::memcpy(kept.data(), data, size);
  data_bytes_ += size;
  return kept;
}

stream::DecodedValue& CallList::Builder::Next() {
  const api::FunctionInfo& info = api::kFunctions[call_.slot];
  if (call_.args.size() >= info.param_count) {
    // A programming error in the snapshot's tables, never the input's.
    throw std::logic_error(std::string("snapshot: too many arguments for ") + info.name);
  }
  stream::DecodedValue& value = call_.args.emplace_back();
  value.kind = info.params[call_.args.size() - 1].kind;
  return value;
}

CallList::Builder& CallList::Builder::Arg(int64_t value) {
  stream::DecodedValue& v = Next();
  if (v.kind == api::ArgKind::kInt) {
    v.i = value;
  } else if (v.kind == api::ArgKind::kFloat || v.kind == api::ArgKind::kDouble) {
    v.f = static_cast<double>(value);
  } else {
    v.u = static_cast<uint64_t>(value);
  }
  return *this;
}

CallList::Builder& CallList::Builder::Float(double value) {
  Next().f = value;
  return *this;
}

// Data pointers need a value that is not null: the executor passes the
// recorded bytes wherever the recording had a pointer.
constexpr uint64_t kSomeAddress = 0x1000;

CallList::Builder& CallList::Builder::In(const void* data, size_t size) {
  stream::DecodedValue& v = Next();
  v.u = kSomeAddress;
  v.has_in = true;
  v.in = list_.Keep(data, size);
  return *this;
}

CallList::Builder& CallList::Builder::String(std::string_view text) {
  std::string terminated(text);
  return In(terminated.c_str(), terminated.size() + 1);
}

CallList::Builder& CallList::Builder::Strings(const std::vector<std::string>& texts) {
  stream::ByteBuffer buffer;
  stream::ByteWriter w(&buffer);
  w.Varint(texts.size());
  for (const std::string& text : texts) w.String(text);
  return In(buffer.storage.data(), buffer.size);
}

CallList::Builder& CallList::Builder::Out(const void* data, size_t size) {
  stream::DecodedValue& v = Next();
  v.u = kSomeAddress;
  v.has_out = true;
  v.out = list_.Keep(data, size);
  call_.flags |= stream::kCallHasReply;
  call_.has_reply = true;
  return *this;
}

CallList::Builder& CallList::Builder::Returns(uint64_t value) {
  if (call_.result.kind == api::ArgKind::kInt) {
    call_.result.i = static_cast<int64_t>(value);
  } else {
    call_.result.u = value;
  }
  call_.flags |= stream::kCallHasReply;
  call_.has_reply = true;
  return *this;
}

}  // namespace strata::snapshot
