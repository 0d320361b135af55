// The exported single-file bot: it builds alone without warnings, its
// embedded inference matches the engine's net, it plays legal games over the
// protocol (weights in the source or in data.bin), and the committed
// models/submission.cpp and models/data.bin are what export-bot makes of
// models/eval.bin now.
#include "export/exporter.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <sstream>

#include "agents/greedy_agent.h"
#include "alphabeta/alphabeta.h"
#include "alphabeta/playing_search.h"
#include "alphabeta/probcut.h"
#include "arena/arena.h"
#include "mushroom/board_gen.h"
#include "mushroom/movegen.h"
#include "mushroom/mushroom_evaluators.h"
#include "mushroom/position_io.h"
#include "nn/cpu_net.h"
#include "nn/model_codec.h"
#include "nn/model_file.h"
#include "nn/plain_net.h"
#include "nnue/evaluator.h"
#include "util/rng.h"
#include "util/scratch_folder_test_util.h"
#include "util/shell_test_util.h"
#include "util/text.h"

namespace mushroom::exporter {
namespace {

namespace fs = std::filesystem;


// The conv net of the conv-net export's tests (the distilled student).
const char* const kStudentPath = "models/student.h5";
// The committed submission: alpha-beta with this learned evaluation, its
// weights in data.bin beside the source (too big to embed).
const char* const kEvalPath = "models/eval.bin";
const char* const kProbCutPath = "models/eval.probcut";  // its Multi-ProbCut fit, embedded in the source
const char* const kSubmissionPath = "models/submission.cpp";
const char* const kDataBinPath = "models/data.bin";

// A command's stdout alone (stderr, where the bot names the weights it
// loaded, goes to a file): for output parsed as numbers.
ShellResult stdout_of(const std::string& command) {
  return run_shell("(" + command + " 2>> " + (fs::temp_directory_path() / "mushroom-export-test.stderr").string() + ")");
}

ExportOptions committed_options(const nn::Model& model) {
  ExportOptions o;
  o.model_label = model_label(model, kStudentPath);
  return o;
}

// Builds the exported file once for all tests: plain C++17, -O2, every
// warning an error, no include paths and no libraries.
class ExportedBotTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    folder_ = new ScratchFolder("mushroom-export-test");
    dir_ = folder_->dir();
    model_ = new nn::Model(nn::load_model(kStudentPath));
    const ExportedBot bot = export_bot(*model_, committed_options(*model_));
    write_file_atomic((dir_ / "submission.cpp").string(), bot.source);
    build_ = new ShellResult(run_shell("g++ -std=c++17 -O2 -Wall -Wextra -Werror " + (dir_ / "submission.cpp").string() +
                                         " -o " + (dir_ / "bot").string()));
  }
  static void TearDownTestSuite() {
    delete folder_;
    delete model_;
    delete build_;
  }
  static ScratchFolder* folder_;
  static fs::path dir_;
  static nn::Model* model_;
  static ShellResult* build_;
};
ScratchFolder* ExportedBotTest::folder_ = nullptr;
fs::path ExportedBotTest::dir_;
nn::Model* ExportedBotTest::model_ = nullptr;
ShellResult* ExportedBotTest::build_ = nullptr;

TEST_F(ExportedBotTest, BuildsAloneAsCpp17WithoutWarnings) {
  EXPECT_EQ(build_->exit_code, 0) << build_->output;
  EXPECT_EQ(build_->output, "");
  const std::string source = read_file((dir_ / "submission.cpp").string());
  EXPECT_LE(source.size(), kMaxSourceBytes);
  EXPECT_EQ(source.find("#include \""), std::string::npos) << "a project include survived";
}

// Boards from the seeded generator with a few greedy or random moves
// played: "INIT rows + moves" lines for --eval-positions, and the positions.
void parity_positions(std::string& lines, std::vector<Position>& positions) {
  Rng rng(77);
  for (int i = 0; i < 24; ++i) {
    Position pos = random_board(1000 + i);
    std::string line;
    for (int r = 0; r < kRows; ++r) {
      line += r ? " " : "";
      for (int c = 0; c < kCols; ++c) line += char('0' + pos.digit(r, c));
    }
    const int plies = int(rng.uniform(40));
    for (int k = 0; k < plies && !pos.game_over(); ++k) {
      MoveList list;
      const int n = generate_moves(pos, list);
      const Move m = n == 0 ? Move::pass() : (k % 2 ? greedy_move(pos) : list[int(rng.uniform(uint32_t(n)))]);
      line += " " + to_string(m);
      pos.apply(m);
    }
    if (pos.game_over()) continue;
    lines += line + "\n";
    positions.push_back(pos);
  }
}

std::vector<std::vector<double>> parse_rows(const std::string& text) {
  std::vector<std::vector<double>> rows;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::vector<double> row;
    double v;
    while (words >> v) row.push_back(v);
    rows.push_back(row);
  }
  return rows;
}

