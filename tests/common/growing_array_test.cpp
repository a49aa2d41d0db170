// GrowingArray holds what was written through every growth, shrinks without
// losing what stays, is usable again after giving everything back, and hands
// its memory over on a move.
#include "common/growing_array.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <utility>

namespace {

using strata::GrowingArray;

TEST(GrowingArray, KeepsEveryValueThroughGrowth) {
  GrowingArray<uint64_t> values;
  EXPECT_TRUE(values.empty());
  constexpr uint64_t kCount = 3'000'000;  // 24 MB: many reallocations past the first page
  for (uint64_t i = 0; i < kCount; ++i) values.push_back(i * 2654435761u);
  ASSERT_EQ(values.size(), kCount);
  for (uint64_t i = 0; i < kCount; i += 997) ASSERT_EQ(values[i], i * 2654435761u) << i;
  EXPECT_EQ(values[kCount - 1], (kCount - 1) * 2654435761u);
}

TEST(GrowingArray, AppendTruncateAndShrinkKeepWhatStays) {
  GrowingArray<uint32_t> values;
  uint32_t* at = values.Append(100'000);
  for (uint32_t i = 0; i < 100'000; ++i) at[i] = i;
  at = values.Append(1'000'000);  // past the capacity: the first 100,000 move along
  at[0] = 7;
  EXPECT_EQ(values.size(), 1'100'000u);
  EXPECT_EQ(values[99'999], 99'999u);
  EXPECT_EQ(values[100'000], 7u);
  values.Truncate(50'000);
  values.ShrinkToFit();
  EXPECT_EQ(values.size(), 50'000u);
  for (uint32_t i = 0; i < 50'000; i += 101) ASSERT_EQ(values[i], i);
  values.push_back(42);
  EXPECT_EQ(values[50'000], 42u);
  values.clear();
  values.ShrinkToFit();
  EXPECT_TRUE(values.empty());
  EXPECT_EQ(values.data(), nullptr);
  values.push_back(9);  // usable again after giving everything back
  EXPECT_EQ(values[0], 9u);
}

TEST(GrowingArray, AMoveHandsTheValuesOver) {
  GrowingArray<char> bytes;
  bytes.Append(10)[5] = 'x';
  const char* const where = bytes.data();
  GrowingArray<char> other(std::move(bytes));
  EXPECT_EQ(bytes.data(), nullptr);
  EXPECT_EQ(bytes.size(), 0u);
  EXPECT_EQ(other.data(), where);
  EXPECT_EQ(other[5], 'x');
  GrowingArray<char> third;
  third = std::move(other);
  EXPECT_EQ(third.size(), 10u);
  EXPECT_EQ(third[5], 'x');
}

}  // namespace
