#include "selfplay/relabel.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "alphabeta/alphabeta.h"
#include "alphabeta/playing_search.h"
#include "alphabeta/probcut.h"
#include "endgame/endgame_solver.h"
#include "mushroom/board_gen.h"
#include "nnue/evaluator.h"
#include "nnue/network.h"
#include "selfplay/eval_selfplay.h"
#include "selfplay/shard.h"
#include "util/hash.h"
#include "util/scratch_folder_test_util.h"
#include "util/text.h"

namespace mushroom::selfplay {
namespace {

namespace fs = std::filesystem;

// Learned-evaluation data of a few depth-2 games, made once for the file.
const std::string& data_dir() {
  static const std::string dir = [] {
    const std::string d = (test_scratch_dir() / "relabel_data").string();
    fs::remove_all(d);
    EvalSelfplayJob job;
    job.job.config.workers = 2;
    job.job.config.samples_per_shard = 60;
    job.job.config.random_opening_plies = 4;
    job.job.out_dir = d;
    job.job.games = 6;
    job.job.first_game_id = 7100;
    job.eval.label_depth = 2;
    run_eval_selfplay(job);
    return d;
  }();
  return dir;
}

RelabelJob job_into(const std::string& name, LabelConfig label) {
  RelabelJob job;
  job.data_root = data_dir();
  job.shards = find_shards(data_dir());
  job.out_dir = (test_scratch_dir() / name).string();
  fs::remove_all(job.out_dir);
  job.label = label;
  job.threads = 2;
  return job;
}

// Every sample of every shard under dir, in shard order.
std::vector<Sample> all_samples(const std::string& dir) {
  std::vector<Sample> out;
  for (const std::string& path : find_shards(dir)) {
    const Shard shard = read_shard(path, mushroom_eval_schema().game);
    out.insert(out.end(), shard.samples.begin(), shard.samples.end());
  }
  return out;
}

// Labelled again with the settings that made it, the data comes back the
// same, sample for sample: the pass keeps positions, results and ids.
TEST(Relabel, TheSameSettingsGiveTheSameData) {
  const RelabelJob job = job_into("relabel_same", LabelConfig{.depth = 2});
  const RelabelReport report = relabel(job);
  const std::vector<Sample> before = all_samples(data_dir()), after = all_samples(job.out_dir);
  ASSERT_EQ(before.size(), after.size());
  ASSERT_GT(before.size(), 50u);
  EXPECT_EQ(report.total.samples, int64_t(before.size()));
  EXPECT_EQ(report.total.abs_cells, 0.0);
  EXPECT_EQ(report.total.sign_flips, 0);
  EXPECT_EQ(report.shards_written, int(find_shards(data_dir()).size()));
  for (size_t i = 0; i < before.size(); ++i) {
    EXPECT_EQ(before[i].data, after[i].data) << i;
    EXPECT_EQ(before[i].game_id, after[i].game_id);
    EXPECT_EQ(before[i].outcome, after[i].outcome);
  }
  EXPECT_TRUE(fs::exists(fs::path(job.out_dir) / "report.json"));
}

// With the playing search, each label is that search's score of the same
// position, and the final margins stay.
TEST(Relabel, ThePlayingSearchLabelsTheSamePositions) {
  const RelabelJob job = job_into("relabel_playing", LabelConfig{.depth = 2, .search = "playing"});
  const RelabelReport report = relabel(job);
  const std::vector<Sample> before = all_samples(data_dir()), after = all_samples(job.out_dir);
  ASSERT_EQ(before.size(), after.size());
  AlphaBetaConfig config = playing_search_config();
  config.tt_bits = 18;
  const auto far = AlphaBeta::Clock::now() + std::chrono::hours(1);
  int changed = 0;
  for (size_t i = 0; i < after.size(); ++i) {
    const Position pos = eval_position_of(after[i]);
    EXPECT_EQ(pos.hash(), eval_position_of(before[i]).hash());
    const EvalLabels old = eval_labels_of(before[i]), now = eval_labels_of(after[i]);
    EXPECT_EQ(now.margin, old.margin);
    if (i % 3 == 0) {
      EXPECT_EQ(now.search_score, AlphaBeta(config).search(pos, far, 2).score);
    }
    changed += now.search_score != old.search_score;
  }
  EXPECT_GT(changed, 0);
  EXPECT_GT(report.total.abs_cells, 0.0);
  EXPECT_GT(report.search_nodes, 0u);
}

// The exact mode changes only what the solver proves, to 16 times the
// proven margin; the range keeps only positions inside it, and the limit
// keeps exactly that many.
TEST(Relabel, ExactModeReplacesOnlyProvenLabels) {
  RelabelJob job = job_into("relabel_exact", LabelConfig{.depth = 2, .exact_mushrooms = 90, .exact_nodes = 20'000'000});
  job.mode = "exact";
  job.min_left = 40;
  job.max_left = 90;
  job.limit = 12;
  const RelabelReport report = relabel(job);
  const std::vector<Sample> after = all_samples(job.out_dir);
  ASSERT_EQ(after.size(), 12u);
  std::map<int64_t, const Sample*> before_by_key;  // (game, ply) -> the input sample
  const std::vector<Sample> before = all_samples(data_dir());
  for (const Sample& s : before) before_by_key[s.game_id * 1000 + s.ply] = &s;
  int proven = 0;
  for (const Sample& s : after) {
    const Position pos = eval_position_of(s);
    EXPECT_GE(pos.mushrooms_left(), 40);
    EXPECT_LE(pos.mushrooms_left(), 90);
    const EvalLabels now = eval_labels_of(s), old = eval_labels_of(*before_by_key.at(s.game_id * 1000 + s.ply));
    if (!now.exact) {
      EXPECT_EQ(now.search_score, old.search_score);
      continue;
    }
    ++proven;
    EndgameSolver solver;
    EXPECT_EQ(now.search_score, kEvalScale * solver.solve(pos, {})->margin);
  }
  EXPECT_GT(proven, 0);
  EXPECT_EQ(report.total.proven, proven);
}

// The focus mode searches again only the positions in the focus band, at
// the focus depth, as a depth-3 labeller labels them; every other sample
// comes back byte for byte, without a search (at label_depth 1, which the
// depth-2 data was not labelled with, a search there would show). The
// band's ends are picked from the data so that an end off by one either
// way changes some sample's label, and the search nodes are counted
// exactly (each label search starts from a cleared table), so a pass that
// also searched outside the band would show.
TEST(Relabel, FocusModeSearchesOnlyTheBandAtItsDepth) {
  const std::vector<Sample> before = all_samples(data_dir());
  Labeller depth1(LabelConfig{.depth = 1}, nullptr), depth3(LabelConfig{.depth = 3}, nullptr);
  // Whether `labeller` changes the (depth-2) label of some sample with `left` mushrooms left.
  auto changes_at = [&](Labeller& labeller, int left) {
    for (const Sample& s : before) {
      const Position pos = eval_position_of(s);
      if (pos.mushrooms_left() == left && labeller.label(pos).labels.search_score != eval_labels_of(s).search_score)
        return true;
    }
    return false;
  };
  // At each end a sample that depth 3 relabels, and just outside it one that depth 1 would.
  int lo = 0, hi = 0;
  for (int v = 105; v <= 120 && !lo; ++v)
    if (changes_at(depth3, v) && changes_at(depth1, v - 1)) lo = v;
  for (int v = 145; v >= 130 && !hi; --v)
    if (changes_at(depth3, v) && changes_at(depth1, v + 1)) hi = v;
  ASSERT_TRUE(lo && hi) << "the data holds no band end that tells an end off by one";

  RelabelJob job = job_into("relabel_focus", LabelConfig{.depth = 1, .focus_depth = 3, .focus_min = lo, .focus_max = hi});
  job.mode = "focus";
  const RelabelReport report = relabel(job);
  const std::vector<Sample> after = all_samples(job.out_dir);
  ASSERT_EQ(before.size(), after.size());
  int in_band = 0, changed = 0, outside = 0, band_depth1_differs = 0;
  uint64_t band_nodes = 0;
  LabelChange band_change;
  for (size_t i = 0; i < after.size(); ++i) {
    const Position pos = eval_position_of(after[i]);
    ASSERT_EQ(pos.hash(), eval_position_of(before[i]).hash()) << i;
    EXPECT_EQ(after[i].game_id, before[i].game_id);
    EXPECT_EQ(after[i].outcome, before[i].outcome);
    EXPECT_EQ(after[i].weight, before[i].weight);
    const EvalLabels old = eval_labels_of(before[i]), now = eval_labels_of(after[i]);
    const int left = pos.mushrooms_left();
    if (left < lo || left > hi) {
      EXPECT_EQ(after[i].data, before[i].data) << i << ": outside the band, " << left << " left";
      EXPECT_EQ(after[i].search_value, before[i].search_value) << i;
      ++outside;
      continue;
    }
    ++in_band;
    const Label want = depth3.label(pos);
    EXPECT_EQ(now.search_score, want.labels.search_score) << i << ", " << left << " left";
    EXPECT_EQ(now.random_move, old.random_move);
    EXPECT_EQ(now.margin, old.margin);
    band_nodes += want.search_nodes;
    band_depth1_differs += depth1.label(pos).labels.search_score != want.labels.search_score;
    changed += now.search_score != old.search_score;
    band_change.add(old.search_score, now.search_score, old.exact, now.exact);
  }
  EXPECT_GT(in_band, 10);
  EXPECT_GT(outside, 10);
  EXPECT_GT(changed, 0) << "depth 3 gave every band position its depth-2 label";
  EXPECT_GT(band_depth1_differs, 0) << "a band searched at label_depth would not show";
  EXPECT_EQ(report.total.samples, int64_t(after.size()));
  EXPECT_DOUBLE_EQ(report.total.abs_cells, band_change.abs_cells);
  EXPECT_DOUBLE_EQ(report.total.signed_cells, band_change.signed_cells);
  EXPECT_EQ(report.total.sign_flips, band_change.sign_flips);
  EXPECT_EQ(report.searched, in_band);
  EXPECT_EQ(report.search_nodes, band_nodes) << "only the band's positions are searched, each once";
  const nlohmann::json record = nlohmann::json::parse(read_file(job.out_dir + "/settings.json"));
  EXPECT_EQ(record.at("mode"), "focus");
  EXPECT_EQ(record.at("focus_label_depth"), nlohmann::json({3, lo, hi}));
  const nlohmann::json written = nlohmann::json::parse(read_file(job.out_dir + "/report.json"));
  EXPECT_EQ(written.at("searched"), in_band);
}

// Thrown from a pass's progress line to stop it after some shards, as a
// crash would: the shards written stay, the report is never written.
struct PassStopped {};

// The samples of every shard under dir, by shard name.
std::map<std::string, std::vector<Sample>> samples_by_shard(const std::string& dir) {
  std::map<std::string, std::vector<Sample>> out;
  for (const std::string& path : find_shards(dir))
    out[fs::path(path).lexically_relative(dir).string()] = read_shard(path, mushroom_eval_schema().game).samples;
  return out;
}

// A pass stopped after two shards is run again: the two are counted, not
// labelled again, the others are labelled, and the output and the report
// are those of a pass that never stopped.
TEST(Relabel, AStoppedPassResumesToTheOutputOfAnUnstoppedOne) {
  const LabelConfig playing{.depth = 2, .search = "playing"};
  const RelabelJob whole = job_into("relabel_unstopped", playing);
  const RelabelReport unstopped = relabel(whole);
  const int shards = int(find_shards(data_dir()).size());
  ASSERT_GE(shards, 3) << "too few shards to stop between";

  RelabelJob job = job_into("relabel_resume", playing);
  job.progress_seconds = 1e9;  // only the line at each shard's end
  int written = 0;
  job.progress = [&](const std::string& line) {
    if (line.starts_with("relabel: wrote ") && ++written == 2) throw PassStopped{};
  };
  EXPECT_THROW(relabel(job), PassStopped);
  ASSERT_EQ(find_shards(job.out_dir).size(), 2u) << "the pass did not stop after its second shard";
  ASSERT_FALSE(fs::exists(fs::path(job.out_dir) / "report.json")) << "the stopped pass finished";

  job.progress = nullptr;
  const RelabelReport resumed = relabel(job);
  EXPECT_EQ(resumed.shards_skipped, 2);
  EXPECT_EQ(resumed.shards_written, shards - 2);
  EXPECT_EQ(resumed.total.samples, unstopped.total.samples);
  EXPECT_DOUBLE_EQ(resumed.total.abs_cells, unstopped.total.abs_cells);
  EXPECT_EQ(resumed.total.sign_flips, unstopped.total.sign_flips);
  EXPECT_GT(resumed.total.abs_cells, 0.0);  // the playing search changed labels: the comparison means something
  const auto want = samples_by_shard(whole.out_dir), got = samples_by_shard(job.out_dir);
  ASSERT_EQ(got.size(), want.size());
  for (const auto& [name, samples] : want) {
    ASSERT_TRUE(got.count(name)) << name;
    const std::vector<Sample>& other = got.at(name);
    ASSERT_EQ(other.size(), samples.size()) << name;
    for (size_t i = 0; i < samples.size(); ++i) {
      EXPECT_EQ(other[i].data, samples[i].data) << name << " sample " << i;
      EXPECT_EQ(other[i].game_id, samples[i].game_id);
      EXPECT_EQ(other[i].ply, samples[i].ply);
      EXPECT_EQ(other[i].outcome, samples[i].outcome);
    }
  }
  // Once more: every shard is there, and the report is still the same.
  const RelabelReport again = relabel(job);
  EXPECT_EQ(again.shards_written, 0);
  EXPECT_EQ(again.shards_skipped, shards);
  EXPECT_DOUBLE_EQ(again.total.abs_cells, unstopped.total.abs_cells);
}

// Every file under dir and its bytes.
std::map<std::string, std::string> files_of(const std::string& dir) {
  std::map<std::string, std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file()) out[e.path().string()] = read_file(e.path().string());
  return out;
}

// A pass run again into its folder with other settings would keep the
// first pass's shards as its own labels (their sample counts match): it is
// refused before any work, naming each setting that changed with its old
// and new value, and the folder is left as it was. The same settings on
// other threads go on.
TEST(Relabel, ARerunWithOtherSettingsIsRefusedByName) {
  const RelabelJob job = job_into("relabel_settings", LabelConfig{.depth = 2});
  relabel(job);
  ASSERT_TRUE(fs::exists(fs::path(job.out_dir) / "settings.json"));
  // A pass into a folder of other settings is refused by name, and leaves the folder as it was.
  auto refused = [](const RelabelJob& other, const std::string& words) {
    const std::map<std::string, std::string> before = files_of(other.out_dir);
    try {
      relabel(other);
      ADD_FAILURE() << "a pass with other settings was taken: " << words;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("holds a pass made with other settings"), std::string::npos) << e.what();
    }
    EXPECT_EQ(files_of(other.out_dir), before) << "the refused pass changed the folder: " << words;
  };
  RelabelJob playing = job;
  playing.label.search = "playing";
  refused(playing, "label_search was \"plain\", now \"playing\"");
  RelabelJob deeper = job;
  deeper.label.depth = 3;
  refused(deeper, "label_depth was 2, now 3");
  RelabelJob learned = job;
  learned.evaluation = std::make_shared<nnue::Network>(nnue::read_network("models/eval.bin"));
  learned.evaluation_id = "models/eval.bin";
  refused(learned, "evaluation was \"hand\", now \"models/eval.bin\"");
  RelabelJob fewer = job;
  fewer.limit = 5;
  refused(fewer, "limit was 0, now 5");
  RelabelJob horizon = job;
  horizon.mode = "horizon";
  refused(horizon, "mode was \"search\", now \"horizon\"");
  RelabelJob focused = job;
  focused.label.focus_depth = 3;
  refused(focused, "focus_label_depth was 0, now [3,95,130]");

