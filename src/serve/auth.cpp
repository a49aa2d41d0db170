#include "serve/auth.h"

#include <unistd.h>

#include <algorithm>

#include "transport/token.h"

namespace strata::serve {

std::string CheckClient(const transport::Peer& peer, const stream::wire::Hello& hello, const AuthPolicy& policy) {
  if (peer.is_unix) {
    if (peer.uid == getuid()) return {};
    if (std::find(policy.allowed_uids.begin(), policy.allowed_uids.end(), peer.uid) != policy.allowed_uids.end()) {
      return {};
    }
    return "uid " + std::to_string(peer.uid) + " is not allowed (only uid " + std::to_string(getuid()) +
           " and those given with --allow-uid)";
  }
  const std::string* token = hello.Find("token");
  if (token == nullptr) return "a TCP client must send the renderer's token (STRATA_REMOTE_TOKEN_FILE)";
  // Constant time: a client must not learn the token a byte at a time.
  if (!transport::TokensEqual(*token, policy.token)) return "wrong token";
  return {};
}

}  // namespace strata::serve
