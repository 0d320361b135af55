#include <filesystem>
#include <iostream>

#include "arena/elo_curve.h"
#include "cli/command.h"
#include "util/text.h"
#include "view/elo_curve_page.h"

namespace mushroom::cli {

namespace {

// The record's history link (from the repository's root, where the command
// runs) as seen from the page's folder.
std::string href_from(const std::string& out, const std::string& history) {
  const size_t hash = history.find('#');
  const std::string file = history.substr(0, hash);
  const std::filesystem::path folder = std::filesystem::absolute(out).parent_path();
  const std::string relative = std::filesystem::absolute(file).lexically_relative(folder).generic_string();
  return relative + (hash == std::string::npos ? "" : history.substr(hash));
}

std::string wdl_text(const WinDrawLoss& w) {
  return std::to_string(w.wins) + "-" + std::to_string(w.draws) + "-" + std::to_string(w.losses);
}

}  // namespace

int cmd_elo_curve(int argc, char** argv) {
  cxxopts::Options opts(
      "mushroom elo-curve",
      "The Elo of every shipped evaluation at the real clock, one point each, chained to the first (the anchor, Elo "
      "0) by the SPRT match that shipped it: prints the table and writes the page with its chart. Reads the record "
      "of shipped evaluations (bench/shipped/shipped.toml; how to add one: docs/matches.md, \"The shipped "
      "evaluations\"), checking its counts, and each match's games.csv when the record keeps one. Run it from the "
      "repository's root: the record's history paths are from there.");
  opts.add_options()("record", "the record of shipped evaluations (TOML)",
                     cxxopts::value<std::string>()->default_value("bench/shipped/shipped.toml"))(
      "o,out", "the page to write (HTML)",
      cxxopts::value<std::string>()->default_value("bench/shipped/elo-curve.html"))("h,help", "show this help");
  cxxopts::ParseResult args;
  if (parse_or_help(opts, argc, argv, args)) return 0;
  const std::string record_path = args["record"].as<std::string>();
  const std::string out = args["out"].as<std::string>();

  const std::vector<ShippedEvaluation> record = read_shipped_record(record_path);
  const std::vector<EloCurvePoint> curve = chain_elo_curve(record);
  std::cout << format_elo_curve_table(record, curve) << "\n" << kEloCurveMethod << "\n";

  view::EloCurvePage page;
  page.title = "The shipped evaluations at the real clock";
  page.method = kEloCurveMethod;
  page.source = record_path;
  for (size_t i = 0; i < record.size(); ++i) {
    const ShippedEvaluation& e = record[i];
    const EloCurvePoint& p = curve[i];
    view::EloCurvePageRow row;
    row.name = e.name, row.model = e.model, row.date = e.date, row.commit = e.commit;
    row.elo = p.elo, row.low = p.low, row.high = p.high, row.anchor = p.anchor;
    row.history = e.history.substr(0, e.history.find('#')), row.history_href = href_from(out, e.history);
    if (e.match) {
      const MatchCounts& c = e.match->counts;
      row.against = e.match->against;
      row.sprt = sprt_text(*e.match, p.llr);
      row.games = std::to_string(c.games);
      row.first_wdl = wdl_text(c.first), row.second_wdl = wdl_text(c.second);
      for (int n : c.pentanomial) row.pentanomial += (row.pentanomial.empty() ? "" : " ") + std::to_string(n);
      row.match_elo = elo_interval_text(p.match.elo, p.match.elo_low, p.match.elo_high);
      row.command = e.match->command;
    }
    page.rows.push_back(row);
  }
  if (const auto folder = std::filesystem::path(out).parent_path(); !folder.empty())
    std::filesystem::create_directories(folder);
  write_file_atomic(out, view::elo_curve_page_html(page));
  std::cout << "elo-curve: wrote " << out << "\n";
  return 0;
}

}  // namespace mushroom::cli
