// The records a run directory keeps, as typed structs, and their one JSON
// form (written and read with nlohmann/json, inside run_records.cpp only):
//   metrics/gen-NNNN.json        one GenerationRecord per finished generation
//   metrics/train-gen-NNNN.jsonl one TrainLine per logged training step
//   metrics/train-gen-NNNN.summary.json  one TrainLine: the training stage's
//                                figures, its losses the last steps' means
//                                (run/train_summary.h)
//   models/promoted.txt          the promoted model's file name, one line
// A number that is not finite is written as null and read back as NaN; a
// field missing from an older record reads as NaN (or 0 for counts).
#pragma once
#include <cmath>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace mushroom::view {

class RecordError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One logged training step.
struct TrainLine {
  int generation = 0;
  int step = 0;
  int64_t samples_seen = 0;  // over the model's whole life
  double lr = 0;
  double loss = 0, policy = 0, value = 0, score = 0, ownership = 0, policy_entropy = 0;
  int64_t window = 0;  // samples in the training window
  // The step's gradient norm before any clipping (train.grad_clip); NaN in
  // records from before the field.
  double grad_norm = std::nan("");
};

// BLOCKGAME runs: the candidate graded against the exact solver.
struct GradeRecord {
  double policy_accuracy = 0, mcts_accuracy = 0, value_accuracy = 0, random_accuracy = 0;
  int positions = 0;
};

// Learned-evaluation runs: how well the candidate's evaluation predicts the
// results of held-out games (log loss of sigmoid(evaluation / s), each
// predictor with its best scale s), against the hand evaluation and the
// material margin alone.
struct FitRecord {
  double learned_log_loss = 0, hand_log_loss = 0, material_log_loss = 0;
  int positions = 0;
  // The training target's loss on the held-out positions (win-probability
  // squared error against their search scores): learned and hand. NaN in
  // records written before it was measured.
  double learned_search_loss = std::nan(""), hand_search_loss = std::nan("");
  // Mean absolute error in cells on the held-out positions, against their
  // search scores and against their games' final margins: learned and hand.
  // NaN in records written before it was measured.
  double learned_search_cells = std::nan(""), hand_search_cells = std::nan("");
  double learned_result_cells = std::nan(""), hand_result_cells = std::nan("");
};

// The candidate's rating on the run's ladder when it was placed there
// (run/ladder_stage.h), in Elo against the anchor.
struct LadderRecord {
  double elo = 0, low = 0, high = 0;
  int games = 0;
  std::string anchor;
  // The run's fixed reference programs' ratings on the same list at that
  // moment (name, Elo), the anchor's 0 included; empty in older records.
  std::vector<std::pair<std::string, double>> references{};
};

// What one generation of `mushroom run` did: self-play, training, gating
// and evaluation.
struct GenerationRecord {
  int generation = 0;
  bool promoted = false;
  // Self-play (actor).
  int64_t selfplay_games = 0;  // finished games in the generation, earlier sessions included
  double selfplay_seconds = 0, selfplay_games_per_minute = 0;
  int64_t selfplay_samples = 0;
  double mean_game_plies = 0, batch_fill = 0;
  double nn_positions = 0;
  std::optional<double> device_busy;  // share of self-play time with a device call in flight; none on a CPU backend
  // Training (learner).
  int train_steps = 0;
  double train_seconds = 0, loss = 0;
  int64_t samples_seen = 0;
  // Gating and evaluation (gatekeeper).
  int gate_games = 0;
  double gate_score = 0;
  int eval_games = 0;
  std::optional<double> eval_score;  // against greedy; none when not evaluated
  double eval_margin = 0;
  std::optional<GradeRecord> grade;
  std::optional<FitRecord> fit;
  std::optional<LadderRecord> ladder;
  // Wall seconds the run had spent, all stages and sessions, when this
  // generation was recorded (run/run_loop.h); NaN in older records.
  double run_seconds = std::nan("");
  // Each stage's whole length in seconds ("self-play", "train", "fit",
  // "gate", "ladder"), as the progress reporter timed it (util/progress.h):
  // a resumed run's estimate starts from them. Only the stages that worked
  // in the session that finished the generation; empty in older records.
  std::vector<std::pair<std::string, double>> stage_seconds{};
  // Provenance: the build that recorded it (util/version.h) and the hash of
  // the run config it ran under ("" in records from before these fields).
  std::string mushroom_version, config_hash;
};

std::string to_json_line(const TrainLine& line);  // one line, '\n' ended
TrainLine parse_train_line(const std::string& text, const std::string& source);

std::string to_json(const GenerationRecord& record);  // one line, '\n' ended
// A fit alone (`mushroom train --heldout`'s heldout.json): its fields as a
// generation record names them, indented, '\n' ended.
std::string to_json(const FitRecord& fit);
// Throws RecordError naming source when the text is not a JSON object or a
// field has the wrong type.
GenerationRecord parse_generation_record(const std::string& text, const std::string& source);

// Reads one record file / every line of a .jsonl file (blank lines skipped).
GenerationRecord read_generation_record(const std::string& path);
std::vector<TrainLine> read_train_lines(const std::string& path);

// The model a run directory's models/promoted.txt names, as a path ("" when
// there is none yet); throws RecordError naming the file when it holds
// anything but one file name.
std::string promoted_model_of_run(const std::string& run_dir);

}  // namespace mushroom::view
