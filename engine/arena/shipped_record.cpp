#include "arena/shipped_record.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <stdexcept>

#include "arena/stats.h"
#include "util/text.h"
#include "util/toml.h"

namespace mushroom {

namespace {

std::string join(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& w : words) out += (out.empty() ? "" : ", ") + w;
  return out;
}

std::string line_of(const toml::node& node) { return std::to_string(node.source().begin.line); }

// One TOML table read strictly: only `allowed` keys, each of its one type.
// Every message starts "FILE:LINE: WHAT.KEY".
class StrictTable {
 public:
  StrictTable(const toml::table& table, std::string path, std::string what, std::vector<std::string> allowed)
      : table_(table), path_(std::move(path)), what_(std::move(what)) {
    for (const auto& [key, node] : table) {
      const std::string name(key.str());
      if (std::find(allowed.begin(), allowed.end(), name) != allowed.end()) continue;
      const std::string near = nearest_spelling(name, allowed);
      throw std::invalid_argument(path_ + ":" + line_of(node) + ": unknown key '" + qualified(name) + "'" +
                                  (near.empty() ? "" : " (did you mean '" + near + "'?)") + "; the keys are " +
                                  join(allowed));
    }
  }

  bool has(const std::string& key) const { return table_.contains(key); }

  [[noreturn]] void fail(const std::string& key, const std::string& problem) const {
    const toml::node* node = table_.get(key);
    throw std::invalid_argument(path_ + ":" + line_of(node ? *node : static_cast<const toml::node&>(table_)) + ": " +
                                qualified(key) + " " + problem);
  }

  const toml::node& need(const std::string& key) const {
    const toml::node* node = table_.get(key);
    if (!node) fail(key, "is missing");
    return *node;
  }

  std::string text(const std::string& key) const {
    const auto value = need(key).value_exact<std::string>();
    if (!value) fail(key, "must be a string");
    if (trim(*value).empty()) fail(key, "is empty");
    return *value;
  }
  std::string text_or_empty(const std::string& key) const { return has(key) ? text(key) : ""; }

  int count(const toml::node& node, const std::string& key) const {
    const auto value = node.value_exact<int64_t>();
    if (!value || *value < 0 || *value > 1000000000) fail(key, "must be a whole number from 0 (a count of games)");
    return int(*value);
  }
  int count(const std::string& key) const { return count(need(key), key); }

  double number(const toml::node& node, const std::string& key) const {
    if (const auto i = node.value_exact<int64_t>()) return double(*i);
    if (const auto d = node.value_exact<double>(); d && std::isfinite(*d)) return *d;
    fail(key, "must be a number");
  }

  template <size_t N>
  std::array<int, N> counts(const std::string& key, const std::string& shape) const {
    const toml::array* array = need(key).as_array();
    if (!array || array->size() != N) fail(key, "must be " + shape);
    std::array<int, N> out{};
    for (size_t i = 0; i < N; ++i) out[i] = count((*array)[i], key);
    return out;
  }

  std::string date(const std::string& key) const {
    const auto value = need(key).value_exact<toml::date>();
    if (!value) fail(key, "must be a TOML date, YYYY-MM-DD without quotes");
    char text[16];
    std::snprintf(text, sizeof text, "%04d-%02d-%02d", int(value->year), int(value->month), int(value->day));
    return text;
  }

 private:
  std::string qualified(const std::string& key) const { return what_.empty() ? key : what_ + "." + key; }

