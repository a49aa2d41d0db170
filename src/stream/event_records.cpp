#include "stream/event_records.h"

namespace strata::stream {

void EncodeMemory(ByteWriter& w, const void* address, size_t size) {
  w.Varint(reinterpret_cast<uintptr_t>(address));
  w.Blob(address, size);
}

bool DecodeMemory(std::span<const uint8_t> payload, uint64_t* address, std::span<const uint8_t>* bytes) {
  ByteReader r(payload);
  *address = r.Varint();
  return r.Blob(bytes) && r.ok() && r.done();
}

void EncodeSurfaceEvent(ByteWriter& w, uint64_t surface, uint64_t width, uint64_t height) {
  w.String("surface");
  w.Varint(surface);
  w.Varint(width);
  w.Varint(height);
}

bool DecodeSurfaceEvent(std::span<const uint8_t> payload, uint64_t* surface, uint64_t* width, uint64_t* height) {
  ByteReader r(payload);
  if (r.String() != "surface") return false;
  *surface = r.Varint();
  *width = r.Varint();
  *height = r.Varint();
  return r.ok();
}

bool DecodeConfigEvent(std::span<const uint8_t> payload, uint64_t* config, EglAttributes* attributes) {
  ByteReader r(payload);
  if (r.String() != "config") return false;
  *config = r.Varint();
  const uint64_t count = r.Varint();
  attributes->clear();
  for (uint64_t i = 0; i < count && i < 64 && r.ok(); ++i) {
    const int64_t name = r.Zigzag(), value = r.Zigzag();
    attributes->emplace_back(static_cast<int32_t>(name), static_cast<int32_t>(value));
  }
  return r.ok();
}

void EncodeGlErrorEvent(ByteWriter& w, uint64_t context, uint64_t error) {
  w.String("gl-error");
  w.Varint(context);
  w.Varint(error);
}

bool DecodeGlErrorEvent(std::span<const uint8_t> payload, uint64_t* context, uint64_t* error) {
  ByteReader r(payload);
  if (r.String() != "gl-error") return false;
  *context = r.Varint();
  *error = r.Varint();
  return r.ok() && r.done();
}

void EncodeContextEvent(ByteWriter& w, uint64_t context, const KeyValues& info) {
  w.String("context");
  w.Varint(context);
  w.Varint(info.size());
  for (const auto& [key, value] : info) {
    w.String(key);
    w.String(value);
  }
}

bool DecodeContextEvent(std::span<const uint8_t> payload, uint64_t* context, KeyValues* info) {
  ByteReader r(payload);
  if (r.String() != "context") return false;
  *context = r.Varint();
  const uint64_t count = r.Varint();
  info->clear();
  for (uint64_t i = 0; i < count && r.ok(); ++i) {
    std::string key = r.String();
    std::string value = r.String();
    if (r.ok()) info->emplace_back(std::move(key), std::move(value));
  }
  return r.ok() && r.done();
}

}  // namespace strata::stream