// The documented tolerance of int8 weights (nn/model_codec.h), measured on
// the committed student (24 positions: value 0.021, margin 1.08 cells,
// logit 0.10 at most): the exported bot against the engine's float net.
constexpr double kQuantizedValueTolerance = 0.03;   // win/draw/loss probabilities
constexpr double kQuantizedMarginTolerance = 1.5;   // cells (the margin is the score head x 20)
constexpr double kQuantizedLogitTolerance = 0.25;   // policy logits

TEST_F(ExportedBotTest, EmbeddedInferenceMatchesTheEngine) {
  ASSERT_EQ(build_->exit_code, 0) << build_->output;
  std::string lines;
  std::vector<Position> positions;
  parity_positions(lines, positions);
  ASSERT_GE(positions.size(), 15u);
  write_file_atomic((dir_ / "positions.txt").string(), lines);
  const ShellResult r =
      stdout_of("cd " + dir_.string() + " && ./bot --eval-positions positions.txt");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto rows = parse_rows(r.output);
  ASSERT_EQ(rows.size(), positions.size());

  nn::CpuNet float_net(*model_);                   // the student as trained
  nn::PlainNet quantized_net(nn::quantized_copy(*model_));  // what the bot should run
  double worst_value = 0, worst_margin = 0, worst_logit = 0, worst_same = 0;
  for (size_t i = 0; i < positions.size(); ++i) {
    MoveList list;
    generate_moves(positions[i], list);
    std::vector<Move> moves(list.begin(), list.end());
    moves.push_back(Move::pass());
    ASSERT_EQ(rows[i].size(), 4 + moves.size()) << "position " << i;
    nn::NetEval f, q;
    float_net.evaluate(positions[i], moves.data(), int(moves.size()), f);
    quantized_net.evaluate(positions[i], moves.data(), int(moves.size()), q);
    for (int k = 0; k < 3; ++k) {
      worst_value = std::max(worst_value, std::abs(rows[i][k] - f.wdl[k]));
      worst_same = std::max(worst_same, std::abs(rows[i][k] - q.wdl[k]));
    }
    worst_margin = std::max(worst_margin, std::abs(rows[i][3] - f.margin));
    worst_same = std::max(worst_same, std::abs(rows[i][3] - q.margin) / std::max(1.0, std::abs(double(q.margin))));
    for (size_t m = 0; m < moves.size(); ++m) {
      worst_logit = std::max(worst_logit, std::abs(rows[i][4 + m] - f.logits[m]));
      worst_same = std::max(worst_same, std::abs(rows[i][4 + m] - q.logits[m]));
    }
  }
  // Same weights, same arithmetic up to summation order and printing.
  EXPECT_LE(worst_same, 1e-4);
  EXPECT_LE(worst_value, kQuantizedValueTolerance);
  EXPECT_LE(worst_margin, kQuantizedMarginTolerance);
  EXPECT_LE(worst_logit, kQuantizedLogitTolerance);
  std::printf("parity vs the float student: value %.4f, margin %.3f cells, logit %.4f (max abs errors)\n", worst_value,
              worst_margin, worst_logit);
}

// As the judge plays it: no MUSHROOM_REQUIRE_WEIGHTS, so a bot without its
// weights plays on (require_weights is the arena's default).
ArenaReport play_against_greedy(const std::string& bot_command, int boards) {
  ArenaConfig config;
  config.referee.require_weights = false;
  config.command[0] = bot_command;
  config.command[1] = std::string(MUSHROOM_BIN) + " bot --agent greedy";
  config.boards = boards;
  config.seed = 99;
  config.parallel = 2;
  std::ostringstream progress;
  return run_arena(config, progress);
}

TEST_F(ExportedBotTest, PlaysLegalGamesAndBeatsGreedyOnTheRealClock) {
  ASSERT_EQ(build_->exit_code, 0) << build_->output;
  const ArenaReport report = play_against_greedy((dir_ / "bot").string(), 1);
  ASSERT_EQ(report.games.size(), 2u);
  for (const ArenaGame& g : report.games) {
    EXPECT_EQ(g.forfeiter(), -1) << g.result.log.abort_reason;
    EXPECT_EQ(g.a_outcome(), 1) << "margin " << g.a_margin();
  }
}

