// Catches: a draw whose client-side array goes untraced (or unsent by the
// remote client) because the kept answer to "does an enabled array read app
// memory?" missed an enable, a disable or a re-pointing; and ranges that
// cover the wrong bytes.
#include "stream/client_arrays.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <utility>
#include <vector>

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

// Catches: OES_matrix_palette's arrays without a slot (their draws would go
// out without their bytes) or sharing one with another GLES 1 array or a
// texture unit's coordinates (one's pointer would replace the other's).
TEST(ClientArrays, MatrixPaletteArraysHaveSlotsOfTheirOwn) {
  ClientArrays arrays;
  std::vector<int> slots = {arrays.Gles1Slot(ClientArrays::kVertexArray), arrays.Gles1Slot(ClientArrays::kNormalArray),
                            arrays.Gles1Slot(ClientArrays::kColorArray),
                            arrays.Gles1Slot(ClientArrays::kPointSizeArrayOes),
                            arrays.Gles1Slot(ClientArrays::kMatrixIndexArrayOes),
                            arrays.Gles1Slot(ClientArrays::kWeightArrayOes)};
  for (GLenum unit = GL_TEXTURE0; unit < GL_TEXTURE0 + 8; ++unit) {
    arrays.SetClientActiveTexture(unit);
    slots.push_back(arrays.Gles1Slot(ClientArrays::kTexCoordArray));
  }
  for (size_t i = 0; i < slots.size(); ++i) {
    EXPECT_GE(slots[i], 0) << i;
    EXPECT_LT(slots[i], ClientArrays::kSlots) << i;
    for (size_t j = 0; j < i; ++j) EXPECT_NE(slots[i], slots[j]) << i << " and " << j;
  }
  // Two matrix indices (bytes) and two weights (floats) a vertex, as the draw reads them.
  const auto* base = reinterpret_cast<const uint8_t*>(kVertices);
  arrays.SetGles1Pointer(ClientArrays::kMatrixIndexArrayOes, 2, GL_UNSIGNED_BYTE, 0, base, true);
  arrays.SetGles1Pointer(ClientArrays::kWeightArrayOes, 2, GL_FLOAT, 0, base + 128, true);
  arrays.Enable(arrays.Gles1Slot(ClientArrays::kMatrixIndexArrayOes), true);
  arrays.Enable(arrays.Gles1Slot(ClientArrays::kWeightArrayOes), true);
  const auto ranges = arrays.Ranges(0, 3, 1);
  ASSERT_EQ(ranges.size(), 2u);
  EXPECT_EQ(ranges[0], std::make_pair(base, size_t{3 * 2}));
  EXPECT_EQ(ranges[1], std::make_pair(base + 128, size_t{3 * 2 * sizeof(float)}));
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

// Catches: a call's client-array trait applied to the wrong slot or with the
// wrong parts (a GLES 1 array's size, a generic attribute's divisor).
TEST(ClientArrays, CallsApplyAsTheirTraitsSay) {
  using api::ClientArrayOp;
  ClientArrays arrays;
  arrays.Apply({.op = ClientArrayOp::kPointer, .index = 2, .size = 2, .type = GL_FLOAT, .pointer = kVertices}, false);
  EXPECT_FALSE(arrays.AnyInClientMemory());
  arrays.Apply({.op = ClientArrayOp::kEnable, .index = 2}, false);
  EXPECT_TRUE(arrays.AnyInClientMemory());
  arrays.Apply({.op = ClientArrayOp::kDivisor, .index = 2, .divisor = 1}, false);
  // Divided by instance: 3 instances read 3 elements whatever the vertices.
  auto ranges = arrays.Ranges(10, 20, 3);
  ASSERT_EQ(ranges.size(), 1u);
  EXPECT_EQ(ranges[0].second, 3 * 2 * sizeof(float));
  arrays.Apply({.op = ClientArrayOp::kDisable, .index = 2}, false);
  EXPECT_FALSE(arrays.AnyInClientMemory());
  arrays.Apply({.op = ClientArrayOp::kPointer, .index = 40, .size = 2, .type = GL_FLOAT, .pointer = kVertices}, false);
  arrays.Apply({.op = ClientArrayOp::kEnable, .index = 40}, false);
  EXPECT_FALSE(arrays.AnyInClientMemory()) << "an index past the slots is ignored";
  // A GLES 1 normal array: three components, which its call does not pass.
  arrays.Apply({.op = ClientArrayOp::kGles1Pointer, .array = ClientArrays::kNormalArray, .size = 3, .type = GL_FLOAT,
                .pointer = kVertices},
               false);
  arrays.Apply({.op = ClientArrayOp::kEnableState, .array = ClientArrays::kNormalArray}, false);
  ranges = arrays.Ranges(0, 2, 1);
  ASSERT_EQ(ranges.size(), 1u);
  EXPECT_EQ(ranges[0].second, 2 * 3 * sizeof(float));
  arrays.Apply({.op = ClientArrayOp::kDisableState, .array = ClientArrays::kNormalArray}, false);
  EXPECT_FALSE(arrays.AnyInClientMemory());
  // Texture coordinates go to the client's active unit; a pointer into a bound buffer is no app memory.
  arrays.Apply({.op = ClientArrayOp::kClientTexture, .array = GL_TEXTURE1}, false);
  arrays.Apply({.op = ClientArrayOp::kGles1Pointer, .array = ClientArrays::kTexCoordArray, .size = 2,
                .type = GL_FLOAT, .pointer = kVertices},
               true);
  arrays.Apply({.op = ClientArrayOp::kEnableState, .array = ClientArrays::kTexCoordArray}, false);
  EXPECT_FALSE(arrays.AnyInClientMemory());
}

// Indices read from app memory: the reader a tracer or remote client has
// where no element buffer is bound.
class AppMemoryIndices final : public IndexReader {
 public:
  bool Bounds(const void* indices, GLsizei count, GLenum type, uint32_t* lowest, uint32_t* highest) override {
    ++reads;
    return IndexBounds(indices, static_cast<size_t>(count), type, lowest, highest);
  }
  int reads = 0;
};

// Catches: a multi-draw or a base-vertex draw whose vertex span misses the
// vertices of a draw after the first or those its base vertex moves to.
TEST(ClientArrays, VertexSpansOfEveryKindOfDraw) {
  AppMemoryIndices reader;
  int64_t first = 0, end = 0;
  const GLint firsts[3] = {4, 0, 12};
  const GLsizei counts[3] = {4, 2, 3};
  ASSERT_TRUE(VertexSpan({.draws = 3, .firsts = firsts, .counts = counts}, reader, &first, &end));
  EXPECT_EQ(first, 0);
  EXPECT_EQ(end, 15);
  const GLsizei empty[3] = {0, 0, 0};
  EXPECT_FALSE(VertexSpan({.draws = 3, .firsts = firsts, .counts = empty}, reader, &first, &end))
      << "draws of no vertices read none";
  const GLushort low[3] = {5, 1, 2}, high[2] = {9, 7};
  const void* indices[2] = {low, high};
  const GLsizei index_counts[2] = {3, 2};
  const GLint bases[2] = {10, 0};
  ASSERT_TRUE(VertexSpan({.draws = 2, .counts = index_counts, .type = GL_UNSIGNED_SHORT, .indices = indices,
                          .base_vertices = bases},
                         reader, &first, &end));
  EXPECT_EQ(first, 7);  // the second draw's lowest, 7 + 0
  EXPECT_EQ(end, 16);   // the first draw's highest, 5 + 10, and one past it
  EXPECT_EQ(reader.reads, 2);
  const void* unreadable[2] = {nullptr, high};
  EXPECT_FALSE(VertexSpan({.draws = 2, .counts = index_counts, .type = GL_UNSIGNED_SHORT, .indices = unreadable},
                          reader, &first, &end))
      << "indices that cannot be read say nothing";
}

// Catches: a multi-draw's index arrays not all going out, or going out twice where they overlap.
TEST(ClientArrays, IndexArraysOfAMultiDrawMerged) {
  const GLuint indices[8] = {};
  const void* arrays[3] = {indices, indices + 2, indices + 6};
  const GLsizei counts[3] = {4, 1, 2};
  auto spans = IndexArrays({.draws = 3, .counts = counts, .type = GL_UNSIGNED_INT, .indices = arrays});
  ASSERT_EQ(spans.size(), 2u);
  EXPECT_EQ(spans[0].first, reinterpret_cast<const uint8_t*>(indices));
  EXPECT_EQ(spans[0].second, 4 * sizeof(GLuint));
  EXPECT_EQ(spans[1].first, reinterpret_cast<const uint8_t*>(indices + 6));
  EXPECT_EQ(spans[1].second, 2 * sizeof(GLuint));
  EXPECT_TRUE(IndexArrays({.draws = 3, .counts = counts, .type = GL_FLOAT, .indices = arrays}).empty())
      << "no index type, no indices";
}

}  // namespace
}  // namespace strata::capture
