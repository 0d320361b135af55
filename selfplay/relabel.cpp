#include "selfplay/relabel.h"

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <thread>

#include "alphabeta/playing_search.h"
#include "alphabeta/probcut.h"
#include "mushroom/static_evaluator.h"
#include "selfplay/shard.h"
#include "util/hash.h"
#include "util/progress.h"
#include "util/text.h"

namespace mushroom::selfplay {

namespace fs = std::filesystem;

void LabelChange::add(int old_score, int new_score, bool old_exact, bool new_exact) {
  ++samples;
  proven += new_exact;
  was_exact += old_exact;
  const bool flip = (old_score > 0 && new_score < 0) || (old_score < 0 && new_score > 0);
  const double change = double(new_score - old_score) / kEvalScale;
  sign_flips += flip;
  abs_cells += std::abs(change);
  signed_cells += change;
  if (new_exact) {
    proven_sign_flips += flip;
    proven_abs_cells += std::abs(change);
    proven_signed_cells += change;
  }
}

void LabelChange::add(const LabelChange& o) {
  samples += o.samples;
  proven += o.proven;
  was_exact += o.was_exact;
  sign_flips += o.sign_flips;
  abs_cells += o.abs_cells;
  signed_cells += o.signed_cells;
  proven_sign_flips += o.proven_sign_flips;
  proven_abs_cells += o.proven_abs_cells;
  proven_signed_cells += o.proven_signed_cells;
}

namespace {

using Clock = std::chrono::steady_clock;

void check_job(const RelabelJob& job) {
  if (job.mode != "search" && job.mode != "exact" && job.mode != "horizon" && job.mode != "focus")
    throw std::invalid_argument("relabel mode '" + job.mode +
                                "' is unknown: use \"search\", \"exact\", \"horizon\" or \"focus\"");
  if (job.mode == "horizon" && !(job.horizon_lambda > 0 && job.horizon_lambda <= 1))
    throw std::invalid_argument("relabel mode \"horizon\" needs a lambda in (0, 1], not " +
                                format_fixed(job.horizon_lambda, 3));
  if (job.mode == "exact" && job.label.exact_mushrooms <= 0)
    throw std::invalid_argument("relabel mode \"exact\" needs evalplay.exact_mushrooms above 0: it says which "
                                "positions the endgame solver is tried on");
  if (job.mode == "focus" && job.label.focus_depth <= 0)
    throw std::invalid_argument("relabel mode \"focus\" needs evalplay.focus_label_depth above 0: it says how deep "
                                "the band's positions are searched");
  if (job.min_left < 0 || job.max_left > 170 || job.min_left > job.max_left)
    throw std::invalid_argument("the mushrooms-left range [" + std::to_string(job.min_left) + ", " +
                                std::to_string(job.max_left) + "] is not within [0, 170]");
  if (job.limit < 0) throw std::invalid_argument("the sample limit must not be negative");
  if (job.threads < 1 || job.threads > 256) throw std::invalid_argument("relabel threads must be in [1, 256]");
  if (job.shards.empty()) throw std::invalid_argument("no shards to relabel (no *.h5 under " + job.data_root + ")");
  if (job.out_dir.empty()) throw std::invalid_argument("no output folder given");
  std::error_code ec;
  if (fs::exists(job.out_dir) && fs::equivalent(job.out_dir, job.data_root, ec))
    throw std::invalid_argument("the output folder " + job.out_dir + " is the input folder: relabelled shards "
                                "would replace the data they are made from");
  check_label_config(job.label);
  check_label_fit(job.label, job.evaluation.get(), job.probcut.get(), job.probcut_id);
  for (const std::string& shard : job.shards) {
    const std::string game = read_shard_meta(shard).game;
    if (!is_eval_schema(game))
      throw std::invalid_argument(shard + ": a " + game + " shard; only learned-evaluation data (" +
                                  eval_schema_names() + ") can be relabelled");
    if (job.mode == "horizon" && game != mushroom_eval_schema().game)
      throw std::invalid_argument(shard + ": a " + game + " shard; relabel mode \"horizon\" needs " +
                                  mushroom_eval_schema().game + " data, which says which moves were random");
  }
}

// The settings a pass labels with, as recorded in out_dir/settings.json:
// everything that changes what an output shard holds (not the threads).
nlohmann::json settings_record(const RelabelJob& job) {
  std::string fingerprint;
  if (job.evaluation) {
    const std::string bytes = nnue::serialize_network(*job.evaluation);
    fingerprint = fnv1a64_hex(bytes.data(), bytes.size());
  }
  std::string fit_fingerprint;  // of the fit's facts, not its comments
  if (job.probcut) {
    const std::string text = format_probcut_fit(*job.probcut);
    fit_fingerprint = fnv1a64_hex(text.data(), text.size());
  }
  nlohmann::json record = {{"data", fs::weakly_canonical(fs::absolute(job.data_root)).string()},
          {"label_depth", job.label.depth},
          {"label_nodes", job.label.nodes},
          {"label_search", job.label.search},
          {"label_parity_mean", job.label.parity_mean},
          {"label_probcut", job.label.probcut},
          {"probcut_fit", job.probcut ? job.probcut_id : std::string()},
          {"probcut_fit_fnv1a64", fit_fingerprint},
          {"exact_mushrooms", job.label.exact_mushrooms},
          {"exact_nodes", job.label.exact_nodes},
          {"mode", job.mode},
          {"horizon_lambda", job.mode == "horizon" ? nlohmann::json(job.horizon_lambda) : nlohmann::json()},
          {"evaluation", job.evaluation ? job.evaluation_id : std::string("hand")},
          {"evaluation_fnv1a64", fingerprint},
          {"min_left", job.min_left},
          {"max_left", job.max_left},
          {"limit", job.limit}};
  // The focus band's depth and ends, or 0 when off.
  record["focus_label_depth"] = job.label.focus_depth > 0
                                    ? nlohmann::json{job.label.focus_depth, job.label.focus_min, job.label.focus_max}
                                    : nlohmann::json(0);
  // ProbCut prunes the label's search at the contest bot's sigmas, which
  // have changed (1.5, then 1.25 in issue 99): a pass goes on only at its own.
  record["label_probcut_sigmas"] =
      job.label.probcut ? nlohmann::json(playing_search_config().probcut_sigmas) : nlohmann::json();
  return record;
}

std::string settings_path(const RelabelJob& job) { return (fs::path(job.out_dir) / "settings.json").string(); }

// A pass run again into a folder goes on only with the settings it began
// with: its finished shards are kept, so other settings would pass off the
// old labels as new ones. Throws std::invalid_argument naming each setting
// that changed (old and new value), or a folder of shards without a record;
// otherwise records the settings (before any shard is written).
void check_or_record_settings(const RelabelJob& job) {
  const nlohmann::json now = settings_record(job);
  const std::string path = settings_path(job);
  if (fs::exists(path)) {
    nlohmann::json was;
    try {
      was = nlohmann::json::parse(read_file(path));
    } catch (const nlohmann::json::exception& e) {
      throw std::invalid_argument(path + " does not read as JSON (" + e.what() + "); remove the folder " +
                                  job.out_dir + " or choose another output folder");
    }
    // Settings recorded since issue 84, as a record made before them stands
    // for them (it labelled without ProbCut, without a focus band, and a
    // ProbCut pass at the sigmas of its time, 1.5): such a pass resumes.
    const nlohmann::json recorded_later = {
        {"label_probcut", false},
        {"probcut_fit", ""},
        {"probcut_fit_fnv1a64", ""},
        {"focus_label_depth", 0},
        {"label_probcut_sigmas",
         was.is_object() && was.value("label_probcut", false) ? nlohmann::json(1.5) : nlohmann::json()}};
    std::string changes;
    for (const auto& [key, value] : now.items()) {
      const std::string old = was.contains(key)            ? was[key].dump()
                              : recorded_later.contains(key) ? recorded_later[key].dump()
                                                             : "absent";
      if (old != value.dump()) changes += (changes.empty() ? "" : "; ") + key + " was " + old + ", now " + value.dump();
    }
    if (!changes.empty())
      throw std::invalid_argument("relabel: " + job.out_dir + " holds a pass made with other settings (" + changes +
                                  "); its finished shards would be kept as this pass's "
                                  "labels: run it with the settings in " + path +
                                  ", remove the folder or choose another output folder");
    return;
  }
  if (!find_shards(job.out_dir).empty())
    throw std::invalid_argument("relabel: " + job.out_dir + " holds shards but no settings.json (a pass from before "
                                "the settings were recorded): its settings cannot be checked; remove the folder or "
                                "choose another output folder");
  fs::create_directories(job.out_dir);
  write_file_atomic(path, now.dump(2) + "\n");
}

// The output path of an input shard: its path below the data root, under
// the output folder (the file name alone when it is not below the root).
std::string output_path(const RelabelJob& job, const std::string& shard) {
  fs::path rel = fs::path(shard).lexically_relative(job.data_root);
  if (rel.empty() || *rel.begin() == "..") rel = fs::path(shard).filename();
  return (fs::path(job.out_dir) / rel).string();
}

bool kept_by_range(const RelabelJob& job, const Sample& s, const SampleSchema& schema) {
  const int left = eval_position_of(s, schema).mushrooms_left();
  return left >= job.min_left && left <= job.max_left;
}

// With a limit: which of the `total` samples in range are kept, evenly
// spread (the k-th in range is kept when (k + 1) * limit / total steps up).
bool kept_by_limit(const RelabelJob& job, int64_t k, int64_t total) {
  if (job.limit <= 0 || job.limit >= total) return true;
  return (k + 1) * job.limit / total > k * job.limit / total;
}

nlohmann::json change_json(const LabelChange& c) {
  const double n = double(std::max<int64_t>(c.samples, 1)), proven = double(std::max<int64_t>(c.proven, 1));
  return {{"samples", c.samples},
          {"proven_mean_abs_change_cells", c.proven_abs_cells / proven},
          {"proven_mean_change_cells", c.proven_signed_cells / proven},
          {"proven_sign_flip_rate", double(c.proven_sign_flips) / proven},
          {"proven", c.proven},
          {"was_exact", c.was_exact},
          {"mean_abs_change_cells", c.abs_cells / n},
          {"mean_change_cells", c.signed_cells / n},
          {"sign_flips", c.sign_flips},
          {"sign_flip_rate", double(c.sign_flips) / n}};
}

void write_report(const RelabelJob& job, const RelabelReport& r) {
  nlohmann::json bands = nlohmann::json::array();
  for (size_t b = 0; b < r.bands.size(); ++b) {
    if (r.bands[b].samples == 0) continue;
    nlohmann::json j = change_json(r.bands[b]);
    j["mushrooms_left"] = {RelabelReport::band_first(b), RelabelReport::band_last(b)};
    bands.push_back(j);
  }
  const nlohmann::json report = {{"label", describe(job.label)},
                                 {"mode", job.mode},
                                 {"horizon_lambda", job.mode == "horizon" ? nlohmann::json(job.horizon_lambda) : nlohmann::json()},
                                 {"evaluation", job.evaluation_id},
                                 {"probcut_fit", job.probcut ? job.probcut_id : std::string()},
                                 {"mushrooms_left", {job.min_left, job.max_left}},
                                 {"limit", job.limit},
                                 {"input_samples", r.input_samples},
                                 {"shards_written", r.shards_written},
                                 {"shards_skipped", r.shards_skipped},
                                 {"search_nodes", r.search_nodes},
                                 {"searched", r.searched},
                                 {"seconds", r.seconds},
                                 {"total", change_json(r.total)},
                                 {"bands", bands}};
  write_file_atomic((fs::path(job.out_dir) / "report.json").string(), report.dump(2) + "\n");
}

}  // namespace

std::vector<int> horizon_scores(const std::vector<Sample>& samples, const SampleSchema& schema, double lambda) {
  std::vector<int> scores(samples.size());
  std::vector<EvalLabels> labels(samples.size());
  std::map<int64_t, std::vector<size_t>> games;  // each game's samples
  for (size_t i = 0; i < samples.size(); ++i) {
    labels[i] = eval_labels_of(samples[i], schema);
    games[samples[i].game_id].push_back(i);
  }
  for (auto& [id, order] : games) {
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return samples[a].ply < samples[b].ply; });
    double next_target = 0;  // of the sample after the current one, in its side's view
    for (size_t k = order.size(); k-- > 0;) {
      const size_t i = order[k];
      const bool follows = k + 1 < order.size() && samples[order[k + 1]].ply == samples[i].ply + 1;
      double target = labels[i].search_score;
      if (follows && !labels[i].exact && !labels[i].random_move) target = (1 - lambda) * target - lambda * next_target;
      scores[i] = int(std::lround(target));
      next_target = target;
    }
  }
  return scores;
}

