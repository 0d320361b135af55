#include "run/ladder_stage.h"

#include <filesystem>

#include "arena/boards_file.h"
#include "ladder/ladder_report.h"
#include "ladder/program_spec.h"
#include "agents/probcut_fitting.h"  // probcut_fit_path
#include "run/fit_stage.h"
#include "util/progress.h"
#include "util/text.h"

namespace mushroom::run {

namespace fs = std::filesystem;

#define FIELD(member) [](auto& c) -> auto& { return c.member; }

const SettingsTable<LadderStageConfig>& ladder_stage_settings() {
  static const SettingsTable<LadderStageConfig> table =
      SettingsTable<LadderStageConfig>("ladder")
          .integer("every", FIELD(every), 0, 1'000'000,
                   "place the candidate on the run's ladder (RUN/ladder) every this many generations (0: never)")
          .text("programs", FIELD(programs),
                "the reference programs, 'NAME=SPEC; NAME=SPEC' (SPEC as in `mushroom ladder`); the first is the "
                "anchor, rated 0")
          .integer("boards", FIELD(boards), 1, 100'000, "paired boards against each reference")
          .text("boards_file", FIELD(boards_file),
                "play the first `boards` boards of this boards file (relative to the working folder, e.g. "
                "bench/balanced-boards.txt) instead of seeded ones; \"\": seeded boards")
          .integer("time_ms", FIELD(time_ms), 1, 3'600'000, "each program's time bank per game (the contest's: 10000)")
          .choice("clock", FIELD(clock), {"cpu", "wall"},
                  "cpu: charge each program's CPU time, as the judge does, fair at any parallel; wall: wall time")
          .integer("parallel", FIELD(parallel), 1, 1024, "ladder games at once");
  return table;
}

#undef FIELD

std::vector<LadderProgram> ladder_references(const LadderStageConfig& config, const std::string& work_dir) {
  std::vector<LadderProgram> programs;
  std::vector<std::string> entries;
  for (size_t start = 0;;) {
    const size_t semi = config.programs.find(';', start);
    entries.push_back(config.programs.substr(start, semi == std::string::npos ? std::string::npos : semi - start));
    if (semi == std::string::npos) break;
    start = semi + 1;
  }
  for (const std::string& raw : entries) {
    const std::string entry(trim(raw));
    if (entry.empty()) continue;
    const size_t eq = entry.find('=');
    if (eq == std::string::npos || eq == 0)
      throw std::invalid_argument("ladder.programs: '" + entry + "' is not NAME=SPEC");
    const std::string name(trim(entry.substr(0, eq)));
    if (name.rfind("gen-", 0) == 0)
      throw std::invalid_argument("ladder.programs: the name '" + name + "' is kept for the run's checkpoints");
    programs.push_back({name, resolve_program(std::string(trim(entry.substr(eq + 1))), work_dir)});
  }
  if (programs.empty()) throw std::invalid_argument("ladder.programs names no program");
  return programs;
}

void check_ladder_references(const LadderStageConfig& config, const RunDir& run) {
  if (config.every <= 0) return;
  const fs::path dir = run.root / "ladder";
  const std::vector<LadderProgram> references = ladder_references(config, (dir / "work").string());
  if (!fs::exists(dir)) return;
  try {
    check_ladder_programs(dir.string(), references);
  } catch (const std::invalid_argument& e) {
    // A run's references are its config's, so renaming is no way out; a
    // rebuilt or moved `mushroom` is the usual cause.
    throw std::invalid_argument(std::string(e.what()) + ". The run's ladder cannot mix them: move " + dir.string() +
                                " aside (its games stay readable there) and the run starts a new ladder");
  }
}

std::string ladder_candidate_program(const RunDir& run, int generation, bool with_probcut) {
  const std::string model = fs::absolute(run.model(generation)).string();
  return checkpoint_program(model, with_probcut ? probcut_fit_path(model).string() : "");
}

std::optional<view::LadderRecord> place_on_ladder(const LadderStageConfig& config, const RunDir& run, int generation,
                                                  const std::function<void(const std::string&)>& log,
                                                  bool with_probcut) {
  if (config.every <= 0 || generation % config.every != 0) return std::nullopt;
  const std::string dir = (run.root / "ladder").string();
  LadderConfig ladder;
  ladder.dir = dir;
  ladder.programs = ladder_references(config, (run.root / "ladder" / "work").string());
  const std::string candidate = generation_name(generation);
  ladder.programs.push_back({candidate, resolve_program(ladder_candidate_program(run, generation, with_probcut), dir + "/work")});
  ladder.gauntlet = candidate;
  ladder.boards = config.boards;
  if (!config.boards_file.empty()) {
    const BoardsFile file = read_boards_file(config.boards_file);
    ladder.boards_given = file.boards;
    ladder.boards_source = file.source;
  }
  ladder.referee.time_ms = config.time_ms;
  ladder.referee.clock = parse_clock(config.clock);
  ladder.parallel = config.parallel;
  log("ladder: " + candidate + " against " + std::to_string(ladder.programs.size() - 1) + " reference programs, " +
      std::to_string(2 * config.boards) + " games each, " + std::to_string(config.time_ms) + " ms " + config.clock +
      " clock");
  {
    // The games' lines above the run's progress line (util/progress.h).
    ProgressLogStream game_lines(progress());
    run_ladder(ladder, game_lines);
  }

  LadderReportOptions report;
  report.title = "ladder of run " + run.root.filename().string();
  report.anchor = ladder.programs.front().name;
  LadderSeriesSpec series{"this run's candidates", {}};
  for (const LadderProgram& p : read_ladder_programs(dir))
    if (p.name.rfind("gen-", 0) == 0) series.members.push_back({p.name, generation_of(p.name)});
  report.series.push_back(series);
  const LadderStandings standings = write_ladder_report(dir, report);
  std::vector<std::pair<std::string, double>> references;
  for (const LadderProgram& reference : ladder_references(config, dir + "/work"))
    for (const LadderRow& row : standings.rows)
      if (row.name == reference.name && row.rating.rated) references.emplace_back(row.name, row.rating.elo);
  for (const LadderRow& row : standings.rows) {
    if (row.name != candidate) continue;
    if (!row.rating.rated) throw std::runtime_error("ladder: " + candidate + " could not be rated");
    log("ladder: " + candidate + " rated " + format_fixed(row.rating.elo, 0) + " Elo [" + format_fixed(row.rating.low, 0) +
        ", " + format_fixed(row.rating.high, 0) + "] against " + standings.anchor + " (" + dir + "/ladder.html)");
    return view::LadderRecord{row.rating.elo, row.rating.low, row.rating.high, row.games, standings.anchor, references};
  }
  throw std::runtime_error("ladder: " + candidate + " is missing from " + dir + "/programs.txt");
}

}  // namespace mushroom::run