TEST_F(ExportedBotTest, WeightsInDataBinWorkAndAMissingFileIsReported) {
  ExportOptions o = committed_options(*model_);
  o.data_bin = true;
  const ExportedBot bot = export_bot(*model_, o);
  ASSERT_FALSE(bot.data_bin.empty());
  EXPECT_LE(bot.data_bin.size(), kMaxDataBinBytes);
  const fs::path d = dir_ / "databin";
  fs::create_directories(d);
  write_file_atomic((d / "submission.cpp").string(), bot.source);
  const ShellResult build =
      run_shell("g++ -std=c++17 -O1 -Wall -Wextra -Werror " + (d / "submission.cpp").string() + " -o " + (d / "bot").string());
  ASSERT_EQ(build.exit_code, 0) << build.output;
  EXPECT_LT(bot.source.size(), read_file((dir_ / "submission.cpp").string()).size());

  // Without data.bin: a clear message, and it still answers with legal moves.
  const std::string board = "READY FIRST\nINIT " + std::string("11111111111111111 ") + "55555555555555555 " +
                            "19191919191919191 " + "22222222222222222 " + "33333333333333333 " +
                            "44444444444444444 " + "66666666666666666 " + "77777777777777777 " +
                            "88888888888888888 " + "99999999999999999\nTIME 10000 10000\nFINISH\n";
  write_file_atomic((d / "input.txt").string(), board);
  const ShellResult missing = run_shell("cd " + d.string() + " && ./bot < input.txt");
  EXPECT_NE(missing.output.find("data.bin"), std::string::npos) << missing.output;
  EXPECT_NE(missing.output.find("OK"), std::string::npos);

  // With it: the same outputs as the embedded build.
  write_file_atomic((d / "data.bin").string(), std::string(bot.data_bin.begin(), bot.data_bin.end()));
  std::string lines;
  std::vector<Position> positions;
  parity_positions(lines, positions);
  write_file_atomic((d / "positions.txt").string(), lines);
  write_file_atomic((dir_ / "positions.txt").string(), lines);
  const ShellResult from_bin = stdout_of("cd " + d.string() + " && ./bot --eval-positions positions.txt");
  const ShellResult embedded = stdout_of("cd " + dir_.string() + " && ./bot --eval-positions positions.txt");
  ASSERT_EQ(from_bin.exit_code, 0) << from_bin.output;
  const auto a = parse_rows(from_bin.output), b = parse_rows(embedded.output);
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i)
    for (size_t k = 0; k < a[i].size() && k < b[i].size(); ++k) EXPECT_NEAR(a[i][k], b[i][k], 1e-4);

  // A corrupt data.bin is named, not silently used.
  std::string corrupt(bot.data_bin.begin(), bot.data_bin.end());
  corrupt[corrupt.size() / 2] ^= 0x55;
  write_file_atomic((d / "data.bin").string(), corrupt);
  const ShellResult bad = run_shell("cd " + d.string() + " && ./bot --eval-positions positions.txt");
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_NE(bad.output.find("checksum"), std::string::npos) << bad.output;
}

// A learned evaluation inside the weights' ranges (nnue/network.h).
std::string random_eval_file(uint64_t seed, int phase_buckets = 1, int seat_buckets = 1) {
  nnue::Network m = nnue::Network::hand_equivalent({16, 8, 8, phase_buckets, seat_buckets});
  Rng rng(seed);
  for (auto& t : m.tensors())
    for (size_t i = 0; i < t.size; ++i) t.data[i] = float(0.05 * (2 * rng.uniform_double() - 1));
  m.skip_margin = 1;
  m.skip_gain = 0.5f;
  return nnue::serialize_network(m);
}

// A Multi-ProbCut fit made (so it says) with `eval_bytes`: one pair a band,
// wide enough that the bot's search runs through it.
std::string fit_file_for(const std::string& eval_bytes) {
  ProbCutFit fit;
  fit.evaluation = probcut_evaluation_of_bytes(eval_bytes);
  for (int band = 0; band < ProbCutFit::kBands; ++band)
    fit.set(band, ProbCutPair{.depth = 4, .shallow = 2, .slope = 1, .offset = 0, .spread = 40, .samples = 100,
                              .correlation = 0.9});
  return format_probcut_fit(fit, "made by a test");
}

