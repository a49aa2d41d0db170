// The report's building blocks on their own: PNG encoding (read back with
// libpng), image flipping and downscaling, base64, UTF-8 cleaning.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <string>
#include <vector>

#include "support/png_image.h"
#include "support/scratch.h"
#include "view/base64.h"
#include "view/image_scaling.h"
#include "view/png_encoder.h"
#include "view/report_model.h"

namespace {

using strata::test::ScratchPath;

using strata::view::FrameImage;

// Decodes `png` with libpng through the test support.
strata::test::Image Decode(const std::vector<uint8_t>& png) {
  const std::string path = ScratchPath("view-unit.png");
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(png.data()), png.size());
  strata::test::Image image;
  std::string error;
  EXPECT_TRUE(strata::test::ReadPng(path, &image, &error)) << error;
  unlink(path.c_str());
  return image;
}

std::vector<uint8_t> Pattern(uint32_t width, uint32_t height, bool opaque) {
  std::vector<uint8_t> rgba(width * height * 4);
  for (uint32_t y = 0; y < height; ++y) {
    for (uint32_t x = 0; x < width; ++x) {
      uint8_t* p = &rgba[(y * width + x) * 4];
      p[0] = static_cast<uint8_t>(x * 7 + y);
      p[1] = static_cast<uint8_t>(y * 13);
      p[2] = static_cast<uint8_t>((x ^ y) * 3);
      p[3] = opaque ? 255 : static_cast<uint8_t>(x * 11 + y * 5);
    }
  }
  return rgba;
}

TEST(PngEncoder, OpaqueAndTranslucentImagesDecodeToTheSamePixels) {
  for (bool opaque : {true, false}) {
    const std::vector<uint8_t> pixels = Pattern(37, 23, opaque);
    std::vector<uint8_t> png = strata::view::EncodePng(pixels, 37, 23);
    ASSERT_FALSE(png.empty());
    // Colour type at byte 25 of the file: 2 = RGB (opaque), 6 = RGBA.
    EXPECT_EQ(png[25], opaque ? 2 : 6);
    strata::test::Image image = Decode(png);
    EXPECT_EQ(image.width, 37);
    EXPECT_EQ(image.height, 23);
    EXPECT_EQ(image.rgba, pixels) << (opaque ? "opaque" : "translucent");
  }
}

TEST(PngEncoder, RefusesPixelsThatDoNotMatchTheSize) {
  EXPECT_TRUE(strata::view::EncodePng(std::vector<uint8_t>(15), 2, 2).empty());
  EXPECT_TRUE(strata::view::EncodePng({}, 0, 0).empty());
}

TEST(ImageScaling, FlipRowsReversesRowOrder) {
  // Two rows of one pixel: bottom first as GL reads, top first after.
  const std::vector<uint8_t> bottom_first = {1, 2, 3, 4, 5, 6, 7, 8};
  EXPECT_EQ(strata::view::FlipRows(bottom_first, 1, 2), (std::vector<uint8_t>{5, 6, 7, 8, 1, 2, 3, 4}));
}

TEST(ImageScaling, DownscaleAveragesBoxesAndKeepsTheAspectRatio) {
  FrameImage image;
  image.frame = 9;
  image.width = 4;
  image.height = 2;
  // Left half: pixels 0 and 100 in red; right half all 200.
  image.rgba = {0, 0, 0, 255, 100, 0, 0, 255, 200, 0, 0, 255, 200, 0, 0, 255,
                100, 0, 0, 255, 0, 0, 0, 255, 200, 0, 0, 255, 200, 0, 0, 255};
  FrameImage small;
  ASSERT_TRUE(strata::view::DownscaleToFit(image, 2, &small));
  EXPECT_EQ(small.frame, 9u);
  EXPECT_EQ(small.width, 2u);
  EXPECT_EQ(small.height, 1u);
  EXPECT_EQ(small.rgba, (std::vector<uint8_t>{50, 0, 0, 255, 200, 0, 0, 255}));

  FrameImage same;
  ASSERT_TRUE(strata::view::DownscaleToFit(image, 4, &same));
  EXPECT_EQ(same.rgba, image.rgba);

  FrameImage tall;
  tall.width = 10;
  tall.height = 1000;
  tall.rgba.assign(10 * 1000 * 4, 9);
  ASSERT_TRUE(strata::view::DownscaleToFit(tall, 100, &small));
  EXPECT_EQ(small.height, 100u);
  EXPECT_EQ(small.width, 1u);

  FrameImage broken;
  broken.width = 3;
  broken.height = 3;
  broken.rgba.resize(5);
  EXPECT_FALSE(strata::view::DownscaleToFit(broken, 2, &small));
}

TEST(Base64, MatchesTheRfcExamples) {
  auto encode = [](std::string text) {
    return strata::view::Base64Encode({reinterpret_cast<const uint8_t*>(text.data()), text.size()});
  };
  EXPECT_EQ(encode(""), "");
  EXPECT_EQ(encode("f"), "Zg==");
  EXPECT_EQ(encode("fo"), "Zm8=");
  EXPECT_EQ(encode("foo"), "Zm9v");
  EXPECT_EQ(encode("foobar"), "Zm9vYmFy");
  EXPECT_EQ(encode("\xff\xfe"), "//4=");
}

TEST(ValidUtf8, KeepsGoodTextAndReplacesEveryBadByte) {
  using strata::view::ValidUtf8;
  EXPECT_EQ(ValidUtf8("plain"), "plain");
  EXPECT_EQ(ValidUtf8("\xC3\xA9t\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80"), "\xC3\xA9t\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80");
  EXPECT_EQ(ValidUtf8("a\xFF" "b"), "a\xEF\xBF\xBD" "b");
  EXPECT_EQ(ValidUtf8("\xC3"), "\xEF\xBF\xBD");               // cut short
  EXPECT_EQ(ValidUtf8("\xC0\xAF"), "\xEF\xBF\xBD\xEF\xBF\xBD");  // overlong '/'
  EXPECT_EQ(ValidUtf8("\xED\xA0\x80"), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // a UTF-16 surrogate
}

}  // namespace
