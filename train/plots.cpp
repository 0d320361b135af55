#include "train/plots.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <stdexcept>

#include "util/text.h"

namespace mushroom::train {

namespace fs = std::filesystem;

namespace {

// The value after "key": in one of our flat JSON lines, as text ("nan" if absent).
std::string field(const std::string& line, const std::string& key) {
  const size_t at = line.find("\"" + key + "\":");
  if (at == std::string::npos) return "nan";
  size_t start = at + key.size() + 3;
  while (start < line.size() && line[start] == ' ') ++start;
  size_t end = start;
  while (end < line.size() && line[end] != ',' && line[end] != '}') ++end;
  return line.substr(start, end - start);
}

}  // namespace

std::string draw_run_plots(const std::string& dir) {
  const fs::path root(dir), plots = root / "plots", metrics = root / "metrics";
  fs::create_directories(plots);
  std::vector<fs::path> train_files, gen_files;
  if (fs::exists(metrics))
    for (const auto& e : fs::directory_iterator(metrics)) {
      const std::string name = e.path().filename().string();
      if (name.rfind("train-gen-", 0) == 0 && e.path().extension() == ".jsonl") train_files.push_back(e.path());
      if (name.rfind("gen-", 0) == 0 && e.path().extension() == ".json") gen_files.push_back(e.path());
    }
  std::sort(train_files.begin(), train_files.end());
  std::sort(gen_files.begin(), gen_files.end());

  std::ostringstream training;
  training << "# samples_seen\tloss\tpolicy\tvalue\tscore\townership\tpolicy_entropy\tgeneration\n";
  for (const auto& f : train_files)
    for (const std::string& line : split_lines(read_file(f.string())))
      if (!line.empty())
        training << field(line, "samples_seen") << '\t' << field(line, "loss") << '\t' << field(line, "policy") << '\t'
                 << field(line, "value") << '\t' << field(line, "score") << '\t' << field(line, "ownership") << '\t'
                 << field(line, "policy_entropy") << '\t' << field(line, "generation") << '\n';
  std::ostringstream generations;
  generations << "# generation\tgate_score\teval_score\tselfplay_games_per_minute\tpromoted\teval_margin\n";
  for (const auto& f : gen_files) {
    const std::string line = read_file(f.string());
    std::string eval = field(line, "eval_score");
    if (eval.rfind("-1", 0) == 0) eval = "nan";
    generations << field(line, "generation") << '\t' << field(line, "gate_score") << '\t' << eval << '\t'
                << field(line, "selfplay_games_per_minute") << '\t' << field(line, "promoted") << '\t'
                << field(line, "eval_margin") << '\n';
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
     << "set title 'policy entropy (nats)'\nplot '" << (plots / "training.tsv").string()
     << "' using 1:7 with lines title 'entropy'\n"
     << "set title 'score by generation'\nset xlabel 'generation'\nset yrange [0:1.05]\nset key bottom right\n"
     << "plot '" << (plots / "generations.tsv").string()
     << "' using 1:3 with linespoints title 'vs greedy', '' using 1:2 with linespoints title 'gate (vs best)'\n"
     << "set autoscale y\nset key top right\n"
     << "# generation 1 self-plays without a net, far faster: a log scale keeps the rest readable\n"
     << "set logscale y\nset title 'self-play speed'\nplot '" << (plots / "generations.tsv").string()
     << "' using 1:4 with linespoints title 'games per minute'\n"
     << "unset multiplot\n";
  const std::string script = (plots / "plots.gp").string();
  write_file_atomic(script, gp.str());
  if (train_files.empty() && gen_files.empty()) throw std::runtime_error("nothing to plot yet");
  const std::string command = "gnuplot '" + script + "' 2>'" + (plots / "gnuplot.err").string() + "'";
  if (std::system(command.c_str()) != 0)
    throw std::runtime_error("gnuplot failed or is missing (see " + (plots / "gnuplot.err").string() +
                             "; scripts/setup.sh installs gnuplot-nox)");
  fs::rename(png + ".tmp", png);
  return png;
}

}  // namespace mushroom::train
