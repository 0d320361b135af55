#include "view/dashboard.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>

#include "util/log_stamp.h"
#include "util/text.h"
#include "view/game_viewer.h"
#include "view/html.h"
#include "view/run_metrics.h"
#include "view/run_progress.h"

namespace mushroom::view {

namespace fs = std::filesystem;

namespace {

std::string cell(double v, int decimals) { return std::isfinite(v) ? format_fixed(v, decimals) : "&ndash;"; }

// Sample game logs by generation folder (data/gen-NNNN/games/*.log), sorted.
std::vector<std::pair<std::string, std::vector<fs::path>>> sample_logs(const fs::path& root) {
  std::vector<std::pair<std::string, std::vector<fs::path>>> out;
  const fs::path data = root / "data";
  if (!fs::exists(data)) return out;
  for (const auto& gen : fs::directory_iterator(data)) {
    const fs::path games = gen.path() / "games";
    if (!fs::is_directory(games)) continue;
    std::vector<fs::path> logs;
    for (const auto& e : fs::directory_iterator(games))
      if (e.path().extension() == ".log") logs.push_back(e.path());
    std::sort(logs.begin(), logs.end());
    if (!logs.empty()) out.emplace_back(gen.path().filename().string(), logs);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string games_section(const fs::path& root, const DashboardOptions& options) {
  auto by_generation = sample_logs(root);
  std::string html = "<h2>Sample self-play games</h2>";
  if (by_generation.empty())
    return html + "<p class=\"muted\">No sample games yet (selfplay.sample_games saves them).</p>";
  // The first generation with logs, then the newest ones.
  std::vector<size_t> chosen;
  const size_t n = by_generation.size();
  const size_t want = size_t(std::max(1, options.generations_with_games));
  chosen.push_back(0);
  for (size_t i = std::max<size_t>(1, n - std::min(n, want - 1)); i < n; ++i) chosen.push_back(i);
  fs::create_directories(root / "games");
  html += "<ul class=\"games\">";
  for (size_t index : chosen) {
    const auto& [generation, logs] = by_generation[index];
    html += "<li><b>" + html_escape(generation) + "</b>: ";
    for (int k = 0; k < options.games_per_generation && k < int(logs.size()); ++k) {
      const std::string page = generation + "-" + logs[k].stem().string() + ".html";
      try {
        ViewerOptions viewer;
        viewer.title = root.filename().string() + ", " + generation + ", " + logs[k].stem().string() + " (self-play)";
        write_game_viewer(logs[k].string(), (root / "games" / page).string(), viewer);
        html += "<a href=\"games/" + html_escape(page) + "\">" + html_escape(logs[k].stem().string()) + "</a> ";
      } catch (const std::exception& e) {
        html += "<span class=\"error\">" + html_escape(logs[k].string()) + ": " + html_escape(e.what()) + "</span> ";
      }
    }
    html += "</li>";
  }
  return html + "</ul>";
}

std::string seconds_attribute(double seconds) { return std::isfinite(seconds) ? format_fixed(seconds, 1) : ""; }

// The run's progress now (RUN/progress.json, view/run_progress.h): the
// stage under way and the time it and the whole run have left, as of the
// file's time; a script counts both down from there while the page is
// open, and the page reloads itself every minute while the run goes on.
std::string now_section(const fs::path& root) {
  std::optional<RunProgress> p;
  try {
    p = read_run_progress(root.string());
  } catch (const std::exception& e) {
    return "<p class=\"error\">" + html_escape(e.what()) + "</p>";
  }
  if (!p) return "";
  const std::string as_of = " <span class=\"muted\">(as of " + html_escape(p->updated_text) + ")</span>";
  if (p->state == "finished")
    return "<section id=\"run-now\" data-state=\"finished\"><b>The run has finished.</b>" + as_of + "</section>";
  std::string where = p->position.empty() ? "" : p->position + " \u00b7 ";
  where += p->stage;
  if (p->total > 0) where += " " + std::to_string(p->done) + "/" + std::to_string(p->total) + " " + p->unit;
  else if (p->done > 0) where += " " + std::to_string(p->done) + " " + p->unit;
  auto countdown = [](const std::string& id, double left, const std::string& prefix) {
    return "<span class=\"countdown\" id=\"" + id + "\" data-left=\"" + seconds_attribute(left) + "\" data-prefix=\"" +
           prefix + "\">" + (std::isfinite(left) ? prefix + clock_text(left) : "no estimate yet") + "</span>";
  };
  std::string run_prefix = "left about ", untimed;
  // A lower bound of nothing at all is no estimate.
  const double run_left = p->untimed.empty() || p->run_left >= 0.5 ? p->run_left : std::nan("");
  if (!p->untimed.empty()) {
    run_prefix = "left at least ";
    for (size_t i = 0; i < p->untimed.size(); ++i) untimed += (i ? ", " : "") + p->untimed[i];
    untimed = " (" + html_escape(untimed) + " not timed yet)";
  }
  const bool running = p->state == "running";
  return "<section id=\"run-now\" data-state=\"" + html_escape(p->state) + "\" data-updated=\"" +
         format_fixed(p->updated, 1) + "\"><b>" + (running ? "Now running:" : "Last stage:") +
         "</b> <span id=\"now-stage\">" + html_escape(where) + "</span>" +
         (p->detail.empty() ? "" : " <span class=\"muted\">(" + html_escape(p->detail) + ")</span>") +
         (running ? "; this stage " + countdown("stage-left", p->stage_left, "left about ") : std::string()) +
         "; the whole run " + countdown("run-left", run_left, run_prefix) + untimed + as_of + "</section>";
}

// Counts the estimates down from the file's time, once a second.
const char* const kCountdownScript = R"JS(<script>
(function () {
  const now = document.getElementById("run-now");
  if (!now || !now.dataset.updated) return;
  const updated = Number(now.dataset.updated);
  const clock = s => { s = Math.max(0, Math.round(s)); const m = Math.floor(s / 60) % 60, h = Math.floor(s / 3600);
                       return h + ":" + String(m).padStart(2, "0") + ":" + String(s % 60).padStart(2, "0"); };
  const tick = () => {
    for (const el of document.querySelectorAll(".countdown")) {
      if (el.dataset.left === "") continue;
      el.textContent = el.dataset.prefix + clock(Number(el.dataset.left) - (Date.now() / 1000 - updated));
    }
  };
  tick();
  setInterval(tick, 1000);
})();
</script>)JS";

const char* const kStyle = R"CSS(
  body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1d2330; background: #fbfaf7; }
  header { padding: 16px 24px 4px; } h1 { font-size: 20px; margin: 0; } h2 { font-size: 16px; margin: 22px 0 8px; }
  .muted { color: #6b7280; } .error { color: #b42318; }
  main { padding: 0 24px 24px; }
  table { border-collapse: collapse; background: #fff; border: 1px solid #d7dce3; font-variant-numeric: tabular-nums; }
  th, td { padding: 4px 10px; text-align: right; border-bottom: 1px solid #eef0f3; } th { color: #6b7280; font-weight: 500; }
  tr.promoted td:nth-child(2) { color: #15803d; font-weight: 600; }
  ul.games { padding-left: 18px; } ul.games a { margin-right: 8px; }
  img.plot { max-width: 100%; border: 1px solid #d7dce3; border-radius: 10px; }
  #run-now { margin: 12px 0 4px; padding: 8px 12px; background: #fff; border: 1px solid #d7dce3; border-radius: 8px; }
)CSS";

}  // namespace

std::string write_dashboard(const std::string& dir, const DashboardOptions& options) {
  const fs::path root(dir);
  const RunMetrics run = read_run_metrics(dir);

  const SamplesUnit samples = samples_unit(run);
  Chart loss{.title = "training loss by term", .x_label = "samples seen" + samples.suffix, .y_label = "loss",
             .series = {}, .y_from_zero = true, .y_max = 0};
  for (const LossTerm& term : trained_loss_terms(run)) {
    ChartSeries s{.label = term.label, .x = {}, .y = {}, .points = false};
    for (const TrainLine& p : run.training) {
      s.x.push_back(double(p.samples_seen) / samples.divisor);
      s.y.push_back(p.*term.value);
    }
    loss.series.push_back(s);
  }
  Chart strength{.title = "score by generation", .x_label = "generation", .y_label = "score (1 = all won)",
                 .series = {}, .y_from_zero = true, .y_max = 1.05};
  // A learned-evaluation run is evaluated against the hand evaluation.
  ChartSeries greedy{.label = run.fitted() ? "vs the hand evaluation" : "vs greedy", .x = {}, .y = {}, .points = true};
  ChartSeries gate{.label = "gate (vs best so far)", .x = {}, .y = {}, .points = true};
  Chart speed{.title = "self-play throughput", .x_label = "generation", .y_label = "games per minute", .series = {},
              .y_from_zero = true, .y_max = 0};
  ChartSeries games_per_minute{.label = "games per minute", .x = {}, .y = {}, .points = true};
  // A learned-evaluation run's self-play is alpha-beta: its count is search nodes, not the net's leaves.
  const std::string evaluated = run.fitted() ? "alpha-beta nodes" : "leaf evaluations";
  Chart evals{.title = evaluated + " per second in self-play", .x_label = "generation", .y_label = evaluated + " / s",
              .series = {}, .y_from_zero = true, .y_max = 0};
  ChartSeries evals_per_second{.label = evaluated + " / s", .x = {}, .y = {}, .points = true};
  for (const GenerationRecord& r : run.generations) {
    greedy.x.push_back(r.generation);
    greedy.y.push_back(eval_score_or_nan(r));
    gate.x.push_back(r.generation);
    gate.y.push_back(gate_score_or_nan(r));
    // Resumed generations report no self-play time; the bootstrap one uses no net.
    const bool timed = r.selfplay_seconds > 0;
    games_per_minute.x.push_back(r.generation);
    games_per_minute.y.push_back(timed ? r.selfplay_games_per_minute : std::nan(""));
    evals_per_second.x.push_back(r.generation);
    evals_per_second.y.push_back(timed && r.nn_positions > 0 ? r.nn_positions / r.selfplay_seconds : std::nan(""));
  }
  strength.series = {greedy, gate};
  if (run.graded()) {
    // A blockgame run: the solver's grading replaces the greedy match.
    strength = Chart{.title = "winning-move accuracy on held-out positions", .x_label = "generation",
                     .y_label = "share of won positions", .series = {}, .y_from_zero = true, .y_max = 1.05};
    const char* labels[] = {"mcts", "raw policy", "value head (won/lost)", "random policy"};
    for (int k = 0; k < 4; ++k) {
      ChartSeries s{.label = labels[k], .x = {}, .y = {}, .points = true};
      for (const GenerationRecord& r : run.generations) {
        const Accuracies a = accuracies_or_nan(r);
        const double values[] = {a.mcts, a.policy, a.value, a.random};
        s.x.push_back(r.generation);
        s.y.push_back(values[k]);
      }
      strength.series.push_back(s);
    }
  }
  speed.series = {games_per_minute};
  evals.series = {evals_per_second};
  Chart fit{.title = "held-out results: log loss of each predictor", .x_label = "generation",
            .y_label = "log loss (nats)", .series = {}, .y_from_zero = false, .y_max = 0};
  if (run.fitted()) {
    const char* labels[] = {"learned evaluation", "hand evaluation", "material margin"};
    for (int k = 0; k < 3; ++k) {
      // Every predictor's markers: a lone generation has no line to show.
      ChartSeries s{.label = labels[k], .x = {}, .y = {}, .points = true};
      for (const GenerationRecord& r : run.generations) {
        const LogLosses l = log_losses_or_nan(r);
        const double values[] = {l.learned, l.hand, l.material};
        s.x.push_back(r.generation);
        s.y.push_back(values[k]);
      }
      fit.series.push_back(s);
    }
  }

  // The run's ladder (run/ladder_stage.h): each candidate's rating when
  // placed, and the fixed references' ratings on the same list, by hours of
  // the run's own clock (run/run_clock.h), or by generation in runs whose
  // records have no clock.
  // By hours when every placed generation has the clock.
  bool placed = false, clocked = true;
  for (const GenerationRecord& r : run.generations)
    if (r.ladder) placed = true, clocked = clocked && !std::isnan(r.run_seconds);
  const bool by_hours = placed && clocked;
  Chart ladder{.title = "rating on the run's ladder", .x_label = by_hours ? "hours of the run" : "generation",
               .y_label = "Elo", .series = {}, .y_from_zero = false, .y_max = 0};
  std::string anchor;
  {
    ChartSeries elo{.label = "candidate", .x = {}, .y = {}, .points = true},
        low{.label = "95% low", .x = {}, .y = {}, .points = true},
        high{.label = "95% high", .x = {}, .y = {}, .points = true};
    std::vector<ChartSeries> references;
    for (const GenerationRecord& r : run.generations) {
      if (!r.ladder) continue;
      anchor = r.ladder->anchor;
      const double x = by_hours ? r.run_seconds / 3600 : r.generation;
      for (auto [series, value] : {std::pair{&elo, r.ladder->elo}, {&low, r.ladder->low}, {&high, r.ladder->high}}) {
        series->x.push_back(x);
        series->y.push_back(value);
      }
      for (const auto& reference : r.ladder->references) {
        // Not a structured binding: clang 14 (the fuzz and sanitizer builds) cannot capture one.
        const std::string& name = reference.first;
        auto it =
            std::find_if(references.begin(), references.end(), [&](const ChartSeries& c) { return c.label == name; });
        if (it == references.end())
          it = references.insert(references.end(), ChartSeries{.label = name, .x = {}, .y = {}, .points = true});
        it->x.push_back(x);
        it->y.push_back(reference.second);
      }
    }
    if (!elo.x.empty()) {
      ladder.title += " (" + anchor + " = 0)";
      ladder.series = {elo, low, high};
      for (const ChartSeries& r : references)
        if (r.label != anchor) ladder.series.push_back(r);
    }
  }

  for (Chart* by_generation : {&strength, &speed, &evals, &fit}) by_generation->whole_x = true;
  ladder.whole_x = !by_hours;

  const bool graded = run.graded(), fitted = run.fitted();
  std::string table = std::string("<table><thead><tr><th>generation</th><th>promoted</th><th>gate score</th>") +
                      (graded   ? "<th>policy acc.</th><th>mcts acc.</th><th>value acc.</th><th>random policy</th>"
                       : fitted ? "<th>vs hand</th><th>log loss</th><th>hand</th><th>material</th>"
                                : "<th>vs greedy</th><th>margin vs greedy</th>") +
                      "<th>self-play games/min</th><th>training s</th></tr></thead><tbody>";
  for (const GenerationRecord& r : run.generations) {
    const Accuracies a = accuracies_or_nan(r);
    table += std::string("<tr") + (r.promoted ? " class=\"promoted\"" : "") + "><td>" + std::to_string(r.generation) +
             "</td><td>" + (r.promoted ? "yes" : "no") + "</td><td>" + cell(gate_score_or_nan(r), 3) + "</td><td>" +
             (graded   ? cell(a.policy, 4) + "</td><td>" + cell(a.mcts, 4) + "</td><td>" + cell(a.value, 4) +
                             "</td><td>" + cell(a.random, 4)
              : fitted ? cell(eval_score_or_nan(r), 3) + "</td><td>" + cell(log_losses_or_nan(r).learned, 4) +
                             "</td><td>" + cell(log_losses_or_nan(r).hand, 4) + "</td><td>" +
                             cell(log_losses_or_nan(r).material, 4)
                       : cell(eval_score_or_nan(r), 3) + "</td><td>" + cell(r.eval_margin, 1)) +
             "</td><td>" + cell(r.selfplay_seconds > 0 ? r.selfplay_games_per_minute : std::nan(""), 1) + "</td><td>" +
             cell(r.train_seconds, 1) + "</td></tr>";
  }
  table += "</tbody></table>";

  const std::string name = html_escape(root.filename().string());
  const std::string now = now_section(root);
  // While the run goes on, the page reloads itself: the run rewrites it as
  // each stage begins and every minute or so.
  const bool live = !now.empty() && now.find("data-state=\"finished\"") == std::string::npos;
  std::string html = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">" +
                     std::string(live ? "<meta http-equiv=\"refresh\" content=\"60\">" : "") + "<title>run " + name +
                     "</title><style>" + kStyle + kChartStyle + "</style></head><body><header><h1>mushroom run: " + name +
                     "</h1><div class=\"muted\">" + count_of(int64_t(run.generations.size()), "generation") + ", " +
                     count_of(int64_t(run.training.size()), "training log line") + "</div>" + now + "</header><main>";
  if (run.generations.empty())
    html += "<p class=\"muted\">No generation has finished yet: this page is written again as each one ends, with "
            "its charts, its row below and its sample games. Reload it then.</p>";
  html += "<div class=\"charts\">" + chart_figure(loss) + chart_figure(strength) + chart_figure(speed) +
          chart_figure(evals) + (run.fitted() ? chart_figure(fit) : std::string()) +
          (ladder.series.empty() ? std::string() : chart_figure(ladder)) + "</div>";
  if (fs::exists(root / "ladder" / "ladder.html"))
    html += "<p>The run's ladder, every program's current rating and its games: <a href=\"ladder/ladder.html\">"
            "ladder/ladder.html</a></p>";
  html += "<h2>Generations</h2>" + table;
  html += games_section(root, options);
  // Each figure is drawn once, above; the gnuplot PNG of the same figures is
  // linked for those who want a file to paste.
  if (fs::exists(root / "plots" / "run.png"))
    html += "<p class=\"muted\">The same figures as one PNG (gnuplot): <a href=\"plots/run.png\">plots/run.png</a></p>";
  html += "</main>" + chart_scripts() + (now.empty() ? "" : kCountdownScript) + "</body></html>\n";
  const std::string path = (root / "dashboard.html").string();
  write_file_atomic(path, html);
  return path;
}

}  // namespace mushroom::view
