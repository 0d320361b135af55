#include "selfplay/selfplay_workers.h"

#include <thread>

#include "util/log_stamp.h"
#include "util/progress.h"

namespace mushroom::selfplay {

std::string format_progress(const SelfplayProgress& p) {
  const double per_second = p.seconds > 0 ? 1 / p.seconds : 0;
  char line[320];
  if (p.alpha_beta)
    std::snprintf(line, sizeof line,
                  "selfplay: %d/%d games, %.1f games/min, %.1f positions/s, mean length %.1f plies, %lld samples, "
                  "%.0f nodes/s",
                  p.games_done, p.games_total, p.games_done * 60.0 * per_second, double(p.samples) * per_second,
                  p.mean_game_plies, (long long)p.samples, double(p.nn_positions) * per_second);
  else
    std::snprintf(line, sizeof line,
                  "selfplay: %d/%d games, %.1f games/min, mean length %.1f plies, batch fill %.0f%%, %lld samples, "
                  "%.0f evals/s",
                  p.games_done, p.games_total, p.games_done * 60.0 * per_second, p.mean_game_plies,
                  100 * p.batch_fill, (long long)p.samples, double(p.nn_positions) * per_second);
  std::string out = line;
  if (p.device_busy >= 0) out += ", device busy " + std::to_string(int(std::lround(100 * p.device_busy))) + "%";
  return out + ", " + elapsed_and_left(p.seconds, p.games_done, p.games_total - p.games_done);
}

void SelfplayTotals::add(const SelfplayProgress& p) {
  ++jobs_;
  sum_.games_done += p.games_done;
  sum_.games_total += p.games_total;
  sum_.seconds += p.seconds;
  sum_.samples += p.samples;
  sum_.nn_positions += p.nn_positions;
  sum_.alpha_beta = sum_.alpha_beta || p.alpha_beta;
  plies_ += p.mean_game_plies * p.games_done;
  if (p.device_busy >= 0) {
    busy_known_ = true;
    busy_seconds_ += p.device_busy * p.seconds;
  }
  if (p.batch_fill > 0) room_ += double(p.nn_positions) / p.batch_fill;
}

SelfplayProgress SelfplayTotals::sum() const {
  SelfplayProgress p = sum_;
  p.mean_game_plies = p.games_done ? plies_ / p.games_done : 0;
  p.batch_fill = room_ > 0 ? double(p.nn_positions) / room_ : 0;
  p.device_busy = busy_known_ && p.seconds > 0 ? busy_seconds_ / p.seconds : -1;
  return p;
}

MctsConfig selfplay_mcts_config(const SelfplayConfig& config) {
  MctsConfig mc;
  mc.c_puct = config.cpuct;
  mc.score_weight = config.score_weight;
  mc.gumbel = config.exploration == "gumbel";
  mc.gumbel_k = config.gumbel_k;
  return mc;
}

SelfplayProgress run_worker_threads(SelfplayCounters& counters, const std::function<void(int)>& work) {
  using Clock = std::chrono::steady_clock;
  const SelfplayJob& job = counters.job;
  const auto start = Clock::now();
  auto snapshot = [&] {
    SelfplayProgress p;
    p.games_done = counters.games_done;
    p.games_total = job.games;
    p.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    p.mean_game_plies = p.games_done ? double(counters.plies) / p.games_done : 0;
    p.batch_fill = counters.device_fill       ? counters.device_fill()
                   : counters.capacity ? double(counters.leaves) / double(counters.capacity)
                                       : 0;
    p.device_busy = counters.device_busy ? counters.device_busy() : -1;
    p.samples = counters.samples;
    p.nn_positions = counters.nn_positions;
    p.alpha_beta = counters.alpha_beta;
    return p;
  };
  std::vector<std::thread> threads;
  std::vector<std::exception_ptr> errors(size_t(job.config.workers));
  for (int w = 0; w < job.config.workers; ++w)
    threads.emplace_back([&, w] {
      try {
        work(w);
      } catch (...) {
        errors[size_t(w)] = std::current_exception();
        counters.next_game = job.games;  // stop the others from starting games
      }
    });
  std::atomic<bool> done{false};
  // Finished games go to the process's progress reporter (util/progress.h)
  // as they end; the caller says how many the stage has.
  int reported = 0;
  auto report_games = [&] {
    const int now = counters.games_done.load();
    if (now > reported) mushroom::progress().add(now - reported);
    reported = now;
  };
  std::thread reporter([&] {
    auto last = Clock::now();
    while (!done) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      report_games();
      if (job.progress && Clock::now() - last > std::chrono::duration<double>(job.progress_seconds)) {
        last = Clock::now();
        job.progress(snapshot());
      }
    }
  });
  for (auto& t : threads) t.join();
  done = true;
  reporter.join();
  report_games();
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
  const SelfplayProgress final_progress = snapshot();
  if (job.progress) job.progress(final_progress);
  return final_progress;
}

}  // namespace mushroom::selfplay
