#pragma once
// The renderer's secret for TCP clients: a file only its owner can read,
// holding 64 hex digits. Unix clients are known by their credentials instead.

#include <string>

namespace strata::transport {

// A fresh token: 32 random bytes as 64 hex digits (also the renderer's session keys).
bool NewToken(std::string* token, std::string* error);

// Writes a fresh token (32 random bytes as hex) to `path` with mode 0600,
// replacing an old token file of ours; never follows a symbolic link and never
// replaces a file of another user. The token goes to `token`.
bool WriteNewToken(const std::string& path, std::string* token, std::string* error);

// Reads the token at `path`; refuses a file that others may read or write.
bool ReadToken(const std::string& path, std::string* token, std::string* error);

// Compares in time that depends only on the lengths, so a client cannot learn
// the token a byte at a time by timing refusals.
bool TokensEqual(const std::string& a, const std::string& b);

}  // namespace strata::transport
