#include "seeds/tonga_server.h"

#include <algorithm>
#include <limits>

namespace mushroom::tonga {

IsleTracker::IsleTracker(const Geometry& g, const Board& b) : g_(g) {
  label_.fill(-1);
  empty_ = b.empty(g);
  for (Color c : {kBlack, kWhite}) {
    Bits seen;
    b.stones[c].for_each([&](int start) {
      if (seen.test(start)) return;
      Isle isle;
      isle.color = c;
      std::vector<int> stack{start};
      seen.set(start);
      while (!stack.empty()) {
        const int x = stack.back();
        stack.pop_back();
        isle.cells.set(x);
        ++isle.area;
        label_[x] = int16_t(isles_.size());
        isle.perimeter = isle.perimeter | (g.neighbours(x) & empty_);
        (g.neighbours(x) & b.stones[c] & ~seen).for_each([&](int y) {
          seen.set(y);
          stack.push_back(y);
        });
      }
      weighted_[c] += term(isle);
      isles_.push_back(isle);
    });
  }
}

int IsleTracker::adjacent_isles(int cell, int* out) const {
  int n = 0;
  (g_.neighbours(cell) & ~empty_).for_each([&](int y) {
    const int id = label_[y];
    if (std::find(out, out + n, id) == out + n) out[n++] = id;
  });
  return n;
}

void IsleTracker::place(int cell, Color c) {
  Change ch;
  ch.cell = cell;
  ch.weighted[0] = weighted_[0];
  ch.weighted[1] = weighted_[1];
  int adj[4];
  const int n = adjacent_isles(cell, adj);
  empty_.reset(cell);
  Isle fresh;
  fresh.color = c;
  fresh.area = 1;
  fresh.cells.set(cell);
  fresh.perimeter = g_.neighbours(cell) & empty_;
  for (int k = 0; k < n; ++k) {
    Isle& isle = isles_[adj[k]];
    weighted_[isle.color] -= term(isle);
    if (isle.color == c) {
      fresh.area += isle.area;
      fresh.cells = fresh.cells | isle.cells;
      fresh.perimeter = fresh.perimeter | isle.perimeter;
      ch.merged.push_back(adj[k]);
    } else {
      ch.perimeters.emplace_back(adj[k], isle.perimeter);
      isle.perimeter.reset(cell);
      weighted_[isle.color] += term(isle);
    }
  }
  fresh.perimeter.reset(cell);
  weighted_[c] += term(fresh);
  ch.new_isle = int(isles_.size());
  fresh.cells.for_each([&](int x) { label_[x] = int16_t(ch.new_isle); });
  isles_.push_back(fresh);
  log_.push_back(std::move(ch));
}

void IsleTracker::undo() {
  Change& ch = log_.back();
  for (int id : ch.merged) isles_[id].cells.for_each([&](int x) { label_[x] = int16_t(id); });
  for (auto& [id, perimeter] : ch.perimeters) isles_[id].perimeter = perimeter;
  label_[ch.cell] = -1;
  empty_.set(ch.cell);
  isles_.pop_back();
  weighted_[0] = ch.weighted[0];
  weighted_[1] = ch.weighted[1];
  log_.pop_back();
}

int64_t IsleTracker::gain_if_placed(int cell, Color c) const {
  int adj[4];
  const int n = adjacent_isles(cell, adj);
  int64_t gain = 0;
  int area = 1;
  Bits perimeter = g_.neighbours(cell) & empty_;
  for (int k = 0; k < n; ++k) {
    const Isle& isle = isles_[adj[k]];
    if (isle.color == c) {
      gain -= term(isle);
      area += isle.area;
      perimeter = perimeter | isle.perimeter;
    } else {
      gain += int64_t(isle.area) * isle.area;  // the cell leaves its perimeter
    }
  }
  perimeter.reset(cell);
  return gain + int64_t(area) * area * perimeter.count();
}

int64_t IsleTracker::weighted_from_scratch(const Geometry& g, const Board& b, Color c) {
  const Bits empty = b.empty(g);
  int64_t total = 0;
  Bits seen;
  b.stones[c].for_each([&](int start) {
    if (seen.test(start)) return;
    Bits cells, perimeter;
    std::vector<int> stack{start};
    seen.set(start);
    while (!stack.empty()) {
      const int x = stack.back();
      stack.pop_back();
      cells.set(x);
      perimeter = perimeter | (g.neighbours(x) & empty);
      (g.neighbours(x) & b.stones[c] & ~seen).for_each([&](int y) {
        seen.set(y);
        stack.push_back(y);
      });
    }
    total += int64_t(cells.count()) * cells.count() * perimeter.count();
  });
  return total;
}

std::vector<int> TongaServer::best_squares(const Board& b, int64_t* score_out) const {
  const Color me = color_, you = other(color_);
  if (b.placed == 0) {
    const int h = g_.n() / 2;
    return {Geometry::cell(h - 1, h - 1), Geometry::cell(h - 1, h), Geometry::cell(h, h - 1), Geometry::cell(h, h)};
  }
  IsleTracker t(g_, b);
  auto eval = [&] { return t.weighted(me) - t.weighted(you); };
  // Ordering: the server's squares by immediate gain (good first: earlier
  // cuts), our replies by how much they hurt the server.
  std::vector<std::pair<int64_t, int>> firsts;
  t.empty().for_each([&](int s) { firsts.emplace_back(-t.gain_if_placed(s, me), s); });
  std::sort(firsts.begin(), firsts.end());
  int64_t best = std::numeric_limits<int64_t>::min();
  std::vector<int> ties;
  std::vector<std::pair<int64_t, int>> replies;
  for (const auto& [unused, s] : firsts) {
    t.place(s, me);
    int64_t v;
    if (!t.empty().any()) {
      v = eval();
      ++leaves_;
    } else {
      v = std::numeric_limits<int64_t>::max();
      replies.clear();
      t.empty().for_each([&](int o) { replies.emplace_back(-t.gain_if_placed(o, you), o); });
      std::sort(replies.begin(), replies.end());
      for (const auto& [unused2, o] : replies) {
        t.place(o, you);
        const int64_t base = eval();
        int64_t m;
        if (!t.empty().any()) {
          m = base;
          ++leaves_;
        } else {
          m = std::numeric_limits<int64_t>::min();
          const Bits empty = t.empty();
          bool cut = false;
          empty.for_each([&](int s2) {
            if (cut) return;
            ++leaves_;
            m = std::max(m, base + t.gain_if_placed(s2, me));
            if (m >= v) cut = true;  // this reply cannot lower the minimum
          });
        }
        t.undo();
        v = std::min(v, m);
        if (v < best) break;  // s cannot tie the best any more
      }
    }
    t.undo();
    if (v > best) {
      best = v;
      ties = {s};
    } else if (v == best) {
      ties.push_back(s);
    }
  }
  std::sort(ties.begin(), ties.end());
  if (score_out) *score_out = best;
  return ties;
}

int TongaServer::choose(const Board& b) {
  const std::vector<int> squares = best_squares(b);
  return squares[rng_.uniform(uint32_t(squares.size()))];
}

std::vector<int> reference_best_squares(const Geometry& g, const Board& b, Color server, int64_t* score_out) {
  const Color you = other(server);
  auto eval = [&](const Board& x) {
    return IsleTracker::weighted_from_scratch(g, x, server) - IsleTracker::weighted_from_scratch(g, x, you);
  };
  auto place = [](Board x, int cell, Color c) {
    x.stones[c].set(cell);
    ++x.placed;
    return x;
  };
  int64_t best = std::numeric_limits<int64_t>::min();
  std::vector<int> ties;
  b.empty(g).for_each([&](int s) {
    const Board b1 = place(b, s, server);
    int64_t v;
    if (!b1.empty(g).any()) {
      v = eval(b1);
    } else {
      v = std::numeric_limits<int64_t>::max();
      b1.empty(g).for_each([&](int o) {
        const Board b2 = place(b1, o, you);
        int64_t m = std::numeric_limits<int64_t>::min();
        if (!b2.empty(g).any()) m = eval(b2);
        else b2.empty(g).for_each([&](int s2) { m = std::max(m, eval(place(b2, s2, server))); });
        v = std::min(v, m);
      });
    }
    if (v > best) best = v, ties = {s};
    else if (v == best) ties.push_back(s);
  });
  std::sort(ties.begin(), ties.end());
  if (score_out) *score_out = best;
  return ties;
}

}  // namespace mushroom::tonga
