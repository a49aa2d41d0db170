#pragma once
// Base64 (RFC 4648, with padding), for images embedded as data: URLs.

#include <cstdint>
#include <span>
#include <string>

namespace strata::view {

std::string Base64Encode(std::span<const uint8_t> bytes);

}  // namespace strata::view