// The alpha-beta bot with a learned evaluation in data.bin: its evaluation
// gives the engine's integers exactly; without data.bin, or with a corrupt
// one, it says so on stderr and plays on with the hand evaluation, legal
// games to the end.
TEST(ExportedEvalBot, EvaluatesAsTheEngineAndPlaysOnWithoutItsWeights) {
  const ScratchFolder folder("mushroom-export-eval");
  const fs::path& d = folder.dir();
  const std::string weights = random_eval_file(3);
  ExportOptions options;
  options.data_bin = true;
  options.model_label = "test.eval";
  options.probcut_fit = fit_file_for(weights);
  options.probcut_label = "test.probcut";
  const ExportedBot bot = export_eval_bot(weights, options);
  EXPECT_EQ(std::string(bot.data_bin.begin(), bot.data_bin.end()), weights);
  EXPECT_NE(bot.source.find("kLearnedEvalBot = true"), std::string::npos);
  EXPECT_NE(bot.source.find("// Multi-ProbCut fit: test.probcut, embedded below."), std::string::npos);
  EXPECT_NE(bot.source.find("kProbCutFit[] = R\"fit(" + options.probcut_fit + ")fit\";"), std::string::npos);
  write_file_atomic((d / "submission.cpp").string(), bot.source);
  const ShellResult build =
      run_shell("g++ -std=c++17 -O1 -Wall -Wextra -Werror " + (d / "submission.cpp").string() + " -o " + (d / "bot").string());
  ASSERT_EQ(build.exit_code, 0) << build.output;

  write_file_atomic((d / "data.bin").string(), weights);
  std::string lines;
  std::vector<Position> positions;
  parity_positions(lines, positions);
  write_file_atomic((d / "positions.txt").string(), lines);
  // The same bot reads an evaluation with output buckets (MSHEVAL3) from data.bin.
  const std::string bucketed = random_eval_file(5, 4, 2);
  for (const std::string& file : {weights, bucketed}) {
    write_file_atomic((d / "data.bin").string(), file);
    const ShellResult out = stdout_of("cd " + d.string() + " && ./bot --eval-positions positions.txt");
    ASSERT_EQ(out.exit_code, 0) << out.output;
    nnue::Evaluator engine(nnue::parse_network(file, "test"));
    std::istringstream values(out.output);
    for (const Position& p : positions) {
      int value = 0;
      ASSERT_TRUE(values >> value);
      engine.set_root(p);
      EXPECT_EQ(value, engine.evaluate(p, scan_leaf_moves(p)));
    }
  }

  // A window-feature file (issue 100's MSHEVAL5, removed), and a data.bin
  // cut short of its header's size, are named, as any bad file is.
  std::string windows = weights;
  windows[7] = '5';
  write_file_atomic((d / "data.bin").string(), windows);
  const ShellResult windows_out = run_shell("cd " + d.string() + " && ./bot --eval-positions positions.txt");
  EXPECT_NE(windows_out.exit_code, 0);
  EXPECT_NE(windows_out.output.find("data.bin: an MSHEVAL5 file, an evaluation with window features"),
            std::string::npos)
      << windows_out.output;
  write_file_atomic((d / "data.bin").string(), weights.substr(0, weights.size() - 4096));
  const ShellResult cut_out = run_shell("cd " + d.string() + " && ./bot --eval-positions positions.txt");
  EXPECT_NE(cut_out.exit_code, 0);
  EXPECT_NE(cut_out.output.find("data.bin: " + std::to_string(weights.size() - 4096) + " bytes where an"),
            std::string::npos)
      << cut_out.output;
  EXPECT_NE(cut_out.output.find("truncated, or another architecture"), std::string::npos) << cut_out.output;

  std::string corrupt = weights;
  corrupt[corrupt.size() / 2] ^= 0x55;
  write_file_atomic((d / "data.bin").string(), corrupt);
  const ShellResult bad = run_shell("cd " + d.string() + " && ./bot --eval-positions positions.txt");
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_NE(bad.output.find("data.bin: checksum mismatch"), std::string::npos) << bad.output;
  const std::string board = "READY FIRST\nINIT " + std::string("11111111111111111 ") + "55555555555555555 " +
                            "19191919191919191 " + "22222222222222222 " + "33333333333333333 " +
                            "44444444444444444 " + "66666666666666666 " + "77777777777777777 " +
                            "88888888888888888 " + "99999999999999999\nTIME 10000 10000\nFINISH\n";
  write_file_atomic((d / "input.txt").string(), board);
  const ShellResult corrupt_game = run_shell("cd " + d.string() + " && ./bot < input.txt");
  EXPECT_NE(corrupt_game.output.find("checksum mismatch"), std::string::npos) << corrupt_game.output;
  EXPECT_NE(corrupt_game.output.find("playing with the hand evaluation"), std::string::npos) << corrupt_game.output;

  // Other weights that load: played with, but not with the fit made for the exported ones.
  write_file_atomic((d / "data.bin").string(), bucketed);
  const ShellResult other = run_shell("cd " + d.string() + " && ./bot < input.txt");
  EXPECT_NE(other.output.find("holds other weights than this source was exported with"), std::string::npos)
      << other.output;
  EXPECT_NE(other.output.find("without the Multi-ProbCut fit made for the exported ones"), std::string::npos)
      << other.output;
  write_file_atomic((d / "data.bin").string(), weights);
  const ArenaReport with_fit = play_against_greedy("cd " + d.string() + " && exec ./bot", 1);
  ASSERT_EQ(with_fit.games.size(), 2u);
  for (const ArenaGame& g : with_fit.games) EXPECT_EQ(g.forfeiter(), -1) << g.result.log.abort_reason;

  fs::remove(d / "data.bin");
  const ShellResult missing = run_shell("cd " + d.string() + " && ./bot < input.txt");
  EXPECT_NE(missing.output.find("cannot find data.bin"), std::string::npos) << missing.output;
  EXPECT_NE(missing.output.find("OK"), std::string::npos) << missing.output;
  const ArenaReport report = play_against_greedy("cd " + d.string() + " && exec ./bot", 1);
  ASSERT_EQ(report.games.size(), 2u);
  for (const ArenaGame& g : report.games) EXPECT_EQ(g.forfeiter(), -1) << g.result.log.abort_reason;
}

