#include "ladder/ladder_report.h"

#include <filesystem>
#include <map>
#include <set>

#include "util/json_report.h"
#include "util/text.h"
#include "view/game_viewer.h"
#include "view/ladder_page.h"

namespace mushroom {

namespace fs = std::filesystem;

int generation_of(const std::string& file_name) {
  const std::string stem = fs::path(file_name).stem().string();
  size_t end = stem.size();
  while (end > 0 && !std::isdigit(static_cast<unsigned char>(stem[end - 1]))) --end;
  size_t start = end;
  while (start > 0 && std::isdigit(static_cast<unsigned char>(stem[start - 1]))) --start;
  if (start == end || end - start > 6) return -1;
  return std::stoi(stem.substr(start, end - start));
}

namespace {

std::string wdl(const int* x) { return std::to_string(x[0]) + "-" + std::to_string(x[1]) + "-" + std::to_string(x[2]); }

// One game of each pair of programs (the lowest board, the first name
// sorted first), as a viewer page in viewer/.
std::vector<view::LadderGameLink> sample_games(const std::string& dir) {
  std::map<std::pair<std::string, std::string>, GameRecord> chosen;
  for (const GameRecord& g : read_ladder_games(dir, false)) {
    const auto pair = std::minmax(g.first, g.second);
    auto it = chosen.find(pair);
    if (it == chosen.end() || g.board < it->second.board ||
        (g.board == it->second.board && g.first < it->second.first))
      chosen[pair] = g;
  }
  std::vector<view::LadderGameLink> links;
  fs::create_directories(fs::path(dir) / "viewer");
  for (const auto& [pair, g] : chosen) {
    const std::string page = "viewer/" + fs::path(g.log).stem().string() + ".html";
    const std::string label = g.first + " (first) vs " + g.second + ", board " + std::to_string(g.board) + ": " +
                              std::to_string(g.first_score) + "-" + std::to_string(g.second_score) +
                              (g.forfeit_by.empty() ? "" : ", " + g.forfeit_by + " forfeits");
    try {
      view::ViewerOptions options;
      options.title = label;
      options.first_name = g.first;
      options.second_name = g.second;
      view::write_game_viewer((fs::path(dir) / g.log).string(), (fs::path(dir) / page).string(), options);
      links.push_back({label, page});
    } catch (const std::exception& e) {
      links.push_back({label + " (no viewer: " + e.what() + ")", g.log});
    }
  }
  return links;
}

}  // namespace

void write_ratings_json(const std::string& path, const std::string& dir, const LadderStandings& standings) {
  JsonReport j = json_report_head("mushroom-ladder-ratings", kLadderRatingsVersion);
  std::map<std::string, std::string> commands;
  for (const LadderProgram& p : read_ladder_programs(dir)) commands[p.name] = p.command;
  j["games"] = standings.games;
  j["anchor"] = standings.anchor;
  j["first_move_advantage"] = {{"elo", standings.fit.advantage},
                               {"low", standings.fit.advantage_low},
                               {"high", standings.fit.advantage_high}};
  j["draw_width"] = standings.fit.draw_width;
  auto seat = [](const int* x) { return JsonReport{{"w", x[0]}, {"d", x[1]}, {"l", x[2]}}; };
  JsonReport rows = JsonReport::array();
  int rank = 0;
  for (const LadderRow& r : standings.rows) {
    const bool rated = r.rating.rated;
    JsonReport row;
    row["rank"] = rated ? JsonReport(++rank) : JsonReport(nullptr);
    row["name"] = r.name;
    row["command"] = commands.count(r.name) ? JsonReport(commands[r.name]) : JsonReport(nullptr);
    row["rated"] = rated;
    row["elo"] = rated ? JsonReport(r.rating.elo) : JsonReport(nullptr);
    row["low"] = rated ? JsonReport(r.rating.low) : JsonReport(nullptr);
    row["high"] = rated ? JsonReport(r.rating.high) : JsonReport(nullptr);
    row["games"] = r.games;
    row["points"] = r.points;
    row["score"] = r.games ? JsonReport(r.points / r.games) : JsonReport(nullptr);
    row["first"] = seat(r.first_wdl);
    row["second"] = seat(r.second_wdl);
    row["forfeits"] = r.forfeits;
    rows.push_back(row);
  }
  j["programs"] = rows;
  JsonReport pairs = JsonReport::array();
  for (const LadderPair& p : standings.pairs)
    pairs.push_back({{"a", p.a}, {"b", p.b}, {"w", p.wins}, {"d", p.draws}, {"l", p.losses}, {"score", p.score()},
                     {"los", p.los}});
  j["head_to_head"] = pairs;
  write_json_report(path, j);
}

LadderStandings write_ladder_report(const std::string& dir, const LadderReportOptions& options) {
  const LadderStandings standings = ladder_standings(dir, options.anchor);
  const std::string table = format_standings(standings);
  write_file_atomic((fs::path(dir) / "ratings.txt").string(), table + "\n" + format_head_to_head(standings));
  write_ratings_json((fs::path(dir) / "ratings.json").string(), dir, standings);
  if (!options.json_path.empty()) write_ratings_json(options.json_path, dir, standings);

  view::LadderPage page;
  page.title = options.title;
  const fs::path settings = fs::path(dir) / "ladder.txt";
  if (fs::exists(settings))
    for (const std::string& line : split_lines(read_file(settings.string())))
      page.settings += (page.settings.empty() ? "" : ", ") + line;
  page.summary = split_lines(table).back();
  std::map<std::string, const LadderRow*> by_name;
  for (const LadderRow& r : standings.rows) {
    by_name[r.name] = &r;
    page.rows.push_back({r.name, r.rating.rated, r.name == standings.anchor, r.rating.elo, r.rating.low,
                         r.rating.high, r.games, r.games ? r.points / r.games : 0, wdl(r.first_wdl),
                         wdl(r.second_wdl), r.forfeits});
  }
  for (const LadderSeriesSpec& spec : options.series) {
    view::LadderSeries s;
    s.label = spec.label;
    for (const auto& [name, generation] : spec.members) {
      const auto it = by_name.find(name);
      if (it == by_name.end() || !it->second->rating.rated) continue;
      s.generation.push_back(generation);
      s.elo.push_back(it->second->rating.elo);
      s.low.push_back(it->second->rating.low);
      s.high.push_back(it->second->rating.high);
    }
    if (!s.generation.empty()) page.series.push_back(s);
  }
  for (const LadderPair& p : standings.pairs)
    page.head_to_head.push_back({p.a, p.b, p.wins, p.draws, p.losses, p.score(), p.los});
  page.games = sample_games(dir);
  write_file_atomic((fs::path(dir) / "ladder.html").string(), view::ladder_page_html(page));
  return standings;
}

}  // namespace mushroom
