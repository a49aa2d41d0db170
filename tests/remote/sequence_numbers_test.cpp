// The client's call numbers (remote/sequence_numbers.h): a lone thread's
// without a locked add, and what a second thread joining does to them.
#include "remote/sequence_numbers.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <set>
#include <thread>
#include <vector>

namespace {

using strata::remote::SequenceNumbers;

// The first thread numbers alone from 0, one after another.
// Catches: a lone thread that skips or repeats numbers.
TEST(SequenceNumbers, ALoneThreadNumbersInOrder) {
  SequenceNumbers numbers;
  SequenceNumbers::Taker taker = numbers.NewTaker();
  for (uint64_t expected = 0; expected < 1000; ++expected) ASSERT_EQ(numbers.Next(taker), expected);
  EXPECT_TRUE(numbers.numbering_alone()) << "membarrier's private expedited command is there on Linux 4.14 and later";
}

// A second thread's numbers come after every number the first took before
// it joined, and the first thread's later numbers after the second's.
// Catches: a shared count that does not start past the lone thread's
// numbers (the second thread would number 0 again), or a lone thread that
// goes on alone after another joined.
TEST(SequenceNumbers, ASecondThreadNumbersAfterTheFirst) {
  SequenceNumbers numbers;
  SequenceNumbers::Taker first = numbers.NewTaker();
  uint64_t last_alone = 0;
  for (int i = 0; i < 500; ++i) last_alone = numbers.Next(first);
  uint64_t second_number = 0;
  std::thread([&] {
    SequenceNumbers::Taker second = numbers.NewTaker();
    second_number = numbers.Next(second);
  }).join();
  EXPECT_GT(second_number, last_alone);
  EXPECT_FALSE(numbers.numbering_alone());
  EXPECT_GT(numbers.Next(first), second_number);
}

// Threads join while the first numbers as fast as it can: no number is
// taken twice, and each thread's numbers rise.
// Catches: a joining thread whose barrier misses the lone thread's last
// numbers (a number taken twice).
TEST(SequenceNumbers, ThreadsJoiningWhileTheFirstNumbersTakeNoNumberTwice) {
  for (int round = 0; round < 20; ++round) {
    SequenceNumbers numbers;
    std::atomic<bool> started{false}, stop{false};
    std::vector<uint64_t> first_numbers;
    first_numbers.reserve(1 << 20);
    std::thread first([&] {
      SequenceNumbers::Taker taker = numbers.NewTaker();
      started = true;
      while (!stop.load(std::memory_order_relaxed) && first_numbers.size() < (1u << 20)) {
        first_numbers.push_back(numbers.Next(taker));
      }
    });
    while (!started) std::this_thread::yield();
    constexpr int kJoining = 3;
    std::vector<std::vector<uint64_t>> joined(kJoining);
    std::vector<std::thread> threads;
    for (int t = 0; t < kJoining; ++t) {
      threads.emplace_back([&, t] {
        SequenceNumbers::Taker taker = numbers.NewTaker();
        for (int i = 0; i < 2000; ++i) joined[t].push_back(numbers.Next(taker));
      });
    }
    for (std::thread& t : threads) t.join();
    stop = true;
    first.join();
    std::set<uint64_t> seen;
    for (const std::vector<uint64_t>* list : {&first_numbers, &joined[0], &joined[1], &joined[2]}) {
      ASSERT_TRUE(std::is_sorted(list->begin(), list->end())) << "round " << round;
      for (uint64_t n : *list) ASSERT_TRUE(seen.insert(n).second) << "number " << n << " taken twice, round " << round;
    }
  }
}

}  // namespace
