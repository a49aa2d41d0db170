// The generated sizers (api/annotations.txt's rules through the helpers of
// stream/capture_sizes.h) of the extension functions whose sizes depend on
// a path object, a performance counter, an implementation limit or a
// terminated list. Mesa's llvmpipe exposes none of these extensions, so the
// state a rule asks for is answered here by the test, as a driver would,
// and the sizes are those their specifications give.

#include <GLES3/gl32.h>
#include <GLES2/gl2ext.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <initializer_list>
#include <map>
#include <vector>

#include "host/sizers.h"
#include "strata/api/codec.h"
#include "strata/api/functions.h"
#include "strata/api/traits.h"

namespace strata::host {
namespace {

// Answers what a rule asks as a driver with these objects would; counts the questions.
class AnsweringState final : public capture::CaptureState {
 public:
  GLint Integer(GLenum pname, GLint fallback) override {
    ++asked;
    auto it = integers.find(pname);
    return it != integers.end() ? it->second : fallback;
  }
  capture::PixelStoreCaps PixelStore() override { return {}; }
  size_t UniformComponents(GLuint, GLint) override { return 0; }
  size_t UniformBlockActiveUniforms(GLuint, GLuint) override { return 0; }
  GLint PathParameter(GLuint path, GLenum pname) override {
    ++asked;
    auto it = paths.find({path, pname});
    return it != paths.end() ? it->second : 0;
  }
  GLenum PerfMonitorCounterType(GLuint group, GLuint counter) override {
    ++asked;
    auto it = counters.find({group, counter});
    return it != counters.end() ? it->second : 0;
  }

