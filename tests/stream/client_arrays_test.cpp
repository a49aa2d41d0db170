// Catches: a draw whose client-side array goes untraced (or unsent by the
// remote client) because the kept answer to "does an enabled array read app
// memory?" missed an enable, a disable or a re-pointing; and ranges that
// cover the wrong bytes.
#include "stream/client_arrays.h"

#include <gtest/gtest.h>

#include <cstdint>

namespace strata::capture {
namespace {

const float kVertices[64] = {};

TEST(ClientArrays, AnEnabledArrayInAppMemoryIsSeenUntilItStopsBeingOne) {
  ClientArrays arrays;
  EXPECT_FALSE(arrays.AnyInClientMemory());
  arrays.SetPointer(3, 2, GL_FLOAT, 0, kVertices, true);
  EXPECT_FALSE(arrays.AnyInClientMemory()) << "pointed but not enabled";
  arrays.Enable(3, true);
  EXPECT_TRUE(arrays.AnyInClientMemory());
  arrays.Enable(5, true);  // an enabled slot without a pointer changes nothing
  arrays.Enable(5, false);
  EXPECT_TRUE(arrays.AnyInClientMemory());
  arrays.SetPointer(3, 2, GL_FLOAT, 0, reinterpret_cast<const void*>(16), false);
  EXPECT_FALSE(arrays.AnyInClientMemory()) << "re-pointed into a buffer";
  arrays.SetPointer(3, 2, GL_FLOAT, 0, kVertices, true);
  EXPECT_TRUE(arrays.AnyInClientMemory());
  arrays.SetPointer(3, 2, GL_FLOAT, 0, nullptr, true);
  EXPECT_FALSE(arrays.AnyInClientMemory()) << "a null pointer reads nothing";
  arrays.SetPointer(3, 2, GL_FLOAT, 0, kVertices, true);
  arrays.Enable(3, false);
  EXPECT_FALSE(arrays.AnyInClientMemory()) << "disabled";
}

TEST(ClientArrays, EverySlotCountsAndOutOfRangeSlotsAreIgnored) {
  for (int slot = 0; slot < ClientArrays::kSlots; ++slot) {
    ClientArrays arrays;
    arrays.SetPointer(slot, 4, GL_FLOAT, 0, kVertices, true);
    arrays.Enable(slot, true);
    EXPECT_TRUE(arrays.AnyInClientMemory()) << slot;
    arrays.SetPointer(-1, 4, GL_FLOAT, 0, kVertices, true);
    arrays.Enable(ClientArrays::kSlots, false);
    arrays.Enable(-1, false);
    EXPECT_TRUE(arrays.AnyInClientMemory()) << slot;
  }
  ClientArrays arrays;
  arrays.SetPointer(ClientArrays::kSlots, 4, GL_FLOAT, 0, kVertices, true);
  arrays.Enable(ClientArrays::kSlots, true);
  EXPECT_FALSE(arrays.AnyInClientMemory());
}

TEST(ClientArrays, Gles1ArraysCountAtTheirSlots) {
  ClientArrays arrays;
  arrays.SetGles1Pointer(ClientArrays::kColorArray, 4, GL_FLOAT, 0, kVertices, true);
  arrays.Enable(arrays.Gles1Slot(ClientArrays::kColorArray), true);
  EXPECT_TRUE(arrays.AnyInClientMemory());
  arrays.Enable(arrays.Gles1Slot(ClientArrays::kColorArray), false);
  EXPECT_FALSE(arrays.AnyInClientMemory());
}

TEST(ClientArrays, RangesCoverWhatADrawReadsWithOverlapsMerged) {
  ClientArrays arrays;
  const auto* base = reinterpret_cast<const uint8_t*>(kVertices);
  // Interleaved position (2 floats) and color (2 floats) at a 16-byte stride.
  arrays.SetPointer(0, 2, GL_FLOAT, 16, base, true);
  arrays.SetPointer(1, 2, GL_FLOAT, 16, base + 8, true);
  arrays.Enable(0, true);
  arrays.Enable(1, true);
  auto ranges = arrays.Ranges(2, 5, 1);  // vertices 2, 3 and 4
  ASSERT_EQ(ranges.size(), 1u);
  EXPECT_EQ(ranges[0].first, base + 32);
  EXPECT_EQ(ranges[0].second, 48u);
  arrays.Enable(1, false);
  ranges = arrays.Ranges(2, 5, 1);
  ASSERT_EQ(ranges.size(), 1u);
  EXPECT_EQ(ranges[0].second, 40u);  // the last vertex's position only
  EXPECT_TRUE(arrays.Ranges(5, 5, 1).empty());
}

}  // namespace
}  // namespace strata::capture
