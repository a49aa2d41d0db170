#pragma once
// Turns decoded calls into text for people (`strata dump`) and JSON lines.

#include <string>

#include "stream/call_decoder.h"

namespace strata::stream {

// "glTexImage2D(target=GL_TEXTURE_2D, ..., pixels=<262144 bytes>)" with the
// result, if any, after " = ".
std::string FormatCall(const DecodedCall& call);

// One JSON object: sequence, thread, context, function, args (name, value,
// bytes), result, start_ns, duration_ns.
std::string FormatCallJson(const DecodedCall& call);

// One argument's value as text (enum names for GL enums, numbers, pointers).
std::string FormatValue(const DecodedCall& call, int arg_index);

// A scalar of `call` (its result or an argument) as text, as FormatCall prints it.
std::string FormatScalar(const DecodedCall& call, const DecodedValue& value);
// Bytes behind argument `arg_index` as text, by its C type (small arrays as values).
std::string FormatBytes(const DecodedCall& call, int arg_index, std::span<const uint8_t> bytes);

// A GL token by its name in the registry (any group), or its number in hex.
std::string GlEnumText(uint32_t value);

// The return value as text, strings in full (up to 1 MiB); empty when the
// call returns nothing or has no reply.
std::string FormatResult(const DecodedCall& call);

}  // namespace strata::stream
