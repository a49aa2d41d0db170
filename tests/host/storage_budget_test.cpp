// The storage budget's arithmetic (host/storage_budget.h) and the sizes users
// give it (common/byte_size.h); that the executor asks it for every storage
// call is remote.Remote.StoragePastTheClientMemoryBudgetIsOutOfMemory's to show.
// Catches: an object's new storage added to its old instead of replacing it,
// deleted objects still counted, an immutable texture's levels counted twice,
// an overflowing request let through, sizes misread.
#include <gtest/gtest.h>

#include "common/byte_size.h"
#include "host/storage_budget.h"

namespace {

using strata::host::StorageBudget;
using Kind = StorageBudget::Kind;
constexpr uint32_t kWhole = StorageBudget::kWholeObject;
const int kGroupA = 0, kGroupB = 0;

TEST(StorageBudget, AnObjectsNewStorageReplacesItsOld) {
  StorageBudget budget(100);
  EXPECT_TRUE(budget.Set(&kGroupA, Kind::kBuffer, 1, kWhole, 60));
  EXPECT_TRUE(budget.Set(&kGroupA, Kind::kBuffer, 1, kWhole, 90));  // 90, not 150
  EXPECT_EQ(budget.used(), 90u);
  EXPECT_FALSE(budget.Set(&kGroupA, Kind::kBuffer, 2, kWhole, 20));  // 110 would pass 100
  EXPECT_EQ(budget.used(), 90u) << "a refused request changes nothing";
  EXPECT_TRUE(budget.Set(&kGroupA, Kind::kBuffer, 1, kWhole, 0));
  EXPECT_TRUE(budget.Set(&kGroupA, Kind::kBuffer, 2, kWhole, 100));
  EXPECT_EQ(budget.used(), 100u);
}

// A streaming app gives one buffer new storage at every draw, between
// others' requests and deletions: the budget changes that buffer's entry in
// place (StorageBudget::last_whole_) and must count it once, and afresh
// once it was deleted.
TEST(StorageBudget, ABufferGivenStorageAgainAndAgainIsCountedOnce) {
  StorageBudget budget(1000);
  for (int draw = 0; draw < 100; ++draw) {
    ASSERT_TRUE(budget.Set(&kGroupA, Kind::kBuffer, 5, kWhole, 100 + draw % 3));
    ASSERT_EQ(budget.used(), 100u + draw % 3) << "draw " << draw;
  }
  EXPECT_TRUE(budget.Set(&kGroupA, Kind::kBuffer, 6, kWhole, 800));
  EXPECT_FALSE(budget.Set(&kGroupA, Kind::kBuffer, 5, kWhole, 300)) << "100 + 800, then 300 + 800 > 1000";
  EXPECT_EQ(budget.used(), 900u);
  budget.Forget(&kGroupA, Kind::kBuffer, 5);
  EXPECT_EQ(budget.used(), 800u);
  EXPECT_TRUE(budget.Set(&kGroupA, Kind::kBuffer, 5, kWhole, 150));
  EXPECT_TRUE(budget.Set(&kGroupA, Kind::kBuffer, 5, kWhole, 200));
  EXPECT_EQ(budget.used(), 1000u);
  budget.Forget(&kGroupA, Kind::kBuffer, 6);
  EXPECT_TRUE(budget.Set(&kGroupA, Kind::kBuffer, 5, kWhole, 0));
  EXPECT_EQ(budget.used(), 0u);
  EXPECT_TRUE(budget.Set(&kGroupA, Kind::kBuffer, 5, kWhole, 7));
  EXPECT_EQ(budget.used(), 7u);
}

TEST(StorageBudget, DeletedObjectsGiveTheirStorageBack) {
  StorageBudget budget(100);
  EXPECT_TRUE(budget.Set(&kGroupA, Kind::kTexture, 7, 0, 40));
  EXPECT_TRUE(budget.Set(&kGroupA, Kind::kTexture, 7, 1, 10));
  EXPECT_TRUE(budget.Set(&kGroupA, Kind::kRenderbuffer, 7, kWhole, 30));
  EXPECT_EQ(budget.used(), 80u);
  budget.Forget(&kGroupA, Kind::kTexture, 7);  // both levels; the renderbuffer of that name stays
  EXPECT_EQ(budget.used(), 30u);
  // Names are per share group.
  EXPECT_TRUE(budget.Set(&kGroupB, Kind::kRenderbuffer, 7, kWhole, 70));
  budget.Forget(&kGroupA, Kind::kRenderbuffer, 7);
  EXPECT_EQ(budget.used(), 70u);
}

TEST(StorageBudget, ImmutableStorageReplacesEveryImage) {
  StorageBudget budget(1000);
  EXPECT_TRUE(budget.Set(&kGroupA, Kind::kTexture, 3, 0, 400));
  EXPECT_TRUE(budget.Set(&kGroupA, Kind::kTexture, 3, 1024 + 0, 400));  // another cube face
  EXPECT_TRUE(budget.Set(&kGroupA, Kind::kTexture, 3, kWhole, 500));
  EXPECT_EQ(budget.used(), 500u);
  // An image of an immutable texture fails in the driver: nothing changes.
  EXPECT_TRUE(budget.Set(&kGroupA, Kind::kTexture, 3, 2, 300));
  EXPECT_EQ(budget.used(), 500u);
}

TEST(StorageBudget, HugeRequestsAreRefusedAndNoLimitOnlyCounts) {
  StorageBudget budget(1u << 20);
  EXPECT_FALSE(budget.Set(&kGroupA, Kind::kBuffer, 1, kWhole, UINT64_MAX));
  EXPECT_EQ(budget.used(), 0u);
  StorageBudget unlimited(0);
  EXPECT_TRUE(unlimited.Set(&kGroupA, Kind::kBuffer, 1, kWhole, uint64_t{1} << 40));
  EXPECT_EQ(unlimited.used(), uint64_t{1} << 40);
}

TEST(ByteSize, ReadsNumbersWithBinaryUnits) {
  uint64_t bytes = 0;
  EXPECT_TRUE(strata::ParseByteSize("1073741824", &bytes));
  EXPECT_EQ(bytes, 1073741824u);
  EXPECT_TRUE(strata::ParseByteSize("512K", &bytes));
  EXPECT_EQ(bytes, 512u << 10);
  EXPECT_TRUE(strata::ParseByteSize("32M", &bytes));
  EXPECT_EQ(bytes, 32u << 20);
  EXPECT_TRUE(strata::ParseByteSize("4GiB", &bytes));
  EXPECT_EQ(bytes, uint64_t{4} << 30);
  EXPECT_TRUE(strata::ParseByteSize("0", &bytes));
  EXPECT_EQ(bytes, 0u);
  for (const char* bad : {"", "M", "12X", "-1", "1.5G", "99999999999999999999", "17179869184G", "4 G"}) {
    EXPECT_FALSE(strata::ParseByteSize(bad, &bytes)) << bad;
  }
  EXPECT_GT(strata::PhysicalMemoryBytes(), 0u);
}

}  // namespace
