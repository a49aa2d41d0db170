// How the renderer's log names a client.
#include <gtest/gtest.h>

#include "serve/session.h"

namespace strata::serve {
namespace {

TEST(ClientInfo, ALocalPeerWithTheSamePidIsNamedOnce) {
  EXPECT_EQ((ClientInfo{"glmark2-es2", 1234, "pid 1234 (uid 1000)"}).Describe(), "glmark2-es2 (pid 1234, uid 1000)");
}

TEST(ClientInfo, APidTheKernelNamesOtherwiseIsKept) {
  // A client in another pid namespace: its own pid and the one the kernel sees differ.
  EXPECT_EQ((ClientInfo{"app", 7, "pid 1234 (uid 0)"}).Describe(), "app (pid 7, pid 1234 (uid 0))");
  EXPECT_EQ((ClientInfo{"app", 12, "pid 1234 (uid 0)"}).Describe(), "app (pid 12, pid 1234 (uid 0))");
}

TEST(ClientInfo, ATcpPeerKeepsItsAddress) {
  EXPECT_EQ((ClientInfo{"app", 99, "127.0.0.1:5000"}).Describe(), "app (pid 99, 127.0.0.1:5000)");
}

}  // namespace
}  // namespace strata::serve