RelabelReport relabel(const RelabelJob& job) {
  check_job(job);
  check_or_record_settings(job);
  const auto start = Clock::now();
  RelabelReport report;

  // With a limit, count the samples in range first, so the kept ones spread over all of them.
  int64_t in_range_total = 0;
  if (job.limit > 0)
    for (const std::string& path : job.shards) {
      const std::string game = read_shard_meta(path).game;
      for (const Sample& s : read_shard(path, game).samples) in_range_total += kept_by_range(job, s, sample_schema(game));
    }

  // The progress reporter counts shards (util/progress.h); a stopped
  // pass's finished ones count as done.
  int64_t finished_before = 0;
  for (const std::string& path : job.shards) finished_before += fs::exists(output_path(job, path));
  mushroom::progress().set_total(int64_t(job.shards.size()), finished_before);

  int64_t in_range_seen = 0, done = 0;
  auto last_line = start;
  for (const std::string& path : job.shards) {
    const std::string out = output_path(job, path);
    const std::string game = read_shard_meta(path).game;
    const SampleSchema& schema = sample_schema(game);
    const Shard in = read_shard(path, game);
    report.input_samples += int64_t(in.samples.size());
    std::vector<const Sample*> kept;
    for (const Sample& s : in.samples) {
      if (!kept_by_range(job, s, schema)) continue;
      if (kept_by_limit(job, in_range_seen++, in_range_total)) kept.push_back(&s);
    }
    if (fs::exists(out)) {  // a stopped pass's finished shard (the same settings): counted, not labelled again
      const Shard there = read_shard(out, mushroom_eval_schema().game);
      if (there.samples.size() != kept.size())
        throw std::invalid_argument(out + " holds " + std::to_string(there.samples.size()) + " samples where this "
                                    "pass keeps " + std::to_string(kept.size()) + " of " + path + ": it was made "
                                    "from other data under the same settings; remove it or choose another output "
                                    "folder");
      for (size_t i = 0; i < kept.size(); ++i) {
        const EvalLabels old = eval_labels_of(*kept[i], schema), now = eval_labels_of(there.samples[i]);
        const size_t band = RelabelReport::band_of(eval_position_of(there.samples[i]).mushrooms_left());
        report.bands[band].add(old.search_score, now.search_score, old.exact, now.exact);
        report.total.add(old.search_score, now.search_score, old.exact, now.exact);
      }
      done += int64_t(kept.size());
      ++report.shards_skipped;
      continue;
    }
    std::vector<Sample> written(kept.size());
    std::vector<int> horizon;  // "horizon": the new label of each sample of the shard
    std::vector<size_t> kept_index(kept.size());  // each kept sample's index in the shard
    if (job.mode == "horizon") {
      horizon = horizon_scores(in.samples, schema, job.horizon_lambda);
      for (size_t i = 0; i < kept.size(); ++i) kept_index[i] = size_t(kept[i] - in.samples.data());
    }
    std::vector<LabelChange> changes(report.bands.size() * size_t(job.threads));  // each thread's bands
    std::atomic<size_t> next{0};
    std::atomic<uint64_t> nodes{0};
    std::atomic<int64_t> searched{0};  // samples given a search's label (not "exact", "horizon", or outside "focus"'s band)
    std::atomic<int64_t> finished{0};
    std::atomic<bool> failed{false};
    std::mutex error_mutex;
    std::exception_ptr error;  // the first worker's error, rethrown once all have stopped
    auto work = [&](int t) {
      try {
        Labeller labeller(job.label, job.evaluation.get(), job.probcut.get());
        for (size_t i; !failed && (i = next.fetch_add(1)) < kept.size();) {
          const Sample& s = *kept[i];
          const Position pos = eval_position_of(s, schema);
          const EvalLabels old = eval_labels_of(s, schema);
          EvalLabels labels = old;
          if (job.mode == "horizon") {
            labels.search_score = horizon[kept_index[i]];
          } else if (job.mode == "exact") {
            if (const std::optional<Label> proven = labeller.prove(pos)) {
              labels.search_score = proven->labels.search_score;
              labels.exact = true;
            }
          } else if (job.mode == "focus" && !job.label.in_focus_band(pos.mushrooms_left())) {
            // Outside the band: the label stays.
          } else {
            const Label label = labeller.label(pos);
            labels.search_score = label.labels.search_score;
            labels.exact = label.labels.exact;
            nodes += label.search_nodes;
            ++searched;
          }
          Sample fresh = eval_sample(pos, labels);
          fresh.outcome = s.outcome;
          fresh.weight = s.weight;
          fresh.game_id = s.game_id;
          fresh.search_value = float(labels.search_score) / float(kEvalScale);
          written[i] = std::move(fresh);
          changes[size_t(t) * report.bands.size() + RelabelReport::band_of(pos.mushrooms_left())].add(
              old.search_score, labels.search_score, old.exact, labels.exact);
          ++finished;
        }
      } catch (...) {
        std::lock_guard<std::mutex> lock(error_mutex);
        if (!error) error = std::current_exception();
        failed = true;
      }
    };
    std::vector<std::thread> threads;
    for (int t = 0; t < job.threads; ++t) threads.emplace_back(work, t);
    // Progress from this thread while the workers label.
    while (!failed && finished.load() < int64_t(kept.size())) {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      const auto now = Clock::now();
      mushroom::progress().set_detail(std::to_string(done + finished.load()) + " samples");
      if (job.progress && std::chrono::duration<double>(now - last_line).count() >= job.progress_seconds) {
        last_line = now;
        const double seconds = std::chrono::duration<double>(now - start).count();
        job.progress("relabel: " + std::to_string(done + finished.load()) + " samples, " +
                     std::to_string(int(std::lround((done + finished.load()) / std::max(seconds, 1e-9)))) +
                     " a second, shard " + std::to_string(report.shards_written + report.shards_skipped + 1) + "/" +
                     std::to_string(job.shards.size()));
      }
    }
    for (std::thread& t : threads) t.join();
    if (error) std::rethrow_exception(error);
    done += int64_t(kept.size());
    report.search_nodes += nodes.load();
    report.searched += searched.load();
    for (size_t k = 0; k < changes.size(); ++k) {
      report.bands[k % report.bands.size()].add(changes[k]);
      report.total.add(changes[k]);
    }
    ShardMeta meta = in.meta;
    meta.game = mushroom_eval_schema().game;
    const std::string mode =
        job.mode == "horizon" ? "horizon lambda " + format_fixed(job.horizon_lambda, 3) : job.mode;
    meta.model_id = "relabel(" + describe(job.label) + ", " + mode + ") of " + in.meta.model_id + " by " +
                    (job.evaluation_id.empty() ? "the hand evaluation" : job.evaluation_id);
    fs::create_directories(fs::path(out).parent_path());
    write_shard(out, meta, written);
    ++report.shards_written;
    mushroom::progress().add();
    if (job.progress)
      job.progress("relabel: wrote " + out + " (" + std::to_string(written.size()) + " samples)");
  }
  report.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  write_report(job, report);
  return report;
}

