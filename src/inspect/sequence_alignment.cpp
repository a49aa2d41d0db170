#include "inspect/sequence_alignment.h"

#include <algorithm>

namespace strata::inspect {
namespace {

class Runs {
 public:
  void Add(AlignedRun::Kind kind, size_t a, size_t b, size_t length) {
    if (length == 0) return;
    if (!runs_.empty() && runs_.back().kind == kind) {
      runs_.back().length += length;
      return;
    }
    runs_.push_back({kind, a, b, length});
  }
  std::vector<AlignedRun> Take() { return std::move(runs_); }

 private:
  std::vector<AlignedRun> runs_;
};

// One step of Myers' greedy algorithm from the start of `a` and `b` (whose
// first keys differ): the shortest edit script to their ends if it has at
// most `max_edits` edits, else the script to the point furthest along after
// `max_edits` edits. Adds its runs (offset by x0, y0) and says how far it got.
class MyersStep {
 public:
  MyersStep(std::span<const uint64_t> a, std::span<const uint64_t> b, size_t max_edits)
      : a_(a), b_(b), n_(static_cast<int64_t>(a.size())), m_(static_cast<int64_t>(b.size())),
        max_d_(static_cast<int64_t>(std::max<size_t>(max_edits, 1))) {}

  void Run(size_t x0, size_t y0, Runs* runs, size_t* dx, size_t* dy) {
    const int64_t offset = max_d_ + 1;
    std::vector<int64_t> v(static_cast<size_t>(2 * max_d_ + 3), -1);
    for (int64_t d = 0; d <= max_d_; ++d) {
      for (int64_t k = -d; k <= d; k += 2) {
        int64_t x = 0;
        if (d > 0) {
          const Move move = Choose(v.data() + offset, d, k);
          if (move == Move::kNone) {
            v[offset + k] = -1;
            continue;
          }
          x = move == Move::kDown ? v[offset + k + 1] : v[offset + k - 1] + 1;
        }
        int64_t y = x - k;
        while (x < n_ && y < m_ && a_[x] == b_[y]) ++x, ++y;
        v[offset + k] = x;
        if (x == n_ && y == m_) {
          Keep(v, offset, d);
          Trace(d, k, x, x0, y0, runs);
          *dx = static_cast<size_t>(x), *dy = static_cast<size_t>(y);
          return;
        }
      }
      Keep(v, offset, d);
    }
    // Too many edits: stop at the furthest point reached and go on from there.
    int64_t best_k = 0, best_sum = -1;
    for (int64_t k = -max_d_; k <= max_d_; k += 2) {
      const int64_t x = v[offset + k];
      if (x >= 0 && 2 * x - k > best_sum) best_sum = 2 * x - k, best_k = k;
    }
    const int64_t x = v[offset + best_k];
    Trace(max_d_, best_k, x, x0, y0, runs);
    *dx = static_cast<size_t>(x), *dy = static_cast<size_t>(x - best_k);
  }

 private:
  enum class Move { kNone, kDown, kRight };  // down: one key of b only; right: one key of a only

  // How diagonal k is reached at edit count d from the furthest points at d - 1
  // (`prev` indexed by diagonal): the move that gets further along.
  Move Choose(const int64_t* prev, int64_t d, int64_t k) const {
    const int64_t down = k + 1 <= d - 1 ? prev[k + 1] : -1;
    const int64_t right = k - 1 >= -(d - 1) ? prev[k - 1] : -1;
    const bool down_ok = down >= 0 && down - (k + 1) + 1 <= m_;
    const bool right_ok = right >= 0 && right + 1 <= n_;
    if (!down_ok && !right_ok) return Move::kNone;
    if (down_ok && (!right_ok || down >= right + 1)) return Move::kDown;
    return Move::kRight;
  }

  // The furthest points after d edits, for tracing the path back.
  void Keep(const std::vector<int64_t>& v, int64_t offset, int64_t d) {
    history_.insert(history_.end(), v.begin() + (offset - d), v.begin() + (offset + d + 1));
  }
  // History of d, indexed by diagonal (d * d entries precede it).
  const int64_t* History(int64_t d) const { return history_.data() + d * d + d; }

  void Trace(int64_t d, int64_t k, int64_t x, size_t x0, size_t y0, Runs* runs) const {
    std::vector<AlignedRun> reversed;
    auto add = [&](AlignedRun::Kind kind, int64_t xa, int64_t yb, int64_t length) {
      if (length > 0) reversed.push_back({kind, x0 + static_cast<size_t>(xa), y0 + static_cast<size_t>(yb), static_cast<size_t>(length)});
    };
    for (; d > 0; --d) {
      const int64_t* prev = History(d - 1);
      if (Choose(prev, d, k) == Move::kDown) {
        const int64_t from = prev[k + 1];
        add(AlignedRun::Kind::kBoth, from, from - k, x - from);
        add(AlignedRun::Kind::kOnlyB, from, from - (k + 1), 1);
        x = from, k = k + 1;
      } else {
        const int64_t from = prev[k - 1];
        add(AlignedRun::Kind::kBoth, from + 1, from + 1 - k, x - from - 1);
        add(AlignedRun::Kind::kOnlyA, from, from - (k - 1), 1);
        x = from, k = k - 1;
      }
    }
    add(AlignedRun::Kind::kBoth, 0, 0, x);
    for (auto it = reversed.rbegin(); it != reversed.rend(); ++it) runs->Add(it->kind, it->a, it->b, it->length);
  }

  std::span<const uint64_t> a_, b_;
  int64_t n_, m_, max_d_;
  std::vector<int64_t> history_;
};

}  // namespace

std::vector<AlignedRun> AlignSequences(std::span<const uint64_t> a, std::span<const uint64_t> b, size_t max_edits) {
  Runs runs;
  size_t x = 0, y = 0;
  for (;;) {
    size_t shared = 0;
    while (x + shared < a.size() && y + shared < b.size() && a[x + shared] == b[y + shared]) ++shared;
    runs.Add(AlignedRun::Kind::kBoth, x, y, shared);
    x += shared, y += shared;
    if (x == a.size() || y == b.size()) {
      runs.Add(AlignedRun::Kind::kOnlyA, x, y, a.size() - x);
      runs.Add(AlignedRun::Kind::kOnlyB, x, y, b.size() - y);
      break;
    }
    size_t dx = 0, dy = 0;
    MyersStep(a.subspan(x), b.subspan(y), max_edits).Run(x, y, &runs, &dx, &dy);
    x += dx, y += dy;
  }
  return runs.Take();
}

}  // namespace strata::inspect
