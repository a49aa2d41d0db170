// The alignment against the textbook answer: runs that cover both sequences,
// shared runs that really are equal, and as few edits as an O(NM) longest
// common subsequence allows, on random sequences of a few symbols.
#include "inspect/sequence_alignment.h"

#include <gtest/gtest.h>

#include <random>

namespace {

using strata::inspect::AlignedRun;
using strata::inspect::AlignSequences;

size_t LongestCommonSubsequence(const std::vector<uint64_t>& a, const std::vector<uint64_t>& b) {
  std::vector<std::vector<size_t>> t(a.size() + 1, std::vector<size_t>(b.size() + 1, 0));
  for (size_t i = 1; i <= a.size(); ++i) {
    for (size_t j = 1; j <= b.size(); ++j) {
      t[i][j] = a[i - 1] == b[j - 1] ? t[i - 1][j - 1] + 1 : std::max(t[i - 1][j], t[i][j - 1]);
    }
  }
  return t[a.size()][b.size()];
}

// Checks that the runs are a valid alignment and returns how many keys they share.
size_t CheckRuns(const std::vector<AlignedRun>& runs, const std::vector<uint64_t>& a, const std::vector<uint64_t>& b) {
  size_t x = 0, y = 0, shared = 0;
  for (size_t r = 0; r < runs.size(); ++r) {
    const AlignedRun& run = runs[r];
    EXPECT_GT(run.length, 0u);
    EXPECT_EQ(run.a, x);
    EXPECT_EQ(run.b, y);
    if (r > 0) {
      EXPECT_NE(run.kind, runs[r - 1].kind) << "adjacent runs of one kind";
    }
    switch (run.kind) {
      case AlignedRun::Kind::kBoth:
        for (size_t i = 0; i < run.length; ++i) EXPECT_EQ(a[x + i], b[y + i]);
        x += run.length, y += run.length, shared += run.length;
        break;
      case AlignedRun::Kind::kOnlyA: x += run.length; break;
      case AlignedRun::Kind::kOnlyB: y += run.length; break;
    }
  }
  EXPECT_EQ(x, a.size());
  EXPECT_EQ(y, b.size());
  return shared;
}

// Catches: a backtrack that takes the wrong move, an off-by-one at the ends.
TEST(SequenceAlignment, IsMinimalOnRandomSequences) {
  std::mt19937_64 random(7);
  for (int round = 0; round < 300; ++round) {
    std::vector<uint64_t> a(random() % 40), b(random() % 40);
    const uint64_t symbols = 1 + random() % 4;
    for (auto& v : a) v = random() % symbols;
    for (auto& v : b) v = random() % symbols;
    const size_t shared = CheckRuns(AlignSequences(a, b), a, b);
    EXPECT_EQ(shared, LongestCommonSubsequence(a, b)) << "round " << round;
  }
}

// Catches: the bound cutting in where the differences are few.
TEST(SequenceAlignment, FindsOneChangeInALongSequence) {
  std::vector<uint64_t> a(100000);
  for (size_t i = 0; i < a.size(); ++i) a[i] = i % 97;
  std::vector<uint64_t> b = a;
  b[50000] = 1000;                       // changed
  b.insert(b.begin() + 70000, 2000);     // added
  b.erase(b.begin() + 90000);            // removed
  const auto runs = AlignSequences(a, b);
  EXPECT_EQ(CheckRuns(runs, a, b), a.size() - 2);
}

// Catches: a restart past the bound that loses or repeats keys, or never ends.
TEST(SequenceAlignment, StaysValidPastTheEditBound) {
  // Unrelated sequences: far more edits than the bound allows; still a valid alignment.
  std::mt19937_64 random(11);
  std::vector<uint64_t> a(20000), b(20000);
  for (auto& v : a) v = random() % 50;
  for (auto& v : b) v = random() % 50;
  const size_t shared = CheckRuns(AlignSequences(a, b, 64), a, b);
  EXPECT_GT(shared, 0u);
  EXPECT_LE(shared, a.size());
  // Identical and empty inputs.
  EXPECT_EQ(CheckRuns(AlignSequences(a, a, 64), a, a), a.size());
  EXPECT_TRUE(AlignSequences({}, {}).empty());
  EXPECT_EQ(CheckRuns(AlignSequences(a, {}), a, {}), 0u);
}

}  // namespace