  // The focus band recorded: a pass with it is refused without it, or with another band.
  RelabelJob band = job_into("relabel_settings_focus", LabelConfig{.depth = 2, .focus_depth = 3});
  band.limit = 4;
  relabel(band);
  EXPECT_EQ(nlohmann::json::parse(read_file(band.out_dir + "/settings.json")).at("focus_label_depth"),
            nlohmann::json({3, 95, 130}));
  RelabelJob unfocused = band;
  unfocused.label.focus_depth = 0;
  refused(unfocused, "focus_label_depth was [3,95,130], now 0");
  RelabelJob moved = band;
  moved.label.focus_min = 100;
  refused(moved, "focus_label_depth was [3,95,130], now [3,100,130]");
  EXPECT_EQ(relabel(band).shards_written, 0);  // the same band goes on

  // The horizon mode's lambda, in a horizon pass's folder.
  RelabelJob half = job_into("relabel_settings_lambda", LabelConfig{.depth = 2});
  half.mode = "horizon";
  half.horizon_lambda = 0.5;
  relabel(half);
  RelabelJob quarter = half;
  quarter.horizon_lambda = 0.25;
  refused(quarter, "horizon_lambda was 0.5, now 0.25");

  // The same settings on one thread: the pass goes on (here, finds every shard done).
  RelabelJob one_thread = job;
  one_thread.threads = 1;
  EXPECT_EQ(relabel(one_thread).shards_written, 0);