  const toml::table& table_;
  std::string path_, what_;
};

WinDrawLoss wdl_of(const std::array<int, 3>& c) { return {c[0], c[1], c[2]}; }

std::string wdl_text(const WinDrawLoss& w) {
  return std::to_string(w.wins) + "-" + std::to_string(w.draws) + "-" + std::to_string(w.losses);
}

std::string counts_text(const MatchCounts& c) {
  const auto& p = c.pentanomial;
  return std::to_string(c.games) + " games, " + wdl_text(c.first) + " first, " + wdl_text(c.second) +
         " second, pentanomial " + std::to_string(p[0]) + " " + std::to_string(p[1]) + " " + std::to_string(p[2]) +
         " " + std::to_string(p[3]) + " " + std::to_string(p[4]);
}

// Counts that can be one match's: the seats add up to the games; each
// complete pair is two of them, one in each seat; and A's points in the
// pairs are those of its W-D-L less at most one point per unpaired game.
// Returns the problem, "" when none.
std::string counts_problem(const MatchCounts& c) {
  const int pairs = c.pentanomial[0] + c.pentanomial[1] + c.pentanomial[2] + c.pentanomial[3] + c.pentanomial[4];
  if (c.first.games() + c.second.games() != c.games)
    return "the W-D-L of the two seats add up to " + std::to_string(c.first.games() + c.second.games()) +
           " games, not the " + std::to_string(c.games) + " stated";
  if (pairs < 2) return "the pentanomial counts hold " + std::to_string(pairs) + " pairs: a match needs two or more";
  const int unpaired = c.games - 2 * pairs;
  if (unpaired < 0)
    return "the pentanomial counts hold " + std::to_string(pairs) + " pairs, " + std::to_string(2 * pairs) +
           " games, more than the " + std::to_string(c.games) + " stated";
  if (std::abs(c.first.games() - c.second.games()) > unpaired)
    return "the seats have " + std::to_string(c.first.games()) + " and " + std::to_string(c.second.games()) +
           " games, but only " + std::to_string(unpaired) + " games are outside complete pairs";
  // In half points, to stay whole.
  const int points = 2 * (c.first.wins + c.second.wins) + c.first.draws + c.second.draws;
  const int paired_points = c.pentanomial[1] + 2 * c.pentanomial[2] + 3 * c.pentanomial[3] + 4 * c.pentanomial[4];
  if (points < paired_points || points > paired_points + 2 * unpaired)
    return "the W-D-L give A " + format_fixed(points / 2.0, 1) + " points, the pentanomial pairs " +
           format_fixed(paired_points / 2.0, 1) + ", and the " + std::to_string(unpaired) +
           " unpaired games cannot make up the difference";
  return "";
}

std::string sprt_verdict(const ShippedMatch& m) {
  // No guard (min_games 0): the record's matches were decided before the
  // W/D/L test had one (issue 99), and the verdict is read from the final
  // counts, which a guard would not change once past it.
  const Sprt sprt{m.sprt_elo0, m.sprt_elo1, m.sprt_alpha, m.sprt_beta};
  switch (sprt.decide(pair_scores_of(m.counts.pentanomial))) {
    case Sprt::Decision::kAcceptH1:
      return "H1";
    case Sprt::Decision::kAcceptH0:
      return "H0";
    default:
      return "undecided";
  }
}

ShippedMatch read_match(const toml::table& table, const std::string& path, const std::string& what) {
  const StrictTable t(table, path, what,
                      {"against", "games", "first_wdl", "second_wdl", "pentanomial", "sprt", "sprt_alpha", "sprt_beta",
                       "verdict", "command", "games_csv", "a_name", "b_name"});
  ShippedMatch m;
  m.against = t.text("against");
  m.counts.games = t.count("games");
  m.counts.first = wdl_of(t.counts<3>("first_wdl", "[wins, draws, losses] for A moving first"));
  m.counts.second = wdl_of(t.counts<3>("second_wdl", "[wins, draws, losses] for A moving second"));
  m.counts.pentanomial = t.counts<5>("pentanomial", "five counts of pairs [LL, LD, DD or WL, WD, WW]");
  if (const std::string problem = counts_problem(m.counts); !problem.empty())
    t.fail("games", "and its counts disagree: " + problem);

  const toml::array* sprt = t.need("sprt").as_array();
  if (!sprt || sprt->size() != 2) t.fail("sprt", "must be [elo0, elo1], as the arena's --sprt elo0,elo1");
  m.sprt_elo0 = t.number((*sprt)[0], "sprt"), m.sprt_elo1 = t.number((*sprt)[1], "sprt");
  if (m.sprt_elo1 <= m.sprt_elo0) t.fail("sprt", "needs elo0 < elo1");
  for (const char* key : {"sprt_alpha", "sprt_beta"}) {
    if (!t.has(key)) continue;
    const double rate = t.number(t.need(key), key);
    if (rate <= 0 || rate >= 0.5) t.fail(key, "must be above 0 and below 0.5");
    (std::string(key) == "sprt_alpha" ? m.sprt_alpha : m.sprt_beta) = rate;
  }
  m.verdict = t.text("verdict");
  if (m.verdict != "H1" && m.verdict != "H0" && m.verdict != "undecided")
    t.fail("verdict", "is '" + m.verdict + "': it must be H1, H0 or undecided");
  if (const std::string reached = sprt_verdict(m); reached != m.verdict) {
    const Sprt s{m.sprt_elo0, m.sprt_elo1, m.sprt_alpha, m.sprt_beta};
    t.fail("verdict", "is " + m.verdict + ", but the stated counts give LLR " +
                          format_fixed(s.llr(pair_scores_of(m.counts.pentanomial)), 2) + " against the bounds [" +
                          format_fixed(s.lower_bound(), 2) + ", " + format_fixed(s.upper_bound(), 2) + "]: " + reached);
  }
  m.command = t.text("command");
  m.games_csv = t.text_or_empty("games_csv");
  m.a_name = t.text_or_empty("a_name");
  m.b_name = t.text_or_empty("b_name");
  if (!m.games_csv.empty() && (m.a_name.empty() || m.b_name.empty()))
    t.fail(m.a_name.empty() ? "a_name" : "b_name", "is needed with games_csv: the name the program has in its games");
  return m;
}

bool is_commit(const std::string& s) {
  return s.size() >= 7 && s.size() <= 40 &&
         std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(uint8_t(c)) || (c >= 'a' && c <= 'f'); });
}

