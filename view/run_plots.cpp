#include "view/run_plots.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <stdexcept>

#include "util/text.h"
#include "view/html.h"
#include "view/run_metrics.h"

namespace mushroom::view {

namespace fs = std::filesystem;

namespace {

// The samples-seen axis in a readable unit (thousands or millions), with
// round ticks: "samples seen (millions)" with 4.302, 4.304, ... rather than
// gnuplot's 4.302e+06 labels running into each other.
struct SamplesAxis {
  double divisor = 1;
  std::string commands;
};
SamplesAxis samples_axis(const RunMetrics& run) {
  double lo = INFINITY, hi = -INFINITY;
  for (const TrainLine& p : run.training) lo = std::min(lo, double(p.samples_seen)), hi = std::max(hi, double(p.samples_seen));
  SamplesAxis axis;
  const SamplesUnit unit = samples_unit(run);
  axis.divisor = unit.divisor;
  std::ostringstream out;
  out << "set xlabel 'samples seen" << unit.suffix << "'\nset format x '%g'\n";
  if (std::isfinite(lo) && hi > lo) {
    const double step = round_tick_step(lo / axis.divisor, hi / axis.divisor);
    out << "set xrange [" << std::floor(lo / axis.divisor / step) * step << ":" << std::ceil(hi / axis.divisor / step) * step
        << "]\nset xtics " << step << "\n";
  } else {
    out << "set autoscale x\nset xtics autofreq\n";
  }
  axis.commands = out.str();
  return axis;
}

// The generation axis: whole numbers only, and half a generation of margin,
// so one generation is a point in the middle, not on a 0.99-1.01 axis.
std::string generation_axis(const RunMetrics& run) {
  int lo = 1, hi = 1;
  if (!run.generations.empty()) {
    lo = run.generations.front().generation, hi = lo;
    for (const GenerationRecord& r : run.generations) lo = std::min(lo, r.generation), hi = std::max(hi, r.generation);
  }
  const int step = std::max(1, int(std::ceil(round_tick_step(lo, hi + 1))));
  std::ostringstream out;
  out << "set xlabel 'generation'\nset format x '%.0f'\nset xrange [" << lo - 0.5 << ":" << hi + 0.5 << "]\nset xtics "
      << step << "\n";
  return out.str();
}

}  // namespace

std::string draw_run_plots(const std::string& dir) {
  const fs::path root(dir), plots = root / "plots";
  fs::create_directories(plots);
  const RunMetrics run = read_run_metrics(dir);
  std::ostringstream training;
  training << "# samples_seen\tloss\tpolicy\tvalue\tscore\townership\tpolicy_entropy\tgeneration\n";
  for (const TrainLine& p : run.training)
    training << p.samples_seen << '\t' << p.loss << '\t' << p.policy << '\t' << p.value << '\t' << p.score << '\t'
             << p.ownership << '\t' << p.policy_entropy << '\t' << p.generation << '\n';
  std::ostringstream generations;
  generations << "# generation\tgate_score\teval_score\tselfplay_games_per_minute\tpromoted\teval_margin"
                 "\tpolicy_accuracy\tmcts_accuracy\tvalue_accuracy\trandom_accuracy"
                 "\tlearned_log_loss\thand_log_loss\tmaterial_log_loss\n";
  for (const GenerationRecord& r : run.generations) {
    const Accuracies a = accuracies_or_nan(r);
    const LogLosses l = log_losses_or_nan(r);
    generations << r.generation << '\t' << gate_score_or_nan(r) << '\t' << eval_score_or_nan(r) << '\t'
                << r.selfplay_games_per_minute << '\t' << int(r.promoted) << '\t' << r.eval_margin << '\t' << a.policy
                << '\t' << a.mcts << '\t' << a.value << '\t' << a.random << '\t' << l.learned << '\t' << l.hand
                << '\t' << l.material << '\n';
  }
  write_file_atomic((plots / "training.tsv").string(), training.str());
  write_file_atomic((plots / "generations.tsv").string(), generations.str());

  const std::string png = (plots / "run.png").string();
  const SamplesAxis samples = samples_axis(run);
  std::ostringstream gp;
  gp << "set terminal pngcairo size 1400,900 noenhanced font 'sans,10'\n"
     << "set output '" << png << ".tmp'\n"
     << "set multiplot layout 2,2 title 'mushroom run: " << root.filename().string() << "'\n"
     << "set grid\nset key top right\nset datafile missing 'nan'\n"
     << "set title 'training loss by term'\n" << samples.commands << "plot ";
  // The terms the run trains, as on the dashboard: an evaluation run's legend has no conv-net terms.
  std::vector<LossTerm> terms = trained_loss_terms(run);
  if (terms.empty()) terms.push_back({"total", 2, &TrainLine::loss});  // no line yet: the panel still draws
  for (size_t t = 0; t < terms.size(); ++t)
    gp << (t ? ", ''" : "'" + (plots / "training.tsv").string() + "'") << " using ($1/" << samples.divisor
       << "):" << terms[t].tsv_column << " with lines title '" << terms[t].label << "'";
  gp << "\n";
  if (run.fitted())  // a learned evaluation has no policy: its match scores instead
    gp << "set title 'score by generation'\n" << generation_axis(run) << "set yrange [0:1.05]\nplot '"
       << (plots / "generations.tsv").string() << "' using 1:3 with linespoints title 'vs the hand evaluation', "
       << "'' using 1:2 with linespoints title 'gate (vs best)'\nset autoscale y\n";
  else
    gp << "set title 'policy entropy (nats)'\nplot '" << (plots / "training.tsv").string() << "' using ($1/"
       << samples.divisor << "):7 with lines title 'entropy'\n";
  gp << generation_axis(run) << "set yrange [0:1.05]\nset key bottom right\n";
  if (run.graded())  // a blockgame run, graded by the exact solver
    gp << "set title 'winning-move accuracy on held-out positions'\nplot '" << (plots / "generations.tsv").string()
       << "' using 1:8 with linespoints title 'mcts', '' using 1:7 with linespoints title 'raw policy', "
       << "'' using 1:9 with linespoints title 'value head (won/lost)', '' using 1:10 with lines title 'random policy'\n";
  else if (run.fitted())  // a learned-evaluation run: the fit to held-out results
    gp << "set autoscale y\nset key top right\nset title 'held-out results: log loss (nats)'\nplot '"
       << (plots / "generations.tsv").string() << "' using 1:11 with linespoints title 'learned evaluation', "
       << "'' using 1:12 with linespoints title 'hand evaluation', '' using 1:13 with linespoints title 'material margin'\n";
  else
    gp << "set title 'score by generation'\nplot '" << (plots / "generations.tsv").string()
       << "' using 1:3 with linespoints title 'vs greedy', '' using 1:2 with linespoints title 'gate (vs best)'\n";
  bool timed = false;  // a resumed generation's self-play ran in an earlier call and has no speed
  for (const GenerationRecord& r : run.generations) timed = timed || r.selfplay_games_per_minute > 0;
  gp << "set autoscale y\nset key top right\n";
  if (timed)
    gp << "# generation 1 self-plays without a net, far faster: a log scale keeps the rest readable\n"
       << "set logscale y\nset title 'self-play speed'\nplot '" << (plots / "generations.tsv").string()
       << "' using 1:4 with linespoints title 'games per minute'\n";
  else  // gnuplot refuses a plot with no defined point: an empty panel that says why
    gp << "set title 'self-play speed (no timed self-play yet: resumed generations)'\nset yrange [0:1]\n"
       << "plot 2 notitle\n";
  gp << "unset multiplot\n";
  const std::string script = (plots / "plots.gp").string();
  write_file_atomic(script, gp.str());
  if (run.training.empty() && run.generations.empty())
    throw std::runtime_error("nothing to plot yet (no training line nor finished generation)");
  const std::string command = "gnuplot '" + script + "' 2>'" + (plots / "gnuplot.err").string() + "'";
  if (std::system(command.c_str()) != 0)
    throw std::runtime_error("gnuplot failed or is missing (see " + (plots / "gnuplot.err").string() +
                             "; scripts/setup.sh installs gnuplot-nox)");
  fs::rename(png + ".tmp", png);
  return png;
}

}  // namespace mushroom::view