std::string format_report(const RelabelReport& r) {
  // Among the proven: the exact labels' distance from the old ones (shown when any was proven).
  const bool any_proven = r.total.proven > 0;
  std::string out = "mushrooms left | samples | proven | mean |change| | mean change | sign flips";
  out += any_proven ? " | among proven: mean |change|, sign flips\n" : "\n";
  char line[200];
  auto row = [&](const std::string& name, const LabelChange& c) {
    const double n = double(std::max<int64_t>(c.samples, 1)), p = double(std::max<int64_t>(c.proven, 1));
    std::snprintf(line, sizeof line, "%14s | %7lld | %5.1f%% | %8.2f cells | %+8.2f cells | %5.1f%%", name.c_str(),
                  (long long)c.samples, 100.0 * c.proven / n, c.abs_cells / n, c.signed_cells / n,
                  100.0 * c.sign_flips / n);
    out += line;
    if (any_proven) {
      std::snprintf(line, sizeof line, " | %8.2f cells, %5.1f%%", c.proven_abs_cells / p,
                    100.0 * c.proven_sign_flips / p);
      out += line;
    }
    out += "\n";
  };
  for (size_t b = 0; b < r.bands.size(); ++b)
    if (r.bands[b].samples)
      row(std::to_string(RelabelReport::band_first(b)) + "-" + std::to_string(RelabelReport::band_last(b)), r.bands[b]);
  row("all", r.total);
  std::snprintf(line, sizeof line, "%lld samples relabelled of %lld read, %d shards written, %d already there, %.1f s\n",
                (long long)r.total.samples, (long long)r.input_samples, r.shards_written, r.shards_skipped, r.seconds);
  out += line;
  return out;
}

}  // namespace mushroom::selfplay