// The games file's counts must be the stated ones.
void check_against_games_file(const ShippedMatch& m, const std::string& record_path, const std::string& what,
                              const toml::node& where) {
  const std::string csv = (std::filesystem::path(record_path).parent_path() / m.games_csv).string();
  if (!std::filesystem::is_regular_file(csv))
    throw std::invalid_argument(record_path + ":" + line_of(where) + ": " + what + ".games_csv: no file " + csv);
  const MatchCounts counted = count_match(read_games_file(csv, false), m.a_name, m.b_name, csv);
  if (counted != m.counts)
    throw std::invalid_argument(record_path + ":" + line_of(where) + ": " + what + " states " + counts_text(m.counts) +
                                ", but its games (" + csv + ") give " + counts_text(counted));
}

}  // namespace

std::vector<double> pair_scores_of(const std::array<int, 5>& pentanomial) {
  std::vector<double> scores;
  for (int k = 0; k < 5; ++k) scores.insert(scores.end(), size_t(pentanomial[size_t(k)]), k / 4.0);
  return scores;
}

MatchCounts count_match(const std::vector<GameRecord>& games, const std::string& a_name, const std::string& b_name,
                        const std::string& where) {
  MatchCounts c;
  std::map<int, std::vector<int>> a_outcomes;  // by board
  for (const GameRecord& g : games) {
    const bool a_first = g.first == a_name && g.second == b_name;
    if (!a_first && !(g.first == b_name && g.second == a_name))
      throw std::invalid_argument(where + ": board " + std::to_string(g.board) + " was played by " + g.first + " and " +
                                  g.second + ", not " + a_name + " and " + b_name);
    const int outcome = a_first ? g.outcome : -g.outcome;
    WinDrawLoss& seat = a_first ? c.first : c.second;
    (outcome > 0 ? seat.wins : outcome < 0 ? seat.losses : seat.draws)++;
    a_outcomes[g.board].push_back(outcome);
    ++c.games;
  }
  for (const auto& [board, outcomes] : a_outcomes)
    if (outcomes.size() == 2) ++c.pentanomial[size_t(outcomes[0] + outcomes[1] + 2)];
  return c;
}

std::vector<ShippedEvaluation> read_shipped_record(const std::string& path) {
  if (!std::filesystem::is_regular_file(path)) throw std::invalid_argument("no record file " + path);
  toml::table root;
  try {
    const std::string text = read_file(path);
    check_toml_characters(text);
    root = toml::parse(text, path);
  } catch (const toml::parse_error& e) {
    throw std::invalid_argument(path + ":" + std::to_string(e.source().begin.line) +
                                ": not TOML: " + std::string(e.description()));
  } catch (const TomlCheckFailed& e) {
    throw std::invalid_argument(path + ": not TOML: " + e.what());
  }
  const StrictTable top(root, path, "", {"shipped"});
  const toml::array* entries = top.need("shipped").as_array();
  if (!entries || entries->empty() || !entries->is_array_of_tables())
    top.fail("shipped", "must be a list of [[shipped]] tables, one for each shipped evaluation");

  std::vector<ShippedEvaluation> out;
  for (size_t i = 0; i < entries->size(); ++i) {
    const toml::table& table = *(*entries)[i].as_table();
    const std::string what = "shipped[" + std::to_string(i + 1) + "]";
    const StrictTable t(table, path, what, {"name", "model", "date", "commit", "history", "match"});
    ShippedEvaluation e;
    e.name = t.text("name");
    if (!valid_program_name(e.name))
      t.fail("name", "'" + e.name + "' may hold letters, digits and . _ - / : + = @ only");
    for (const ShippedEvaluation& before : out)
      if (before.name == e.name) t.fail("name", "'" + e.name + "' is the name of an earlier entry");
    e.model = t.text("model");
    e.date = t.date("date");
    if (!out.empty() && e.date < out.back().date)
      t.fail("date", e.date + " is before the entry before it (" + out.back().date + "): list them as they shipped");
    e.commit = t.text("commit");
    if (!is_commit(e.commit)) t.fail("commit", "'" + e.commit + "' is not a commit: 7 to 40 lowercase hex digits");
    e.history = t.text("history");
    if (out.empty()) {
      if (t.has("match"))
        t.fail("match", "is not allowed on the first entry: the anchor, Elo 0, has no match before it");
    } else {
      const toml::table* match = t.need("match").as_table();
      if (!match) t.fail("match", "must be a table ([shipped.match])");
      e.match = read_match(*match, path, what + ".match");
      if (e.match->against != out.back().name)
        throw std::invalid_argument(path + ":" + line_of(*match) + ": " + what + ".match.against is '" +
                                    e.match->against + "', but the entry before " + e.name + " is '" + out.back().name +
                                    "': each match is against the evaluation shipped just before");
      if (!e.match->games_csv.empty()) check_against_games_file(*e.match, path, what + ".match", *match);
    }
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace mushroom