  // A folder of shards without the record (a pass from an older build) cannot be checked.
  fs::remove(fs::path(job.out_dir) / "settings.json");
  try {
    relabel(job);
    ADD_FAILURE() << "a folder of shards without settings.json was taken";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("holds shards but no settings.json"), std::string::npos) << e.what();
  }
}

// With a Multi-ProbCut fit (relabel --probcut), the labels are the playing
// search's with the fit, and settings.json records it: a pass run again
// without the fit, or with it into a pass made without, is refused by name;
// a fit made for another evaluation is refused before the folder is made.
// A record from before the fit was recorded stands for a pass without it.
TEST(Relabel, AFitIsRecordedAndARerunWithOrWithoutItIsRefused) {
  LabelConfig on{.depth = 5, .search = "playing"};
  on.probcut = true;
  const auto net = std::make_shared<nnue::Network>(nnue::read_network("models/eval.bin"));
  const auto fit = std::make_shared<ProbCutFit>(read_probcut_fit("models/eval.probcut"));
  auto with_eval = [&](const std::string& name, const LabelConfig& label) {
    RelabelJob job = job_into(name, label);
    job.evaluation = net;
    job.evaluation_id = "models/eval.bin";
    job.limit = 16;
    return job;
  };
  RelabelJob pruned = with_eval("relabel_probcut", on);
  pruned.probcut = fit;
  pruned.probcut_id = "models/eval.probcut";
  relabel(pruned);
  const nlohmann::json record = nlohmann::json::parse(read_file(pruned.out_dir + "/settings.json"));
  EXPECT_TRUE(record.at("label_probcut").get<bool>());
  EXPECT_EQ(record.at("probcut_fit").get<std::string>(), "models/eval.probcut");
  const std::string fit_text = format_probcut_fit(*fit);
  EXPECT_EQ(record.at("probcut_fit_fnv1a64").get<std::string>(), fnv1a64_hex(fit_text.data(), fit_text.size()));
  const std::vector<Sample> after = all_samples(pruned.out_dir);
  ASSERT_EQ(after.size(), 16u);
  AlphaBetaConfig config = playing_search_config();
  config.tt_bits = 18;
  nnue::Evaluator learned(*net);
  for (const Sample& s : after) {
    AlphaBeta search(config, &learned);
    search.set_probcut(fit.get());
    EXPECT_EQ(eval_labels_of(s).search_score,
              search.search(eval_position_of(s), AlphaBeta::Clock::now() + std::chrono::hours(1), 5).score);
  }

  auto refused = [](const RelabelJob& job, const std::string& words) {
    try {
      relabel(job);
      ADD_FAILURE() << "taken: " << words;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    }
  };
  RelabelJob without = pruned;  // into the pruned pass's folder
  without.label.probcut = false;
  without.probcut = nullptr;
  without.probcut_id.clear();
  refused(without, "label_probcut was true, now false");
  // Another fit at the same path for the same evaluation (one spread
  // changed): only its fingerprint tells it apart.
  RelabelJob changed = pruned;
  ProbCutFit refit = *fit;
  ASSERT_FALSE(refit.entries().empty());
  auto [band, pair] = refit.entries().front();
  pair.spread += 1;
  refit.set(band, pair);
  changed.probcut = std::make_shared<ProbCutFit>(refit);
  refused(changed, "probcut_fit_fnv1a64 was");

  RelabelJob full = with_eval("relabel_no_probcut", LabelConfig{.depth = 5, .search = "playing"});
  full.limit = 2;  // a short pass to run into
  relabel(full);
  RelabelJob added = pruned;
  added.out_dir = full.out_dir;
  added.limit = 2;
  refused(added, "label_probcut was false, now true");

  // A record written before issue 84 has none of the fit's keys: a pass without the fit resumes.
  nlohmann::json old = nlohmann::json::parse(read_file(full.out_dir + "/settings.json"));
  EXPECT_TRUE(old.at("label_probcut_sigmas").is_null());  // no ProbCut, no sigmas
  for (const char* key : {"label_probcut", "probcut_fit", "probcut_fit_fnv1a64", "label_probcut_sigmas",
                          "focus_label_depth"})
    old.erase(key);
  write_file_atomic(full.out_dir + "/settings.json", old.dump(2));
  EXPECT_EQ(relabel(full).shards_written, 0);

  // The sigmas ProbCut pruned with are recorded (the contest bot's, 1.25
  // since issue 99): a ProbCut pass recorded before them pruned at 1.5, and
  // is refused rather than finished at other sigmas.
  EXPECT_EQ(record.at("label_probcut_sigmas").get<double>(), playing_search_config().probcut_sigmas);
  nlohmann::json before_sigmas = record;
  before_sigmas.erase("label_probcut_sigmas");
  write_file_atomic(pruned.out_dir + "/settings.json", before_sigmas.dump(2));
  refused(pruned, "label_probcut_sigmas was 1.5, now 1.25");
  write_file_atomic(pruned.out_dir + "/settings.json", record.dump(2));
  EXPECT_EQ(relabel(pruned).shards_written, 0);  // its own record: it goes on

  RelabelJob foreign = with_eval("relabel_foreign_fit", on);
  foreign.probcut = std::make_shared<ProbCutFit>(read_probcut_fit("models/eval-2h-norandom-gen1.probcut"));
  foreign.probcut_id = "models/eval-2h-norandom-gen1.probcut";
  refused(foreign, "ProbCut fit models/eval-2h-norandom-gen1.probcut was made with evaluation");
  EXPECT_FALSE(fs::exists(foreign.out_dir)) << "the refused pass made its folder";
}

