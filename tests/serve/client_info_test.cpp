// How the renderer's log names a client: its program and pid, then its
// connection (serve/handshake.h, ClientAddress).
#include <gtest/gtest.h>

#include "serve/handshake.h"
#include "serve/session.h"

namespace strata::serve {
namespace {

transport::Peer UnixPeer(pid_t pid, uid_t uid) {
  return {true, uid, pid, "pid " + std::to_string(pid) + " (uid " + std::to_string(uid) + ")"};
}

TEST(ClientInfo, ALocalPeerWithTheSamePidIsNamedOnce) {
  // A Unix client's pid is the kernel's (ReadClientHello): its connection adds the uid only.
  EXPECT_EQ((ClientInfo{"glmark2-es2", 1234, ClientAddress(UnixPeer(1234, 1000))}).Describe(),
            "glmark2-es2 (pid 1234, uid 1000)");
}

TEST(ClientInfo, ALocalPeerWithoutCredentialsIsSaidToBeUnknown) {
  transport::Peer unknown;
  unknown.is_unix = true;
  unknown.description = "an unknown local process";
  EXPECT_EQ((ClientInfo{"app", 0, ClientAddress(unknown)}).Describe(), "app (pid 0, an unknown local process)");
}

TEST(ClientInfo, ATcpPeerKeepsItsAddress) {
  transport::Peer tcp;
  tcp.description = "127.0.0.1:5000";
  EXPECT_EQ((ClientInfo{"app", 99, ClientAddress(tcp)}).Describe(), "app (pid 99, 127.0.0.1:5000)");
}

}  // namespace
}  // namespace strata::serve
