// A test bot for the arena's clocks: plays greedy moves, but before each one
// sleeps and then burns CPU time on several threads, so that wall time and
// CPU time differ by a known amount.
//   paced_bot SLEEP_MS BURN_MS BURN_THREADS
// Each burning thread spins until its own CPU clock has advanced BURN_MS,
// so the CPU time a move costs does not depend on how loaded the machine is.
#include <cstdlib>
#include <ctime>
#include <iostream>
#include <thread>
#include <vector>

#include "agents/greedy_agent.h"
#include "protocol/bot_session.h"

namespace mushroom {
namespace {

double thread_cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) * 1e-6;
}

class PacedGreedy : public GreedyAgent {
 public:
  PacedGreedy(int sleep_ms, int burn_ms, int threads) : sleep_ms_(sleep_ms), burn_ms_(burn_ms), threads_(threads) {}
  Move choose_move(const Position& pos, const Clock& clock) override {
    std::this_thread::sleep_for(std::chrono::milliseconds(sleep_ms_));
    std::vector<std::thread> burners;
    for (int t = 0; t < threads_; ++t)
      burners.emplace_back([this] {
        const double start = thread_cpu_ms();
        volatile unsigned spin = 0;
        while (thread_cpu_ms() - start < burn_ms_) spin = spin + 1;
      });
    for (auto& t : burners) t.join();
    return GreedyAgent::choose_move(pos, clock);
  }

 private:
  int sleep_ms_, burn_ms_, threads_;
};

}  // namespace
}  // namespace mushroom

int main(int argc, char** argv) {
  if (argc != 4) {
    std::cerr << "usage: paced_bot SLEEP_MS BURN_MS BURN_THREADS\n";
    return 2;
  }
  const int sleep_ms = std::atoi(argv[1]), burn_ms = std::atoi(argv[2]), threads = std::atoi(argv[3]);
  mushroom::BotSession session([&] { return std::make_unique<mushroom::PacedGreedy>(sleep_ms, burn_ms, threads); },
                               std::cout, std::cerr);
  return session.run(std::cin);
}
