#include "train/plots.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <stdexcept>

#include "util/text.h"
#include "view/run_metrics.h"

namespace mushroom::train {

namespace fs = std::filesystem;

std::string draw_run_plots(const std::string& dir) {
  const fs::path root(dir), plots = root / "plots";
  fs::create_directories(plots);
  const view::RunMetrics run = view::read_run_metrics(dir);
  std::ostringstream training;
  training << "# samples_seen\tloss\tpolicy\tvalue\tscore\townership\tpolicy_entropy\tgeneration\n";
  for (const view::TrainLine& p : run.training)
    training << p.samples_seen << '\t' << p.loss << '\t' << p.policy << '\t' << p.value << '\t' << p.score << '\t'
             << p.ownership << '\t' << p.policy_entropy << '\t' << p.generation << '\n';
  std::ostringstream generations;
  generations << "# generation\tgate_score\teval_score\tselfplay_games_per_minute\tpromoted\teval_margin"
                 "\tpolicy_accuracy\tmcts_accuracy\tvalue_accuracy\trandom_accuracy"
                 "\tlearned_log_loss\thand_log_loss\tmaterial_log_loss\n";
  for (const view::GenerationRecord& r : run.generations) {
    const view::Accuracies a = view::accuracies_or_nan(r);
    const view::LogLosses l = view::log_losses_or_nan(r);
    generations << r.generation << '\t' << r.gate_score << '\t' << view::eval_score_or_nan(r) << '\t'
                << r.selfplay_games_per_minute << '\t' << int(r.promoted) << '\t' << r.eval_margin << '\t' << a.policy
                << '\t' << a.mcts << '\t' << a.value << '\t' << a.random << '\t' << l.learned << '\t' << l.hand
                << '\t' << l.material << '\n';
  }
  write_file_atomic((plots / "training.tsv").string(), training.str());
  write_file_atomic((plots / "generations.tsv").string(), generations.str());

  const std::string png = (plots / "run.png").string();
  std::ostringstream gp;
  gp << "set terminal pngcairo size 1400,900 noenhanced font 'sans,10'\n"
     << "set output '" << png << ".tmp'\n"
     << "set multiplot layout 2,2 title 'mushroom run: " << root.filename().string() << "'\n"
     << "set grid\nset key top right\nset datafile missing 'nan'\n"
     << "set title 'training loss by term'\nset xlabel 'samples seen'\n"
     << "plot '" << (plots / "training.tsv").string() << "' using 1:2 with lines title 'total', "
     << "'' using 1:3 with lines title 'policy', '' using 1:4 with lines title 'value', "
     << "'' using 1:5 with lines title 'score', '' using 1:6 with lines title 'ownership'\n"
     ;
  if (run.fitted())  // a learned evaluation has no policy: its match scores instead
    gp << "set title 'score by generation'\nset xlabel 'generation'\nset yrange [0:1.05]\nplot '"
       << (plots / "generations.tsv").string() << "' using 1:3 with linespoints title 'vs the hand evaluation', "
       << "'' using 1:2 with linespoints title 'gate (vs best)'\nset autoscale y\n";
  else
    gp << "set title 'policy entropy (nats)'\nplot '" << (plots / "training.tsv").string()
       << "' using 1:7 with lines title 'entropy'\n";
  gp
     << "set xlabel 'generation'\nset yrange [0:1.05]\nset key bottom right\n";
  if (run.graded())  // a blockgame run, graded by the exact solver
    gp << "set title 'winning-move accuracy on held-out positions'\nplot '" << (plots / "generations.tsv").string()
       << "' using 1:8 with linespoints title 'mcts', '' using 1:7 with linespoints title 'raw policy', "
       << "'' using 1:9 with linespoints title 'value head (won/lost)', '' using 1:10 with lines title 'random policy'\n";
  else if (run.fitted())  // a learned-evaluation run: the fit to held-out results
    gp << "set autoscale y\nset key top right\nset title 'held-out results: log loss (nats)'\nplot '"
       << (plots / "generations.tsv").string() << "' using 1:11 with linespoints title 'learned evaluation', "
       << "'' using 1:12 with lines title 'hand evaluation', '' using 1:13 with lines title 'material margin'\n";
  else
    gp << "set title 'score by generation'\nplot '" << (plots / "generations.tsv").string()
       << "' using 1:3 with linespoints title 'vs greedy', '' using 1:2 with linespoints title 'gate (vs best)'\n";
  gp
     << "set autoscale y\nset key top right\n"
     << "# generation 1 self-plays without a net, far faster: a log scale keeps the rest readable\n"
     << "set logscale y\nset title 'self-play speed'\nplot '" << (plots / "generations.tsv").string()
     << "' using 1:4 with linespoints title 'games per minute'\n"
     << "unset multiplot\n";
  const std::string script = (plots / "plots.gp").string();
  write_file_atomic(script, gp.str());
  if (run.training.empty() && run.generations.empty()) throw std::runtime_error("nothing to plot yet");
  const std::string command = "gnuplot '" + script + "' 2>'" + (plots / "gnuplot.err").string() + "'";
  if (std::system(command.c_str()) != 0)
    throw std::runtime_error("gnuplot failed or is missing (see " + (plots / "gnuplot.err").string() +
                             "; scripts/setup.sh installs gnuplot-nox)");
  fs::rename(png + ".tmp", png);
  return png;
}

}  // namespace mushroom::train
