#pragma once
// Who may render here. Unix clients are known by their credentials (the
// kernel's, not anything they say); TCP clients cannot be, so they must
// prove they can read the renderer's token file.

#include <sys/types.h>

#include <string>
#include <vector>

#include "stream/wire.h"
#include "transport/listener.h"

namespace strata::serve {

struct AuthPolicy {
  std::vector<uid_t> allowed_uids;  // besides the renderer's own uid
  std::string token;                // what TCP clients must send as hello key `token`
};

// Empty when `peer` may connect; else one line saying why not.
std::string CheckClient(const transport::Peer& peer, const stream::wire::Hello& hello, const AuthPolicy& policy);

}  // namespace strata::serve