// Weights that would push the source past the limit go to data.bin
// (export-bot decides; here the sizes it decides on).
TEST(ExportedEvalBot, EmbeddedWeightsAreBase64InTheSource) {
  const std::string weights = random_eval_file(4);
  const ExportedBot embedded = export_eval_bot(weights, ExportOptions{});
  EXPECT_TRUE(embedded.data_bin.empty());
  EXPECT_NE(embedded.source.find("// Multi-ProbCut fit: none."), std::string::npos);
  EXPECT_NE(embedded.source.find("kProbCutFit[] = R\"fit()fit\";"), std::string::npos);
  EXPECT_NE(embedded.source.find(nn::base64_encode(std::vector<uint8_t>(weights.begin(), weights.end())).substr(0, 120)),
            std::string::npos);
  EXPECT_THROW(export_eval_bot(weights.substr(0, weights.size() - 8), ExportOptions{}), nnue::NetworkError);
}

// With no weights named, export-bot exports the shipped evaluation with its
// fit, found from any folder as `mushroom bot` finds them: here, from a
// scratch folder, in the source tree of the build (util/data_roots.h).
TEST(ExportedEvalBot, ExportBotWithoutWeightsExportsTheShippedEvaluation) {
  const ScratchFolder folder("mushroom-export-shipped");
  const fs::path& d = folder.dir();
  const ShellResult r = run_shell("cd '" + d.string() + "' && '" + std::string(MUSHROOM_BIN) + "' export-bot --out main.cpp");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::string models = (fs::current_path() / "models").string();
  EXPECT_NE(r.output.find("exporting the shipped evaluation " + models + "/eval.bin with its fit " + models +
                          "/eval.probcut"),
            std::string::npos)
      << r.output;
  EXPECT_TRUE(fs::exists(d / "main.cpp"));
  EXPECT_TRUE(fs::exists(d / "data.bin"));
  const ShellResult with_fit = run_shell("cd '" + d.string() + "' && '" + std::string(MUSHROOM_BIN) +
                                         "' export-bot --probcut models/eval.probcut --out main.cpp");
  EXPECT_NE(with_fit.exit_code, 0);
  EXPECT_NE(with_fit.output.find("--probcut goes with --eval"), std::string::npos) << with_fit.output;
}

