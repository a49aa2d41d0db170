#pragma once
// The payloads of the records that travel beside calls
// (docs/trace-format.md): memory records (app memory a later call reads) and
// the trace events `surface` (a window's size), `gl-error` and `context`. Written by the tracer and the
// remote client, read by the executor's record dispatch: one layout each.

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "stream/byte_reader.h"
#include "stream/byte_writer.h"

namespace strata::stream {

// Memory record: varint address, blob of the bytes.
void EncodeMemory(ByteWriter& w, const void* address, size_t size);
bool DecodeMemory(std::span<const uint8_t> payload, uint64_t* address, std::span<const uint8_t>* bytes);

// Trace event `surface`: string kind, varint surface handle, varint width, varint height.
void EncodeSurfaceEvent(ByteWriter& w, uint64_t surface, uint64_t width, uint64_t height);

// False when the payload is not a well-formed `surface` event.
bool DecodeSurfaceEvent(std::span<const uint8_t> payload, uint64_t* surface, uint64_t* width, uint64_t* height);

// Trace event `config`: string kind, varint config handle, varint count,
// that many zigzag (EGL attribute, value) pairs: the format of a config the
// app used (at most 64 pairs are read). False when not a well-formed one.
using EglAttributes = std::vector<std::pair<int32_t, int32_t>>;
bool DecodeConfigEvent(std::span<const uint8_t> payload, uint64_t* config, EglAttributes* attributes);

// Trace event `gl-error`: string kind, varint context id, varint error: what
// glGetError gave the tracer at the end of a frame (0: GL_NO_ERROR), so that
// replay knows whether the app met a GL error even where it never asked.
void EncodeGlErrorEvent(ByteWriter& w, uint64_t context, uint64_t error);
// False when the payload is not a well-formed `gl-error` event.
bool DecodeGlErrorEvent(std::span<const uint8_t> payload, uint64_t* context, uint64_t* error);

// Trace event `context`: string kind, varint context id, varint count, that
// many key/value strings: what the driver says of a context (GL_VENDOR,
// GL_RENDERER, GL_VERSION, client_version), once per context and trace.
using KeyValues = std::vector<std::pair<std::string, std::string>>;
void EncodeContextEvent(ByteWriter& w, uint64_t context, const KeyValues& info);
// False when the payload is not a well-formed `context` event.
bool DecodeContextEvent(std::span<const uint8_t> payload, uint64_t* context, KeyValues* info);

}  // namespace strata::stream
