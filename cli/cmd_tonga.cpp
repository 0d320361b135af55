// `mushroom tonga`: our PseudoTonga agent against seed 002's server.
#include <cstdio>
#include <map>
#include <mutex>

#include "cli/command.h"
#include "seeds/tonga_match.h"
#include "util/rng.h"
#include "util/text.h"
#include "util/work_pool.h"

namespace mushroom::cli {

int cmd_tonga(int argc, char** argv) {
  cxxopts::Options opts("mushroom tonga",
                        "Plays our PseudoTonga agent against the server's fixed "
                        "3-ply strategy from seed 002. Who starts is decided 50/50 per game. Each game scores our "
                        "points minus the server's; an invalid move, a crash or a timeout fills every empty square "
                        "with the server's colour (the seed's penalty). Reports per-size means and the overall sum "
                        "of signed square roots.");
  opts.add_options()("games", "games per size", cxxopts::value<int>()->default_value("20"))(
      "sizes", "comma-separated even sizes in 6..16", cxxopts::value<std::vector<int>>()->default_value("6,8,10,12,14,16"))(
      "seed", "seed for who starts, the server's ties and our agent", cxxopts::value<uint64_t>()->default_value("1"))(
      "time-ms", "our agent's CPU time per game (the seed's limit is 20 s)", cxxopts::value<double>()->default_value("20000"))(
      "agent",
      "our agent: exploit (the server's exact replies inside a 3-ply search) | mcts (random-fill playouts) | "
      "minimax (the server's own search, for our colour)",
      cxxopts::value<std::string>()->default_value("exploit"))(
      "candidates", "exploit: our squares examined per move", cxxopts::value<int>()->default_value("48"))(
      "shallow", "exploit: score positions by our best next gain instead of our own 3-ply search (faster, weaker)")(
      "playouts", "random fills per MCTS leaf", cxxopts::value<int>()->default_value("8"))(
      "parallel", "games at once", cxxopts::value<int>()->default_value("1"))("h,help", "show this help");
  cxxopts::ParseResult args;
  if (parse_or_help(opts, argc, argv, args)) return 0;
  const int games = args["games"].as<int>();
  if (games < 1) throw std::invalid_argument("--games must be positive");
  const auto sizes = args["sizes"].as<std::vector<int>>();
  for (int n : sizes)
    if (n < 6 || n > 16 || n % 2) throw std::invalid_argument("--sizes: " + std::to_string(n) + " is not an even size in 6..16");
  tonga::TongaAgentConfig agent;
  agent.playouts_per_leaf = args["playouts"].as<int>();
  agent.kind = args["agent"].as<std::string>();
  agent.candidates = args["candidates"].as<int>();
  agent.deep = args.count("shallow") == 0;
  if (agent.candidates < 1) throw std::invalid_argument("--candidates must be positive");
  if (agent.playouts_per_leaf < 1) throw std::invalid_argument("--playouts must be positive");
  const double time_ms = args["time-ms"].as<double>();
  const uint64_t seed = args["seed"].as<uint64_t>();

  struct Job {
    int n, index;
    bool we_start;
    uint64_t seed;
  };
  std::vector<Job> jobs;
  Rng coin(seed);
  for (int n : sizes)
    for (int k = 0; k < games; ++k) jobs.push_back({n, k, coin.uniform(2) == 0, seed * 1000003 + uint64_t(n) * 1009 + uint64_t(k)});
  std::vector<tonga::TongaGameResult> results(jobs.size());
  std::mutex mu;
  run_jobs(int(jobs.size()), args["parallel"].as<int>(), [&](int j, int) {
    results[size_t(j)] = tonga::play_tonga_game(jobs[size_t(j)].n, jobs[size_t(j)].we_start, jobs[size_t(j)].seed, agent, time_ms);
    std::lock_guard<std::mutex> lock(mu);
    const auto& r = results[size_t(j)];
    std::printf("N=%-2d game %-3d %s  us %5lld  server %5lld  points %+6lld  cpu %6.0f ms%s%s\n", r.n, jobs[size_t(j)].index,
                r.we_started ? "we start   " : "server starts", (long long)r.ours, (long long)r.server,
                (long long)r.points(), r.our_ms, r.penalty.empty() ? "" : "  PENALTY: ", r.penalty.c_str());
    std::fflush(stdout);
  });

  std::printf("\n| N | games | mean points | wins | mean ours | mean server | max CPU ms | penalties |\n"
              "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
  double overall = 0;
  for (int n : sizes) {
    double points = 0, ours = 0, server = 0, max_ms = 0;
    int count = 0, wins = 0, penalties = 0;
    for (size_t j = 0; j < jobs.size(); ++j) {
      if (jobs[j].n != n) continue;
      const auto& r = results[j];
      ++count;
      points += double(r.points());
      ours += double(r.ours);
      server += double(r.server);
      wins += r.points() > 0;
      penalties += !r.penalty.empty();
      max_ms = std::max(max_ms, r.our_ms);
      overall += tonga::signed_sqrt(double(r.points()));
    }
    std::printf("| %d | %d | %+.1f | %d | %.1f | %.1f | %.0f | %d |\n", n, count, points / count, wins, ours / count,
                server / count, max_ms, penalties);
  }
  std::printf("\noverall score (sum of signed square roots): %.2f\n", overall);
  return 0;
}

}  // namespace mushroom::cli
