#include "solvers/grundy.h"

namespace mushroom {

std::vector<std::vector<unsigned>> grundy_table_2d(
    int n, const std::function<void(int, int, const std::function<void(int, int)>&)>& moves) {
  std::vector<std::vector<unsigned>> g(size_t(n), std::vector<unsigned>(size_t(n), 0));
  for (int sum = 0; sum <= 2 * (n - 1); ++sum)
    for (int x = 0; x < n; ++x) {
      const int y = sum - x;
      if (y < 0 || y >= n) continue;
      MexSet seen;
      moves(x, y, [&](int nx, int ny) {
        if (nx >= 0 && ny >= 0 && nx < n && ny < n) seen.add(g[size_t(nx)][size_t(ny)]);
      });
      g[size_t(x)][size_t(y)] = seen.mex();
    }
  return g;
}

}  // namespace mushroom