// export-bot takes one kind of weights, and names a file it cannot use.
TEST(ExportedEvalBot, ExportBotNamesWhatIsWrongWithItsArguments) {
  const ScratchFolder folder("mushroom-export-args");
  const fs::path& d = folder.dir();
  const std::string bin = MUSHROOM_BIN;
  const ShellResult both = run_shell("'" + bin + "' export-bot --model m.h5 --eval e.bin --out " + (d / "s.cpp").string());
  EXPECT_NE(both.exit_code, 0);
  EXPECT_NE(both.output.find("one of --model (a conv net) and --eval (a learned evaluation), not both"), std::string::npos)
      << both.output;
  const std::string weights = random_eval_file(5);
  write_file_atomic((d / "cut.eval").string(), weights.substr(0, weights.size() / 2));
  const ShellResult cut =
      run_shell("'" + bin + "' export-bot --eval " + (d / "cut.eval").string() + " --out " + (d / "s.cpp").string());
  EXPECT_NE(cut.exit_code, 0);
  EXPECT_NE(cut.output.find((d / "cut.eval").string() + ": "), std::string::npos) << cut.output;
  EXPECT_FALSE(fs::exists(d / "s.cpp"));
  write_file_atomic((d / "good.eval").string(), weights);
  const ShellResult small = run_shell("'" + bin + "' export-bot --eval " + (d / "good.eval").string() + " --out " +
                                      (d / "s.cpp").string() + " --max-bytes 400000");  // the code alone: ~0.3 MB
  EXPECT_EQ(small.exit_code, 0) << small.output;
  EXPECT_NE(small.output.find("writing them to data.bin"), std::string::npos) << small.output;
  EXPECT_EQ(read_file((d / "data.bin").string()), weights);
  // An --out folder that does not exist is named before any work.
  const ShellResult nodir = run_shell("'" + bin + "' export-bot --eval " + (d / "good.eval").string() + " --out " +
                                      (d / "nodir" / "main.cpp").string());
  EXPECT_NE(nodir.exit_code, 0);
  EXPECT_NE(nodir.output.find("--out " + (d / "nodir" / "main.cpp").string() + ": the folder " +
                              (d / "nodir").string() + " does not exist"),
            std::string::npos)
      << nodir.output;

  // --probcut: a fit made with another evaluation, or a malformed one, is
  // refused by name before anything is written; the right one is embedded.
  const std::string other = random_eval_file(6);
  write_file_atomic((d / "other.probcut").string(), fit_file_for(other));
  const ShellResult foreign = run_shell("'" + bin + "' export-bot --eval " + (d / "good.eval").string() + " --probcut " +
                                        (d / "other.probcut").string() + " --out " + (d / "p.cpp").string());
  EXPECT_NE(foreign.exit_code, 0);
  EXPECT_NE(foreign.output.find((d / "other.probcut").string()), std::string::npos) << foreign.output;
  EXPECT_NE(foreign.output.find(probcut_evaluation_of_bytes(other)), std::string::npos) << foreign.output;
  EXPECT_NE(foreign.output.find(probcut_evaluation_of_bytes(weights)), std::string::npos) << foreign.output;
  EXPECT_FALSE(fs::exists(d / "p.cpp"));
  write_file_atomic((d / "bad.probcut").string(), "evaluation " + probcut_evaluation_of_bytes(weights) +
                                                       "\npair 0 19 4 2 1.0 0.0 -3 100 0.9\n");
  const ShellResult malformed = run_shell("'" + bin + "' export-bot --eval " + (d / "good.eval").string() +
                                          " --probcut " + (d / "bad.probcut").string() + " --out " + (d / "p.cpp").string());
  EXPECT_NE(malformed.exit_code, 0);
  EXPECT_NE(malformed.output.find((d / "bad.probcut").string() + ":2"), std::string::npos) << malformed.output;
  EXPECT_FALSE(fs::exists(d / "p.cpp"));
  const ShellResult with_model = run_shell("'" + bin + "' export-bot --model " + kStudentPath + " --probcut " +
                                           (d / "bad.probcut").string() + " --out " + (d / "p.cpp").string());
  EXPECT_NE(with_model.exit_code, 0);
  EXPECT_NE(with_model.output.find("--probcut goes with --eval"), std::string::npos) << with_model.output;
  write_file_atomic((d / "good.probcut").string(), fit_file_for(weights));
  const ShellResult fitted = run_shell("'" + bin + "' export-bot --eval " + (d / "good.eval").string() + " --probcut " +
                                       (d / "good.probcut").string() + " --out " + (d / "p.cpp").string());
  EXPECT_EQ(fitted.exit_code, 0) << fitted.output;
  EXPECT_NE(read_file((d / "p.cpp").string()).find(read_file((d / "good.probcut").string())), std::string::npos);

  // A run directory stands for its promoted model (models/promoted.txt).
  fs::create_directories(d / "run" / "models");
  const ShellResult not_yet = run_shell("'" + bin + "' export-bot --eval " + (d / "run").string() + " --out " +
                                        (d / "r.cpp").string());
  EXPECT_NE(not_yet.exit_code, 0);
  EXPECT_NE(not_yet.output.find("has promoted no model yet (no models/promoted.txt)"), std::string::npos)
      << not_yet.output;
  EXPECT_NE(not_yet.output.find("it has no candidate either"), std::string::npos) << not_yet.output;
  // Before the first promotion, the message names the newest candidate, and
  // that file exports.
  write_file_atomic((d / "run" / "models" / "gen-0001.eval").string(), weights);
  write_file_atomic((d / "run" / "models" / "gen-0002.eval").string(), weights);
  write_file_atomic((d / "run" / "models" / "gen-0002.eval.tmp.4242").string(), "torn");  // left by a crash
  const ShellResult unpromoted = run_shell("'" + bin + "' export-bot --eval " + (d / "run").string() + " --out " +
                                           (d / "r.cpp").string());
  EXPECT_NE(unpromoted.exit_code, 0);
  const std::string newest = (d / "run" / "models" / "gen-0002.eval").string();
  EXPECT_NE(unpromoted.output.find("its newest candidate is " + newest + ", which exports as well"), std::string::npos)
      << unpromoted.output;
  const ShellResult candidate =
      run_shell("'" + bin + "' export-bot --eval " + newest + " --out " + (d / "r.cpp").string());
  EXPECT_EQ(candidate.exit_code, 0) << candidate.output;
  write_file_atomic((d / "run" / "models" / "promoted.txt").string(), "gen-0002.eval\n");
  const ShellResult from_run = run_shell("'" + bin + "' export-bot --eval " + (d / "run").string() + " --out " +
                                         (d / "r.cpp").string());
  EXPECT_EQ(from_run.exit_code, 0) << from_run.output;
  EXPECT_NE(from_run.output.find("exporting " + (d / "run" / "models" / "gen-0002.eval").string()), std::string::npos)
      << from_run.output;
  EXPECT_NE(read_file((d / "r.cpp").string()).find("gen-0002.eval"), std::string::npos);
}