// With an evaluation set, the label search uses it: the setup issue 71
// shipped (the playing search's labels with models/eval.bin). Each label is
// that search's score with the learned evaluation at its leaves, and most
// differ from the hand evaluation's.
TEST(Relabel, AnEvaluationSetIsTheLabelSearchsEvaluation) {
  RelabelJob job = job_into("relabel_learned", LabelConfig{.depth = 2, .search = "playing"});
  const nnue::Network net = nnue::read_network("models/eval.bin");
  job.evaluation = std::make_shared<nnue::Network>(net);
  job.evaluation_id = "models/eval.bin";
  relabel(job);
  const std::vector<Sample> after = all_samples(job.out_dir);
  ASSERT_GT(after.size(), 50u);
  AlphaBetaConfig config = playing_search_config();
  config.tt_bits = 18;
  const auto far = AlphaBeta::Clock::now() + std::chrono::hours(1);
  nnue::Evaluator learned(net);
  int checked = 0, differ = 0;
  for (size_t i = 0; i < after.size(); i += 3) {
    const Position pos = eval_position_of(after[i]);
    const int label = eval_labels_of(after[i]).search_score;
    EXPECT_EQ(label, AlphaBeta(config, &learned).search(pos, far, 2).score) << i;
    differ += label != AlphaBeta(config).search(pos, far, 2).score;
    ++checked;
  }
  EXPECT_GT(differ, checked / 2) << "the learned evaluation's labels are mostly the hand evaluation's";
  for (const std::string& path : find_shards(job.out_dir))
    EXPECT_NE(read_shard_meta(path).model_id.find("by models/eval.bin"), std::string::npos) << path;
}

