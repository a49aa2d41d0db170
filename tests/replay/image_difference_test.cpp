// The figures `strata replay --verify` and `strata diff --images` judge a
// frame by (common/image_difference.h), on images built here with a known
// difference: which pixels count, the largest channel difference, the share
// past a threshold, the PSNR, and the tolerance's verdict on them.
// Catches: a threshold taken as "at least" instead of "more than", alpha left
// out, PSNR from the wrong mean (per pixel instead of per channel) or not
// infinite for equal images, pixels only one image has not counted, a
// tolerance that ignores one of its tests, values the command lines misread.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "common/image_difference.h"

namespace {

using strata::ImageDifference;
using strata::ImageTolerance;

// A 10x10 grey image, and a copy with five channels changed: one by 40, four by 10.
struct KnownPair {
  std::vector<uint8_t> a = std::vector<uint8_t>(100 * 4, 128), b = a;
  KnownPair() {
    b[7 * 4 + 0] += 40;  // pixel 7, red
    b[20 * 4 + 1] -= 10;  // pixel 20, green
    b[21 * 4 + 2] += 10;  // pixel 21, blue
    b[50 * 4 + 3] -= 10;  // pixel 50, alpha
    b[99 * 4 + 0] += 10;  // pixel 99, red
  }
};

// Squared errors 40^2 + 4 * 10^2 = 2000 over 400 channels: a mean of 5.
const double kKnownPsnr = 10 * std::log10(255.0 * 255.0 / 5.0);  // 41.14 dB

TEST(ImageDifference, EqualImages) {
  KnownPair pair;
  ImageDifference d;
  d.Add(pair.a.data(), pair.a.data(), 100, 0);
  EXPECT_TRUE(d.equal());
  EXPECT_EQ(d.pixels, 100u);
  EXPECT_EQ(d.differing, 0u);
  EXPECT_EQ(d.largest, 0);
  EXPECT_TRUE(std::isinf(d.Psnr()));
  EXPECT_TRUE(ImageTolerance{}.Accepts(d));
}

TEST(ImageDifference, KnownDifferenceGivesKnownFigures) {
  KnownPair pair;
  ImageDifference d;
  std::vector<uint8_t> marks(100, 7);
  d.Add(pair.a.data(), pair.b.data(), 100, 0, marks.data());
  EXPECT_FALSE(d.equal());
  EXPECT_EQ(d.pixels, 100u);
  EXPECT_EQ(d.differing, 5u) << "the alpha channel counts too";
  EXPECT_EQ(d.largest, 40);
  EXPECT_EQ(d.squared_error, 2000u);
  EXPECT_EQ(d.first_differing, 7u);
  EXPECT_DOUBLE_EQ(d.DifferingShare(), 0.05);
  EXPECT_NEAR(d.Psnr(), kKnownPsnr, 1e-9);
  EXPECT_NEAR(d.Psnr(), 41.14, 0.005);
  for (int i = 0; i < 100; ++i) {
    const bool differs = i == 7 || i == 20 || i == 21 || i == 50 || i == 99;
    EXPECT_EQ(marks[i], differs ? 1 : 0) << "pixel " << i;
  }
  EXPECT_EQ(strata::DescribeDifference(d, 0),
            "5 of 100 pixels differ (5 %), largest channel difference 40, PSNR 41.14 dB");
}

// A channel off by exactly the threshold is within it; the PSNR does not depend on the threshold.
TEST(ImageDifference, ThresholdCountsOnlyWhatIsPastIt) {
  KnownPair pair;
  ImageDifference at_ten, at_nine, at_forty;
  at_ten.Add(pair.a.data(), pair.b.data(), 100, 10);
  at_nine.Add(pair.a.data(), pair.b.data(), 100, 9);
  at_forty.Add(pair.a.data(), pair.b.data(), 100, 40);
  EXPECT_EQ(at_ten.differing, 1u);
  EXPECT_EQ(at_ten.first_differing, 7u);
  EXPECT_EQ(at_nine.differing, 5u);
  EXPECT_EQ(at_forty.differing, 0u);
  EXPECT_FALSE(at_forty.equal()) << "within the threshold is not equal";
  EXPECT_EQ(at_forty.largest, 40);
  EXPECT_NEAR(at_ten.Psnr(), kKnownPsnr, 1e-9);
  EXPECT_NEAR(at_forty.Psnr(), kKnownPsnr, 1e-9);
  EXPECT_EQ(strata::DescribeDifference(at_ten, 10),
            "1 of 100 pixels differ by more than 10 (1 %), largest channel difference 40, PSNR 41.14 dB");
}

// Added in runs (rows of a wider image): the same figures as in one go.
TEST(ImageDifference, RunsAddUp) {
  KnownPair pair;
  ImageDifference whole, rows;
  whole.Add(pair.a.data(), pair.b.data(), 100, 0);
  for (int row = 0; row < 10; ++row) rows.Add(&pair.a[row * 40], &pair.b[row * 40], 10, 0);
  EXPECT_EQ(rows.pixels, whole.pixels);
  EXPECT_EQ(rows.differing, whole.differing);
  EXPECT_EQ(rows.squared_error, whole.squared_error);
  EXPECT_EQ(rows.first_differing, whole.first_differing);
}

// Pixels only one image has (images of different sizes) are off by 255 in every channel.
TEST(ImageDifference, UnmatchedPixelsAreWhollyOff) {
  KnownPair pair;
  ImageDifference d;
  d.Add(pair.a.data(), pair.a.data(), 100, 0);
  d.AddUnmatched(25);
  EXPECT_EQ(d.pixels, 125u);
  EXPECT_EQ(d.differing, 25u);
  EXPECT_EQ(d.largest, 255);
  EXPECT_EQ(d.first_differing, 100u);
  EXPECT_NEAR(d.Psnr(), 10 * std::log10(125.0 / 25.0), 1e-9);  // a mean of 255^2 / 5 per channel
}

TEST(ImageTolerance, EachTestAskedForMustPass) {
  KnownPair pair;
  ImageDifference d;  // 1 pixel of 100 past 10, PSNR 41.14 dB
  d.Add(pair.a.data(), pair.b.data(), 100, 10);
  EXPECT_FALSE(ImageTolerance{}.Accepts(d)) << "exact by default";
  EXPECT_TRUE((ImageTolerance{10, 0.01, 0}).Accepts(d));
  EXPECT_FALSE((ImageTolerance{10, 0.009, 0}).Accepts(d)) << "share past the threshold";
  EXPECT_TRUE((ImageTolerance{10, 0.01, 41}).Accepts(d));
  EXPECT_FALSE((ImageTolerance{10, 0.01, 41.2}).Accepts(d)) << "PSNR";
  EXPECT_TRUE((ImageTolerance{0, 1, 40}).Accepts(d)) << "PSNR alone (every pixel may differ)";
  EXPECT_EQ((ImageTolerance{16, 0.01, 40}).Describe(),
            "a channel may be off by 16, 1 % of pixels by more, PSNR at least 40 dB");
  EXPECT_EQ((ImageTolerance{0, 1, 40}).Describe(), "PSNR at least 40 dB");
  EXPECT_EQ((ImageTolerance{0, 0.005, 0}).Describe(), "0.5 % of pixels may differ");
}

// The furthest off, figure by figure, across frames; equal frames are not noted.
TEST(WorstDifference, KeepsEachFiguresWorstFrame) {
  KnownPair pair;
  ImageDifference small, unmatched, equal;
  small.Add(pair.a.data(), pair.b.data(), 100, 0);
  unmatched.Add(pair.a.data(), pair.a.data(), 99, 0);
  unmatched.AddUnmatched(1);
  equal.Add(pair.a.data(), pair.a.data(), 100, 0);
  strata::WorstDifference worst;
  worst.Note(3, small);
  worst.Note(4, equal);
  worst.Note(5, unmatched);
  EXPECT_EQ(worst.frames, 2u);
  EXPECT_EQ(worst.largest, 255);
  EXPECT_EQ(worst.largest_frame, 5u);
  EXPECT_DOUBLE_EQ(worst.differing_share, 0.05);
  EXPECT_EQ(worst.differing_frame, 3u);
  EXPECT_EQ(worst.psnr_frame, 5u);  // 20 dB against 41
}

TEST(ImageTolerance, CommandLineValues) {
  int threshold = -1;
  double value = -1;
  EXPECT_TRUE(strata::ParseChannelThreshold("255", &threshold));
  EXPECT_EQ(threshold, 255);
  for (const char* bad : {"256", "-1", "", "1.5", "ten"}) EXPECT_FALSE(strata::ParseChannelThreshold(bad, &threshold)) << bad;
  EXPECT_TRUE(strata::ParsePercentage("0.5", &value));
  EXPECT_DOUBLE_EQ(value, 0.005);
  EXPECT_TRUE(strata::ParsePercentage("1%", &value));
  EXPECT_DOUBLE_EQ(value, 0.01);
  for (const char* bad : {"101", "-1", "", "%", "1%%", "one", "nan", "inf"}) {
    EXPECT_FALSE(strata::ParsePercentage(bad, &value)) << bad;
  }
  EXPECT_TRUE(strata::ParseDecibels("30dB", &value));
  EXPECT_DOUBLE_EQ(value, 30);
  EXPECT_TRUE(strata::ParseDecibels("42.5", &value));
  EXPECT_DOUBLE_EQ(value, 42.5);
  for (const char* bad : {"0", "-3", "", "dB", "30 dB", "loud"}) EXPECT_FALSE(strata::ParseDecibels(bad, &value)) << bad;
}

}  // namespace