// The options that export the committed evaluation with its committed fit,
// as models/submission.cpp and models/data.bin were made.
ExportOptions committed_bot_options() {
  ExportOptions options;
  options.model_label = "eval.bin";
  options.data_bin = true;
  options.probcut_fit = read_file(kProbCutPath);
  options.probcut_label = "eval.probcut";
  return options;
}

// The exported bot plays its embedded Multi-ProbCut fit: a fresh export of
// the committed evaluation and fit, built inside bench/submission_speed.cpp
// (the submission's own engine, data.bin and embedded fit, searched as its
// alphabeta agent searches, to a fixed depth), visits on the bench
// positions exactly the engine's nodes with the fit, and not those without.
TEST(ExportedEvalBot, SearchesTheEnginesTreeWithItsEmbeddedFit) {
  const ScratchFolder folder("mushroom-export-fit");
  const fs::path& d = folder.dir();
  const std::string weights = read_file(kEvalPath);
  const ExportOptions options = committed_bot_options();
  const ExportedBot bot = export_eval_bot(weights, options);
  write_file_atomic((d / "main.cpp").string(), bot.source);
  write_file_atomic((d / "data.bin").string(), std::string(bot.data_bin.begin(), bot.data_bin.end()));
  const ShellResult build = run_shell("g++ -std=gnu++20 -O1 -DMUSHROOM_SUBMISSION='\"" + fs::absolute(d / "main.cpp").string() +
                                      "\"' -o " + (d / "speed").string() + " bench/submission_speed.cpp");
  ASSERT_EQ(build.exit_code, 0) << build.output;
  constexpr int kDepth = 5, kPositions = 3;
  const char* const positions_path = "bench/movegen_positions.txt";
  const ShellResult run = stdout_of((d / "speed").string() + " " + (d / "data.bin").string() + " " + positions_path +
                                    " " + std::to_string(kDepth) + " " + std::to_string(kPositions));
  ASSERT_EQ(run.exit_code, 0) << run.output;
  unsigned long long bot_nodes = 0;
  ASSERT_EQ(std::sscanf(run.output.c_str(), "positions=3 depth=5 nodes=%llu", &bot_nodes), 1) << run.output;
  EXPECT_NE(run.output.find("probcut=on"), std::string::npos) << run.output;
  // The engine's trees on the same positions (those with room for a tree, as the bench takes them).
  const nnue::Network model = nnue::parse_network(weights, kEvalPath);
  const ProbCutFit fit = parse_probcut_fit(options.probcut_fit, kProbCutPath);
  uint64_t with_fit = 0, without = 0;
  int searched = 0;
  for (const Position& p : parse_position_list(read_file(positions_path), positions_path)) {
    MoveList list;
    if (generate_moves(p, list) < 15) continue;
    if (searched++ == kPositions) break;
    for (const ProbCutFit* f : {&fit, static_cast<const ProbCutFit*>(nullptr)}) {
      nnue::Evaluator evaluator(model);
      AlphaBeta search(playing_search_config(), &evaluator);
      search.set_probcut(f);
      (f ? with_fit : without) += search.search(p, AlphaBeta::Clock::now() + std::chrono::hours(1), kDepth).nodes;
    }
  }
  EXPECT_EQ(bot_nodes, with_fit) << run.output;
  EXPECT_NE(bot_nodes, without) << "the fit changes no tree on these positions: the test shows nothing";
}