// The horizon mode searches nothing: with lambda 1 each label is the next
// position's target seen from the other side, along each game's run of
// searched moves; a random move, an exact label and a game's last position
// keep their own. Self-play marks the random moves.
TEST(Relabel, TheHorizonModeMixesEachLabelWithTheNextPositions) {
  const std::vector<Sample> before = all_samples(data_dir());
  int random_moves = 0;
  for (const Sample& s : before) random_moves += eval_labels_of(s).random_move;
  EXPECT_GT(random_moves, 0) << "self-play marks its random moves";
  for (const double lambda : {1.0, 0.25}) {
    RelabelJob job = job_into("relabel_horizon", LabelConfig{.depth = 2});
    job.mode = "horizon";
    job.horizon_lambda = lambda;
    const RelabelReport report = relabel(job);
    EXPECT_EQ(report.search_nodes, 0u);
    const std::vector<Sample> after = all_samples(job.out_dir);
    ASSERT_EQ(after.size(), before.size());
    std::map<std::pair<int64_t, int>, size_t> at;  // (game, ply) -> index
    for (size_t i = 0; i < after.size(); ++i) at[{after[i].game_id, after[i].ply}] = i;
    int mixed = 0, kept = 0;
    for (size_t i = 0; i < after.size(); ++i) {
      const EvalLabels old = eval_labels_of(before[i]), now = eval_labels_of(after[i]);
      EXPECT_EQ(now.random_move, old.random_move);
      EXPECT_EQ(now.exact, old.exact);
      EXPECT_EQ(now.margin, old.margin);
      const auto next = at.find({before[i].game_id, before[i].ply + 1});
      if (next == at.end() || old.exact || old.random_move) {
        EXPECT_EQ(now.search_score, old.search_score);
        ++kept;
        continue;
      }
      const int next_target = eval_labels_of(after[next->second]).search_score;
      const double expected = (1 - lambda) * old.search_score - lambda * next_target;
      EXPECT_NEAR(now.search_score, expected, lambda < 1 ? 1.0 : 0.0) << i;
      ++mixed;
    }
    EXPECT_GT(mixed, 20);
    EXPECT_GT(kept, 5);
  }
}