  std::map<GLenum, GLint> integers;
  std::map<std::pair<GLuint, GLenum>, GLint> paths;
  std::map<std::pair<GLuint, GLuint>, GLenum> counters;
  int asked = 0;
};

Word U(uint64_t u) { return Word{.u = u}; }
Word I(int64_t i) { return Word{.i = i}; }
Word P(const void* p) { return Word{.p = const_cast<void*>(p)}; }

// The sizes the function's sizer gives for `args`; fails when it has none.
std::vector<size_t> Sizes(api::Slot slot, std::initializer_list<Word> args, capture::CaptureState& state,
                          bool capacity = false) {
  std::vector<size_t> sizes(args.size(), 0);
  const Sizer sizer = kSizers[slot];
  EXPECT_NE(sizer, nullptr) << api::kFunctions[slot].name << " has no sized pointer";
  if (sizer != nullptr) sizer(std::data(args), capture::CaptureSizes(state, capacity), sizes.data());
  return sizes;
}

// Catches: a path query sized by another parameter than the one its
// function returns (commands by the coordinate count), by the wrong element,
// or asked of another path.
TEST(CaptureRuleSizes, PathQueriesTakeThePathsOwnCounts) {
  AnsweringState state;
  state.paths[{7, GL_PATH_COMMAND_COUNT_NV}] = 5;
  state.paths[{7, GL_PATH_COORD_COUNT_NV}] = 12;
  state.paths[{7, GL_PATH_DASH_ARRAY_COUNT_NV}] = 3;
  const uint8_t out[64] = {};
  EXPECT_EQ(Sizes(api::glGetPathCommandsNV, {U(7), P(out)}, state)[1], 5u);
  EXPECT_EQ(Sizes(api::glGetPathCoordsNV, {U(7), P(out)}, state)[1], 12 * sizeof(GLfloat));
  EXPECT_EQ(Sizes(api::glGetPathDashArrayNV, {U(7), P(out)}, state)[1], 3 * sizeof(GLfloat));
  EXPECT_EQ(Sizes(api::glGetPathCoordsNV, {U(8), P(out)}, state)[1], 0u) << "no such path: nothing written";
  state.paths[{9, GL_PATH_COORD_COUNT_NV}] = -4;
  EXPECT_EQ(Sizes(api::glGetPathCoordsNV, {U(9), P(out)}, state)[1], 0u) << "a negative count is no size";
  // The executor sizes its output buffer (capacity) by the same count.
  EXPECT_EQ(Sizes(api::glGetPathCoordsNV, {U(7), P(out)}, state, true)[1], 12 * sizeof(GLfloat));
}

// Catches: GL_COUNTER_RANGE_AMD sized as one value, or as 32-bit values for a
// 64-bit counter; the room for it smaller than the widest type.
TEST(CaptureRuleSizes, PerfMonitorCounterInfoByPnameAndCounterType) {
  AnsweringState state;
  state.counters[{1, 2}] = GL_UNSIGNED_INT64_AMD;
  state.counters[{1, 3}] = GL_UNSIGNED_INT;
  state.counters[{1, 4}] = GL_FLOAT;
  state.counters[{1, 5}] = GL_PERCENTAGE_AMD;
  uint64_t out[2] = {};
  auto info = [&](GLuint counter, GLenum pname, bool capacity = false) {
    return Sizes(api::glGetPerfMonitorCounterInfoAMD, {U(1), U(counter), U(pname), P(out)}, state, capacity)[3];
  };
  EXPECT_EQ(info(2, GL_COUNTER_TYPE_AMD), sizeof(GLenum));
  EXPECT_EQ(info(2, GL_COUNTER_RANGE_AMD), 2 * sizeof(uint64_t));
  EXPECT_EQ(info(3, GL_COUNTER_RANGE_AMD), 2 * sizeof(GLuint));
  EXPECT_EQ(info(4, GL_COUNTER_RANGE_AMD), 2 * sizeof(GLfloat));
  EXPECT_EQ(info(5, GL_COUNTER_RANGE_AMD), 2 * sizeof(GLfloat));
  EXPECT_EQ(info(9, GL_COUNTER_RANGE_AMD), 0u) << "no such counter: nothing written";
  EXPECT_EQ(info(2, GL_RGBA), 0u) << "another pname: GL_INVALID_ENUM";
  const int asked = state.asked;
  EXPECT_EQ(info(3, GL_COUNTER_RANGE_AMD, true), 2 * sizeof(uint64_t)) << "room for the widest type";
  EXPECT_EQ(state.asked, asked) << "the room needs no question";
}

// Catches: NV_framebuffer_mixed_samples' bufsize taken as a count of floats
// (four times the bytes), or more captured than the table holds.
TEST(CaptureRuleSizes, CoverageModulationTableBufSizeIsInBytes) {
  AnsweringState state;
  state.integers[0x9333 /* GL_COVERAGE_MODULATION_TABLE_SIZE_NV */] = 4;
  float out[16] = {};
  auto table = [&](GLsizei buf_size, bool capacity = false) {
    return Sizes(api::glGetCoverageModulationTableNV, {I(buf_size), P(out)}, state, capacity)[1];
  };
  EXPECT_EQ(table(8), 8u) << "two floats' room";
  EXPECT_EQ(table(10), 8u) << "a part of a float is not written";
  EXPECT_EQ(table(64), 4 * sizeof(GLfloat)) << "the table holds four";
  EXPECT_EQ(table(3), 0u);
  EXPECT_EQ(table(-4), 0u);
  EXPECT_EQ(table(64, true), 64u) << "the room is the whole buffer";
}

// Catches: NV_shading_rate_image's locations sized as one (x, y, s) per
// sample of a pixel instead of per sample of the coarse fragment, or read
// where the GL refuses the call and reads nothing.
TEST(CaptureRuleSizes, ShadingRateSampleOrderTakesATriplePerFragmentSample) {
  AnsweringState state;
  const GLint locations[3 * 128] = {};
  auto order = [&](GLenum rate, GLuint samples) {
    return Sizes(api::glShadingRateSampleOrderCustomNV, {U(rate), U(samples), P(locations)}, state)[2];
  };
  constexpr GLenum k1x2 = 0x9566, k2x2 = 0x9568, k4x2 = 0x956A, k4x4 = 0x956B, kPerPixel = 0x9565;
  EXPECT_EQ(order(k2x2, 4), 3 * 2 * 2 * 4 * sizeof(GLint));
  EXPECT_EQ(order(k1x2, 1), 3 * 1 * 2 * 1 * sizeof(GLint));
  EXPECT_EQ(order(k4x2, 2), 3 * 4 * 2 * 2 * sizeof(GLint));
  EXPECT_EQ(state.asked, 0) << "up to 16 samples a fragment needs no question";
  EXPECT_EQ(order(kPerPixel, 4), 0u) << "a one-pixel rate: GL_INVALID_OPERATION";
  EXPECT_EQ(order(k2x2, 3), 0u) << "3 samples: GL_INVALID_VALUE";
  EXPECT_EQ(order(0x1234, 1), 0u) << "no rate: GL_INVALID_ENUM";
  // 4x4 pixels of 8 samples: 128, past the specification's first 16.
  EXPECT_EQ(order(k4x4, 8), 0u) << "past GL_MAX_COARSE_FRAGMENT_SAMPLES_NV: refused, nothing read";
  state.integers[0x955F /* GL_MAX_COARSE_FRAGMENT_SAMPLES_NV */] = 128;
  EXPECT_EQ(order(k4x4, 8), 3 * 128 * sizeof(GLint));
}

// Catches: the texture-storage attribute list sized without its terminator,
// or by an EGL list helper (EGL_NONE, not GL_NONE, ends those).
TEST(CaptureRuleSizes, TexStorageAttribsReadTheirListToItsGlNone) {
  AnsweringState state;
  const GLint list[] = {0x96C0 /* GL_SURFACE_COMPRESSION_EXT */, 0x96C4, GL_NONE, 1, 2};
  EXPECT_EQ(Sizes(api::glTexStorageAttribs2DEXT, {U(GL_TEXTURE_2D), I(1), U(GL_RGBA8), I(4), I(4), P(list)}, state)[5],
            3 * sizeof(GLint));
  EXPECT_EQ(
      Sizes(api::glTexStorageAttribs3DEXT, {U(GL_TEXTURE_3D), I(1), U(GL_RGBA8), I(4), I(4), I(4), P(list)}, state)[6],
      3 * sizeof(GLint));
  EXPECT_EQ(Sizes(api::glTexStorageAttribs2DEXT, {U(GL_TEXTURE_2D), I(1), U(GL_RGBA8), I(4), I(4), P(nullptr)}, state)[5],
            0u);
}

// Catches: OES_matrix_palette's arrays sized at the pointer call (they are
// read at draw time, as client arrays), or given no rule at all.
TEST(CaptureRuleSizes, MatrixPaletteArraysAreClientArrays) {
  for (api::Slot slot : {api::glMatrixIndexPointerOES, api::glWeightPointerOES}) {
    EXPECT_EQ(api::kTraits[slot].client_array, api::ClientArrayOp::kGles1Pointer) << api::kFunctions[slot].name;
    EXPECT_TRUE(api::kCodec[slot].covered) << api::kFunctions[slot].name;
  }
}

}  // namespace
}  // namespace strata::host
