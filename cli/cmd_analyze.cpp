#include <iostream>
#include <optional>
#include <string>

#include "arena/games_file.h"
#include "cli/command.h"
#include "mushroom/position_io.h"
#include "protocol/game_analysis.h"
#include "util/text.h"
#include "view/game_viewer.h"

namespace mushroom::cli {

namespace {

// A game log starts with INIT; anything else is read as a position file.
bool looks_like_game_log(const std::string& text) {
  const std::string first_line = text.substr(0, text.find('\n'));
  const auto words = split_words(first_line);
  return !words.empty() && words[0] == "INIT";
}

}  // namespace

int cmd_analyze(int argc, char** argv) {
  cxxopts::Options opts(
      "mushroom analyze",
      "Where was the game lost? Searches every position of a game log (the official tool's format, or ours) with the "
      "contest bot, a fresh one per position, and prints one line per move: the cells the move took, the mover's "
      "value before and after it in cells of final margin, the loss (the best move's value minus the played "
      "move's, both from the same search and equally deep: 0 for the best move, never below 0) and its judgement "
      "(inaccuracy, mistake, blunder), the search's depth, 'yes' where the endgame solver proved the position, the "
      "best move, the rank of the moves that lost the most, and the line the search expected; then each player's "
      "mean loss and judgements. The programs' names stand beside the seats when known (--first and --second, "
      "or the games.csv that the arena and the ladder write beside their logs). Given a position file instead (mushroom/position_io.h), prints that position's line. With --out, "
      "also writes the viewer page with an evaluation graph across the game; the costliest moves are clickable. "
      "`mushroom bot --agent SPEC` with move_ms=MS added to the same SPEC plays the best moves shown here.");
  opts.add_options()("input", "game log or position file", cxxopts::value<std::string>())(
      "ms", "search time per position in ms, at most (the bot's move_ms option)", cxxopts::value<double>()->default_value("1000"))(
      "agent", "the bot, NAME[:key=value,...] as for `mushroom bot` (default: the contest bot, "
      "alphabeta:eval=models/eval.bin,probcut=models/eval.probcut); an agent that keeps a search report (alphabeta)",
      cxxopts::value<std::string>())(

      "marks", "how many of the costliest moves to mark", cxxopts::value<int>()->default_value("3"))(
      "mark-cells", "a marked move lost at least this many cells", cxxopts::value<double>()->default_value("1"))(
      "inaccuracy", "a move that loses at least this many cells is an inaccuracy",
      cxxopts::value<double>()->default_value("1"))(
      "mistake", "...a mistake", cxxopts::value<double>()->default_value("3"))(
      "blunder", "...a blunder", cxxopts::value<double>()->default_value("6"))(
      "to-move", "for a position file: who is to move, FIRST or SECOND (default: the file's 'to move:' line, else FIRST)",
      cxxopts::value<std::string>())(
      "o,out", "also write the viewer page with the evaluation graph to this HTML file", cxxopts::value<std::string>())(
      "title", "page title (default: the input's file name)", cxxopts::value<std::string>())(
      "first", "the program that played FIRST, shown beside the seat (default: its name in the games.csv beside the "
      "log, as the arena and the ladder write it)", cxxopts::value<std::string>())(
      "second", "the program that played SECOND (default: as for --first)", cxxopts::value<std::string>())(
      "h,help", "show this help");
  opts.parse_positional({"input"});
  opts.positional_help("LOG|POSITION");
  cxxopts::ParseResult args;
  if (parse_or_help(opts, argc, argv, args)) return 0;
  if (!args.count("input"))
    throw std::invalid_argument("give the game log or position file to analyze: mushroom analyze LOG|POSITION "
                                "[--ms MS] [--out PAGE.html] (see --help)");
  const std::string input = args["input"].as<std::string>();
  const double ms = args["ms"].as<double>();
  if (!(ms > 0)) throw std::invalid_argument("--ms must be above 0, not " + std::to_string(ms));
  AnalysisOptions analysis_options;
  analysis_options.marks = args["marks"].as<int>();
  analysis_options.mark_min_cells = args["mark-cells"].as<double>();
  if (analysis_options.marks < 0) throw std::invalid_argument("--marks must be 0 or more");
  LossThresholds& t = analysis_options.thresholds;
  t.inaccuracy = args["inaccuracy"].as<double>();
  t.mistake = args["mistake"].as<double>();
  t.blunder = args["blunder"].as<double>();
  if (!(t.inaccuracy > 0 && t.inaccuracy <= t.mistake && t.mistake <= t.blunder))
    throw std::invalid_argument("--inaccuracy, --mistake and --blunder must be above 0 and in that order, not " +
                                format_fixed(t.inaccuracy, 2) + ", " + format_fixed(t.mistake, 2) + ", " +
                                format_fixed(t.blunder, 2));
  const std::string to_move = args.count("to-move") ? args["to-move"].as<std::string>() : "";
  if (!to_move.empty() && to_move != "FIRST" && to_move != "SECOND")
    throw std::invalid_argument("--to-move must be FIRST or SECOND, not '" + to_move + "'");

  const AgentSpec spec = args.count("agent") ? parse_agent_spec(args["agent"].as<std::string>())
                                             : contest_bot_spec();
  AgentOptions agent_options;
  agent_options.values = spec.options;
  if (agent_options.values.count("move_ms"))
    throw std::invalid_argument("give the search time as --ms, not as the agent's move_ms");
  agent_options.values["move_ms"] = std::to_string(ms);
  make_agent(spec.name, agent_options);  // a bad option or evaluation fails before any search
  const AgentFactory factory = [&] { return make_agent(spec.name, agent_options); };

  // Who played which seat: --first and --second, else the games file beside the log.
  std::string names[2] = {args.count("first") ? args["first"].as<std::string>() : "",
                          args.count("second") ? args["second"].as<std::string>() : ""};

  // --out: the viewer page of the game (or lone position) with its analysis.
  auto write_page = [&](const GameLog& log, const GameAnalysis& analysis) {
    if (!args.count("out")) return;
    const view::ViewerOptions viewer{args.count("title") ? args["title"].as<std::string>() : input,
                                     names[0].empty() ? "FIRST" : names[0], names[1].empty() ? "SECOND" : names[1]};
    write_file_atomic(args["out"].as<std::string>(), view::game_viewer_html(log, viewer, &analysis));
    std::cerr << "analyze: wrote " << args["out"].as<std::string>() << "\n";
  };

  const std::string text = read_file(input);
  if (!looks_like_game_log(text)) {
    Position pos = parse_position(text, input);
    if (!to_move.empty()) pos.set_to_move(to_move == "FIRST" ? kFirst : kSecond);
    const PositionValue value = value_position(pos, factory);
    std::cout << move_analysis_header() << "\n";
    if (value.report) std::cout << format_position_analysis(pos.to_move(), *value.report) << "\n";
    else std::cout << "the position's value for " << player_name(pos.to_move()) << ": " << format_fixed(value.cells, 2)
                   << (pos.game_over() ? " (the game is over)" : " (forced pass)") << "\n";
    GameLog log;
    log.start = pos;
    GameAnalysis analysis;
    analysis.start = pos;
    analysis.end = value;
    write_page(log, analysis);
    return 0;
  }

  const GameLog log = parse_game_log(text, input);
  if (names[0].empty() || names[1].empty()) {
    try {
      if (const std::optional<GameRecord> record = game_record_of_log(input)) {
        if (names[0].empty()) names[0] = record->first;
        if (names[1].empty()) names[1] = record->second;
      }
    } catch (const std::exception& e) {
      std::cerr << "analyze: no program names from the games file beside the log: " << e.what() << "\n";
    }
  }
  if (names[0].empty() && names[1].empty())
    std::cerr << "analyze: the log names no programs (no games.csv beside it lists it): --first and --second name "
                 "them\n";
  else
    std::cout << "players: FIRST " << (names[0].empty() ? "(unnamed)" : names[0]) << ", SECOND "
              << (names[1].empty() ? "(unnamed)" : names[1]) << "\n";
  // A progress line at every tenth of the game (a second a position by default).
  const GameAnalysis analysis = analyze_game(log, factory, analysis_options, [](int done, int total) {
    if (done == total || done * 10 / total != (done - 1) * 10 / total)
      std::cerr << "analyze: searched " << done << "/" << total << " positions" << std::endl;
  });
  std::cout << move_analysis_header() << "\n";
  for (const MoveAnalysis& move : analysis.moves) std::cout << format_move_analysis(move) << "\n";
  std::cout << "end: " << player_name(analysis.end.to_move) << " to move, value " << format_fixed(analysis.end.cells, 2)
            << (analysis.end.proved ? " (proved)" : "") << "\n";
  for (const Player p : {kFirst, kSecond})
    std::cout << format_player_losses(p, player_losses(analysis, p), names[p == kFirst ? 0 : 1]) << "\n";
  write_page(log, analysis);
  return 0;
}

}  // namespace mushroom::cli