// The exported bot carries alphabeta options as the agent takes them
// (`export-bot --agent alphabeta:key=value,...`): checked by name at the
// export, embedded in the source, read by the bot over its defaults (it
// names each with the value it took, read back from its config), and it
// plays legal games to the end on the real clock with them.
TEST(ExportedEvalBot, CarriesItsAgentOptions) {
  const ScratchFolder folder("mushroom-export-options");
  const fs::path& d = folder.dir();
  const std::string bin = MUSHROOM_BIN;
  const std::string export_line = "'" + bin + "' export-bot --eval " + kEvalPath + " --out " + (d / "main.cpp").string();
  const struct {
    const char* args;
    const char* message;
  } refused[] = {
      {" --probcut models/eval.probcut --agent alphabeta:time_scale=11", "time_scale=11"},
      {" --probcut models/eval.probcut --agent alphabeta:no_such_option=1", "no option 'no_such_option'"},
      {" --probcut models/eval.probcut --agent alphabeta:probcut=other.probcut", "give the file as --probcut"},
      {" --probcut models/eval.probcut --agent mcts:sims=10", "the exported bot is the alphabeta agent"},
  };
  for (const auto& r : refused) {
    const ShellResult out = run_shell(export_line + r.args);
    EXPECT_NE(out.exit_code, 0) << r.args;
    EXPECT_NE(out.output.find(r.message), std::string::npos) << r.args << ": " << out.output;
    EXPECT_FALSE(fs::exists(d / "main.cpp")) << r.args;
  }
  const ShellResult with_model = run_shell("'" + bin + "' export-bot --model " + kStudentPath +
                                           " --agent alphabeta:depth=3 --out " + (d / "main.cpp").string());
  EXPECT_NE(with_model.exit_code, 0);
  EXPECT_NE(with_model.output.find("--agent goes with --eval"), std::string::npos) << with_model.output;

  const ShellResult exported =
      run_shell(export_line + " --probcut " + kProbCutPath + " --agent alphabeta:tail=4,time_scale=0.5");
  ASSERT_EQ(exported.exit_code, 0) << exported.output;
  const std::string source = read_file((d / "main.cpp").string());
  EXPECT_NE(source.find("// Agent options: tail=4,time_scale=0.5."), std::string::npos);
  EXPECT_NE(source.find("kAgentOptions[] = \"tail=4,time_scale=0.5\";"), std::string::npos);
  const ShellResult build =
      run_shell("g++ -std=c++17 -O1 -Wall -Wextra -Werror " + (d / "main.cpp").string() + " -o " + (d / "bot").string());
  ASSERT_EQ(build.exit_code, 0) << build.output;
  const std::string board = "READY FIRST\nINIT " + std::string("11111111111111111 ") + "55555555555555555 " +
                            "19191919191919191 " + "22222222222222222 " + "33333333333333333 " +
                            "44444444444444444 " + "66666666666666666 " + "77777777777777777 " +
                            "88888888888888888 " + "99999999999999999\nTIME 10000 10000\nFINISH\n";
  write_file_atomic((d / "input.txt").string(), board);
  const ShellResult starts = run_shell("cd " + d.string() + " && ./bot < input.txt");
  // Both differ from the defaults (5 and 1): the config took them. One
  // line names them, as read back from the config the agent plays with.
  EXPECT_NE(starts.output.find("playing with the agent options tail=4.0,time_scale=0.5"), std::string::npos)
      << starts.output;
  size_t named = 0;
  for (size_t at = starts.output.find("time_scale="); at != std::string::npos; at = starts.output.find("time_scale=", at + 1))
    ++named;
  EXPECT_EQ(named, 1u) << starts.output;
  EXPECT_EQ(starts.output.find("error"), std::string::npos) << starts.output;
  const ArenaReport report = play_against_greedy("cd " + d.string() + " && exec ./bot", 1);
  ASSERT_EQ(report.games.size(), 2u);
  for (const ArenaGame& g : report.games) EXPECT_EQ(g.forfeiter(), -1) << g.result.log.abort_reason;
}

TEST(Export, CommittedSubmissionIsUpToDate) {
  const std::string weights = read_file(kEvalPath);
  const ExportOptions options = committed_bot_options();
  const ExportedBot bot = export_eval_bot(weights, options);
  const std::string regenerate = std::string("; regenerate it with:\n  build/mushroom export-bot --eval ") + kEvalPath +
                                 " --probcut " + kProbCutPath + " --out " + kSubmissionPath;
  EXPECT_TRUE(read_file(kSubmissionPath) == bot.source)
      << kSubmissionPath << " is stale (the engine or the evaluation changed)" << regenerate;
  EXPECT_TRUE(read_file(kDataBinPath) == weights) << kDataBinPath << " is not " << kEvalPath << regenerate;
  EXPECT_LE(bot.source.size(), kMaxSourceBytes);
  EXPECT_LE(weights.size(), kMaxDataBinBytes);
}

TEST(ModelCodec, RoundTripsWithinTheQuantizationStepAndRejectsDamage) {
  const nn::Model model = nn::random_model(nn::NetConfig{.blocks = 2, .channels = 16, .policy_dim = 8, .value_hidden = 16}, 5);
  const std::vector<uint8_t> bytes = nn::encode_model_int8(model);
  const nn::Model back = nn::decode_model(bytes.data(), bytes.size());
  EXPECT_EQ(back.config, model.config);
  for (const auto& [name, t] : model.tensors) {
    const nn::Tensor& u = back.at(name);
    ASSERT_EQ(u.shape, t.shape) << name;
    float mx = 0;
    for (float v : t.data) mx = std::max(mx, std::abs(v));
    for (size_t i = 0; i < t.data.size(); ++i) EXPECT_LE(std::abs(u.data[i] - t.data[i]), mx / 254 + 1e-7) << name;
  }
  EXPECT_EQ(nn::base64_decode(nn::base64_encode(bytes)), bytes);
  std::vector<uint8_t> flipped = bytes;
  flipped[100] ^= 1;
  EXPECT_THROW(nn::decode_model(flipped.data(), flipped.size()), std::runtime_error);
  EXPECT_THROW(nn::decode_model(bytes.data(), bytes.size() / 2), std::runtime_error);
  EXPECT_THROW(nn::base64_decode("abc$"), std::runtime_error);
}

}  // namespace
}  // namespace mushroom::exporter
