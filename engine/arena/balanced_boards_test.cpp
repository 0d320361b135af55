#include "arena/balanced_boards.h"

#include <gtest/gtest.h>

#include <sstream>

#include "agents/agent.h"
#include "agents/local_match.h"
#include "arena/arena.h"
#include "mushroom/board_gen.h"
#include "util/scratch_folder_test_util.h"
#include "util/text.h"

namespace mushroom {
namespace {

const AgentSpec kGreedy{"greedy", {}};

TEST(BalancedBoards, TheCriterionIsTheFirstSeatsSelfPlayMargin) {
  BoardTrial t;
  t.first_cells = 60, t.second_cells = 56;
  EXPECT_TRUE(is_balanced(t, 4));
  EXPECT_FALSE(is_balanced(t, 3));
  t.first_cells = 50, t.second_cells = 70;  // the second seat won
  EXPECT_TRUE(is_balanced(t, 0));
  EXPECT_TRUE(is_balanced(t, -20));
  EXPECT_FALSE(is_balanced(t, -21));
}

TEST(BalancedBoards, ATrialIsTheBoardsSelfPlayGame) {
  for (int index : {0, 1, 7}) {
    const BoardTrial t = play_board_trial(kGreedy, 1000, 5, index);
    EXPECT_EQ(t.board_seed, arena_board_seed(5, index));
    auto first = make_agent("greedy", {}), second = make_agent("greedy", {});
    const LocalGameResult r = play_local_game(*first, *second, random_board(t.board_seed, BoardMode::kUniform));
    EXPECT_EQ(t.first_cells, r.final.score(kFirst)) << index;
    EXPECT_EQ(t.second_cells, r.final.score(kSecond)) << index;
    EXPECT_EQ(t.moves, int(r.moves.size()));
    EXPECT_GT(t.first_cells + t.second_cells, 0);
  }
}

// On a few boards: exactly the candidates within the margin are kept, in
// candidate order; a second run resumes from the trials file; a trials file
// of other settings or with a broken line is refused by name.
TEST(BalancedBoards, KeepsExactlyTheCandidatesWithinTheMarginAndResumes) {
  ScratchFolder scratch("balanced-boards-test");
  BalancedBoardsConfig config;
  config.agent = kGreedy;
  config.count = 4;
  config.max_margin = 0;
  config.seed = 3;
  config.parallel = 2;
  config.trials_path = (scratch.dir() / "trials.csv").string();
  std::ostringstream progress;
  const BalancedBoards found = find_balanced_boards(config, progress);
  ASSERT_EQ(found.boards.size(), 4u);
  EXPECT_EQ(found.resumed, 0);
  std::vector<Position> expected;
  int rejected = 0;
  for (const BoardTrial& t : found.trials) {
    EXPECT_EQ(t.first_margin(), play_board_trial(kGreedy, 1000, 3, t.index).first_margin());
    if (t.first_margin() <= 0 && expected.size() < 4) expected.push_back(random_board(t.board_seed, BoardMode::kUniform));
    rejected += t.first_margin() > 0;
  }
  EXPECT_GT(rejected, 0) << "greedy's first seat should win some boards outright";
  for (size_t i = 0; i < expected.size(); ++i) EXPECT_TRUE(found.boards[i] == expected[i]) << i;
  EXPECT_NE(progress.str().find("4/4 balanced of"), std::string::npos) << progress.str();

  // Resumed: nothing is played again; a looser margin selects from the same trials.
  config.max_margin = 10;
  const BalancedBoards again = find_balanced_boards(config, progress);
  EXPECT_EQ(again.resumed, int(found.trials.size()));
  EXPECT_EQ(again.trials.size(), found.trials.size());

  config.agent = AgentSpec{"random", {}};
  try {
    find_balanced_boards(config, progress);
    FAIL() << "another agent's trials file was used";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(config.trials_path + ": its trials were played as"), std::string::npos)
        << e.what();
  }
  config.agent = kGreedy;
  write_file_atomic(config.trials_path, read_file(config.trials_path) + "9,12,x,3,4\n");
  try {
    find_balanced_boards(config, progress);
    FAIL() << "a broken line was read";
  } catch (const std::exception& e) {
    const std::string line = std::to_string(2 + found.trials.size() + 1);
    EXPECT_NE(std::string(e.what()).find(config.trials_path + ":" + line + ":1: expected 5 numbers"), std::string::npos)
        << e.what();
  }
}

TEST(BalancedBoards, RefusesBadSettingsByName) {
  BalancedBoardsConfig config;
  config.agent = kGreedy;
  std::ostringstream progress;
  auto error_of = [&](const BalancedBoardsConfig& c) {
    try {
      find_balanced_boards(c, progress);
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  BalancedBoardsConfig c = config;
  c.count = 0;
  EXPECT_EQ(error_of(c), "--count must be at least 1");
  c = config;
  c.max_margin = 171;
  EXPECT_EQ(error_of(c), "--max-margin must be within -170..170 cells");
  c = config;
  c.agent = AgentSpec{"alphabeta", {{"depht", "3"}}};
  EXPECT_NE(error_of(c).find("depht"), std::string::npos) << error_of(c);
  c = config;
  c.max_margin = -170;  // no board can be that balanced
  c.max_candidates = 3;
  EXPECT_NE(error_of(c).find("only 0 of 1000 boards were balanced in 3 candidates"), std::string::npos) << error_of(c);
}

}  // namespace
}  // namespace mushroom
