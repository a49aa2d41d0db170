// Catches: a recorded name mapped to the wrong host name (or kept after its
// delete) once names pass a page or the paged range; pages kept after their
// last name goes, so a renderer whose client makes and deletes objects
// every frame would grow without end; a stream that scatters its names
// making the renderer hold a page for each; a deleted name that stands for
// another object's host name (a driver that reuses names), so that a label or
// glIs* on a dead name reaches a live object.
#include "host/object_names.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <utility>
#include <vector>

namespace strata::host {
namespace {

TEST(NameMap, UnmappedNamesStandForThemselves) {
  NameMap names;
  EXPECT_EQ(names.ToHost(0), 0u);
  EXPECT_EQ(names.ToHost(7), 7u);
  EXPECT_EQ(names.ToHost(uint64_t{1} << 40), uint64_t{1} << 40);
  EXPECT_FALSE(names.Knows(7));
  EXPECT_EQ(names.ToRecorded(7), 0u);
  EXPECT_EQ(names.ToStream(7), 7u);
}

TEST(NameMap, MapsBothWaysAcrossPagesAndBeyondThem) {
  NameMap names;
  const std::vector<std::pair<uint64_t, uint64_t>> pairs = {
      {1, 3}, {1023, 1024}, {1024, 2}, {5000000, 9}, {PagedNames::kKeys - 1, 11}, {PagedNames::kKeys, 12},
      {0x7f0012345678, 0x7f00deadbeef}};
  for (auto [recorded, host] : pairs) names.Add(recorded, host);
  for (auto [recorded, host] : pairs) {
    EXPECT_TRUE(names.Knows(recorded)) << recorded;
    EXPECT_EQ(names.ToHost(recorded), host) << recorded;
    EXPECT_EQ(names.ToRecorded(host), recorded) << host;
    EXPECT_EQ(names.ToStream(host), recorded) << host;
  }
  std::vector<std::pair<uint64_t, uint64_t>> seen;
  names.ForEach([&seen](uint64_t recorded, uint64_t host) { seen.emplace_back(recorded, host); });
  std::sort(seen.begin(), seen.end());
  EXPECT_EQ(seen, pairs);
}

TEST(NameMap, RemappingANameForgetsItsOldHostName) {
  NameMap names;
  names.Add(5, 50);
  names.Add(5, 60);
  EXPECT_EQ(names.ToHost(5), 60u);
  EXPECT_EQ(names.ToRecorded(50), 0u);
  EXPECT_EQ(names.ToRecorded(60), 5u);
  // Another recorded name takes host name 60: the first keeps its way to the host.
  names.Add(6, 60);
  EXPECT_EQ(names.ToRecorded(60), 6u);
  names.Remove(5);
  EXPECT_EQ(names.ToRecorded(60), 6u) << "removing 5 must not drop 6's reverse mapping";
  EXPECT_EQ(names.ToHost(5), 5u);
}

TEST(NameMap, ADeadNameNeverStandsForALiveHostObject) {
  // The client named buffers 1 and 2; the host, reusing names, gave both its 1.
  NameMap names;
  names.Add(1, 1);
  names.Remove(1);
  names.Add(2, 1);
  const uint64_t dead = names.ToHost(1);
  EXPECT_NE(dead, 1u) << "deleted name 1 reaches the live object of name 2";
  EXPECT_EQ(names.ToRecorded(dead), 0u);
  EXPECT_EQ(names.ToHost(3), 3u) << "a name nobody used still stands for itself";
  names.Remove(2);
  EXPECT_EQ(names.ToHost(1), 1u) << "once host name 1 is free again, name 1 stands for itself";
}

TEST(NameMap, NamesThatOnlyGrowHoldFewPages) {
  // A remote client's names only grow: 2 million objects made and deleted,
  // a few alive at a time, as a program that makes textures every frame.
  NameMap names;
  size_t most_pages = 0;
  for (uint64_t name = 1; name <= 2'000'000; ++name) {
    names.Add(name, name % 4096 + 1);  // the host reuses its names
    EXPECT_EQ(names.ToHost(name), name % 4096 + 1);
    if (name > 8) names.Remove(name - 8);
    most_pages = std::max(most_pages, names.pages());
  }
  EXPECT_LE(most_pages, 8u);
  for (uint64_t name = 1; name <= 2'000'000 - 8; name += 99991) EXPECT_FALSE(names.Knows(name)) << name;
  names.Clear();
  EXPECT_EQ(names.pages(), 0u);
}

TEST(NameMap, ScatteredNamesDoNotMakeAPageEach) {
  // A hostile stream naming one object per page: after 16 pages the names go
  // to the maps (at most 16 pages of them), and all still map both ways.
  NameMap names;
  constexpr uint64_t kCount = 100'000;
  for (uint64_t i = 1; i <= kCount; ++i) names.Add(i * 1024 + 1, i);
  const size_t host_pages = kCount / 1024 + 1;  // the host's names are dense
  EXPECT_LE(names.pages(), 16 + host_pages);
  EXPECT_GE(names.sparse(), kCount - 16);
  for (uint64_t i = 1; i <= kCount; i += 997) {
    EXPECT_EQ(names.ToHost(i * 1024 + 1), i) << i;
    EXPECT_EQ(names.ToRecorded(i), i * 1024 + 1) << i;
  }
  EXPECT_FALSE(names.Knows(2 * 1024 + 2));
  for (uint64_t i = 1; i <= kCount; ++i) names.Remove(i * 1024 + 1);
  EXPECT_EQ(names.pages(), 0u);
  EXPECT_EQ(names.sparse(), 0u);
  for (uint64_t i = 1; i <= kCount; i += 997) EXPECT_EQ(names.ToRecorded(i), 0u) << i;
}

TEST(NameMap, RemovingAnUnknownNameChangesNothing) {
  NameMap names;
  names.Add(2000, 1);
  names.Remove(2001);
  names.Remove(123456789);
  names.Remove(uint64_t{1} << 40);
  EXPECT_EQ(names.ToHost(2000), 1u);
  EXPECT_EQ(names.pages(), 2u);
}

}  // namespace
}  // namespace strata::host