TEST(Relabel, BadInputIsRefusedByNameBeforeAnyWork) {
  auto refused = [](const RelabelJob& job, const std::string& words) {
    try {
      relabel(job);
      ADD_FAILURE() << "taken: " << words;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    }
    EXPECT_FALSE(fs::exists(job.out_dir)) << "work started before the refusal";
  };
  RelabelJob job = job_into("relabel_bad", LabelConfig{.depth = 2});
  RelabelJob exact_without_solver = job;
  exact_without_solver.mode = "exact";
  refused(exact_without_solver, "exact_mushrooms");
  RelabelJob focus_without_depth = job;
  focus_without_depth.mode = "focus";
  refused(focus_without_depth, "relabel mode \"focus\" needs evalplay.focus_label_depth");
  RelabelJob unknown_mode = job;
  unknown_mode.mode = "deeper";
  refused(unknown_mode, "'deeper' is unknown: use \"search\", \"exact\", \"horizon\" or \"focus\"");
  RelabelJob bad_range = job;
  bad_range.min_left = 120;
  bad_range.max_left = 80;
  refused(bad_range, "[120, 80]");
  RelabelJob bad_search = job;
  bad_search.label.search = "quiet";
  refused(bad_search, "'quiet'");
  RelabelJob bad_lambda = job;
  bad_lambda.mode = "horizon";
  bad_lambda.horizon_lambda = 0;
  refused(bad_lambda, "lambda in (0, 1]");

  // The horizon mode needs schema 3, which marks the random moves.
  const std::string old_schema = (test_scratch_dir() / "relabel_v2").string();
  fs::remove_all(old_schema);
  fs::create_directories(old_schema);
  const SampleSchema& v2 = mushroom_eval_v2_schema();
  Sample two = empty_sample(v2);
  two.set(v2.field("cells"), 0, 5);
  ShardMeta v2_meta;
  v2_meta.game = v2.game;
  write_shard((fs::path(old_schema) / "old.h5").string(), v2_meta, {two});
  RelabelJob horizon_on_v2 = job;
  horizon_on_v2.mode = "horizon";
  horizon_on_v2.data_root = old_schema;
  horizon_on_v2.shards = find_shards(old_schema);
  refused(horizon_on_v2, "old.h5: a mushroom-eval2 shard; relabel mode \"horizon\" needs mushroom-eval3");

  // A conv-net shard among the inputs is named.
  const std::string mixed = (test_scratch_dir() / "relabel_mixed").string();
  fs::remove_all(mixed);
  fs::create_directories(mixed);
  fs::copy(find_shards(data_dir()).front(), fs::path(mixed) / "a.h5");
  write_shard((fs::path(mixed) / "b.h5").string(), ShardMeta{}, {sample_from_position(random_board(1))});
  RelabelJob conv = job;
  conv.data_root = mixed;
  conv.shards = find_shards(mixed);
  refused(conv, "b.h5: a mushroom shard");

  // Writing into the data's own folder would replace it.
  RelabelJob in_place = job;
  in_place.out_dir = data_dir();
  try {
    relabel(in_place);
    ADD_FAILURE() << "the input folder was taken as the output";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("is the input folder"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace mushroom::selfplay
