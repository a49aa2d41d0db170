#include "stream/wire.h"

#include <cstring>
#include <sstream>

#include "stream/byte_reader.h"
#include "stream/call_encoder.h"

namespace strata::stream::wire {

using api::ArgKind;

namespace {

void PutU32(std::vector<uint8_t>& out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

uint32_t GetU32(const uint8_t* p) {
  return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
}

std::vector<std::string> Split(const std::string& list) {
  std::vector<std::string> items;
  std::stringstream in(list);
  for (std::string item; std::getline(in, item, ',');) {
    if (!item.empty()) items.push_back(item);
  }
  return items;
}

}  // namespace

std::vector<uint8_t> EncodeHello(const char* magic, const Hello& hello) {
  std::vector<uint8_t> body;
  for (const auto& [key, value] : hello.values) {
    PutU32(body, static_cast<uint32_t>(key.size()));
    body.insert(body.end(), key.begin(), key.end());
    PutU32(body, static_cast<uint32_t>(value.size()));
    body.insert(body.end(), value.begin(), value.end());
  }
  std::vector<uint8_t> out(magic, magic + 8);
  PutU32(out, hello.version);
  PutU32(out, static_cast<uint32_t>(body.size()));
  out.insert(out.end(), body.begin(), body.end());
  return out;
}

bool DecodeHelloHeader(std::span<const uint8_t> header, const char* magic, uint32_t* version, uint32_t* body_size,
                       std::string* error) {
  if (header.size() < kHelloHeaderBytes) {
    *error = "handshake cut short";
    return false;
  }
  if (std::memcmp(header.data(), magic, 8) != 0) {
    const bool other_role = std::memcmp(header.data(), magic == kClientMagic ? kRendererMagic : kClientMagic, 8) == 0;
    *error = other_role ? "the peer speaks the other side of Strata's remote protocol"
                        : "the peer does not speak Strata's remote protocol";
    return false;
  }
  *version = GetU32(header.data() + 8);
  *body_size = GetU32(header.data() + 12);
  if (*body_size > kMaxHelloBody) {
    *error = "handshake of " + std::to_string(*body_size) + " bytes is larger than the " +
             std::to_string(kMaxHelloBody) + " allowed";
    return false;
  }
  return true;
}

bool DecodeHelloBody(std::span<const uint8_t> body, Hello* hello, std::string* error) {
  size_t at = 0;
  auto take = [&](std::string* s) {
    if (body.size() - at < 4) return false;
    uint32_t n = GetU32(body.data() + at);
    at += 4;
    if (body.size() - at < n) return false;
    s->assign(reinterpret_cast<const char*>(body.data() + at), n);
    at += n;
    return true;
  };
  while (at < body.size()) {
    std::string key, value;
    if (!take(&key) || !take(&value)) {
      *error = "malformed handshake (a key or value runs past its end at byte " + std::to_string(at) + ")";
      return false;
    }
    hello->values[key] = std::move(value);
  }
  return true;
}

std::string CommonFeatures(const std::string& ours, const std::string& theirs) {
  std::string common;
  for (const std::string& feature : Split(ours)) {
    if (HasFeature(theirs, feature)) common += (common.empty() ? "" : ",") + feature;
  }
  return common;
}

bool HasFeature(const std::string& list, const std::string& feature) {
  for (const std::string& item : Split(list)) {
    if (item == feature) return true;
  }
  return false;
}

void PutMessageHeader(uint8_t* header, uint32_t size) {
  for (int i = 0; i < 4; ++i) header[i] = static_cast<uint8_t>(size >> (8 * i));
}

uint32_t MessageSize(const uint8_t* header) { return GetU32(header); }

void EncodeReply(ByteBuffer& out, int slot, const Reply& reply) {
  const api::FunctionInfo& info = api::kFunctions[slot];
  RecordOutput o(out, CallRecordBound(info));
  const size_t at = o.BeginRecord(RecordType::kReply);
  o.o() = PutVarint(o.o(), reply.sequence);
  *o.o()++ = static_cast<uint8_t>((reply.egl_error ? 1 : 0) | (reply.has_data ? 2 : 0));
  PutReplyValues(o, info, reply.result, reply.outputs);
  if (reply.egl_error) o.o() = PutScalar(o.o(), ArgKind::kInt, static_cast<uint64_t>(int64_t{*reply.egl_error}));
  if (reply.has_data) o.Blob(reply.data.data(), reply.data.size());
  o.EndRecord(at);
}

bool DecodeReply(std::span<const uint8_t> payload, int slot, Reply* reply, std::string* error) {
  const api::FunctionInfo& info = api::kFunctions[slot];
  ByteReader r(payload);
  reply->sequence = r.Varint();
  const uint8_t flags = r.U8();
  reply->result = DecodedValue{};
  reply->result.kind = info.return_kind;
  switch (info.return_kind) {
    case ArgKind::kVoid: break;
    case ArgKind::kString: reply->result.has_out = r.Blob(&reply->result.out); break;
    case ArgKind::kInt: reply->result.i = r.Zigzag(); break;
    case ArgKind::kFloat: reply->result.f = r.Float(); break;
    case ArgKind::kDouble: reply->result.f = r.Double(); break;
    default: reply->result.u = r.Varint(); break;
  }
  reply->outputs.assign(static_cast<size_t>(info.param_count), DecodedValue{});
  for (int i = 0; i < info.param_count; ++i) {
    reply->outputs[i].kind = info.params[i].kind;
    if (IsDataPointer(info.params[i].kind)) reply->outputs[i].has_out = r.Blob(&reply->outputs[i].out);
  }
  reply->egl_error.reset();
  if (flags & 1) reply->egl_error = static_cast<int32_t>(r.Zigzag());
  reply->has_data = false;
  reply->data = {};
  if (flags & 2) reply->has_data = r.Blob(&reply->data);
  if (!r.ok() || !r.done()) {
    *error = std::string("malformed reply to ") + info.name + " (at byte " + std::to_string(r.offset()) + " of " +
             std::to_string(payload.size()) + ")";
    return false;
  }
  return true;
}

}  // namespace strata::stream::wire
