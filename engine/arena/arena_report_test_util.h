// For tests: does a match's report.json say what its report.txt says? Each
// figure of the JSON is written as report.txt writes it (the same decimals)
// and looked for in the text.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "util/text.h"

namespace mushroom {

// The lines of report.txt that the figures of report.json do not match
// (each as the JSON would have it printed); none when the two agree.
inline std::vector<std::string> report_json_disagreements(const nlohmann::json& j, const std::string& text) {
  std::vector<std::string> missing;
  // A number as report.txt prints it; null (not finite in the JSON) may be
  // either infinity.
  auto fixed = [](const nlohmann::json& v, int decimals) {
    return v.is_null() ? std::vector<std::string>{"inf", "-inf"}
                       : std::vector<std::string>{format_fixed(v.get<double>(), decimals)};
  };
  auto signed_ = [](const nlohmann::json& v, int decimals) {
    return v.is_null() ? std::vector<std::string>{"+inf", "-inf"}
                       : std::vector<std::string>{format_signed(v.get<double>(), decimals)};
  };
  // Every way of filling `parts` (texts and alternatives) must give one line found in the text.
  auto expect = [&](const std::vector<std::vector<std::string>>& parts) {
    std::vector<std::string> ways = {""};
    for (const auto& part : parts) {
      std::vector<std::string> next;
      for (const std::string& w : ways)
        for (const std::string& p : part) next.push_back(w + p);
      ways = next;
    }
    for (const std::string& w : ways)
      if (text.find(w) != std::string::npos) return;
    missing.push_back(ways.front());
  };
  auto s = [](const std::string& t) { return std::vector<std::string>{t}; };
  auto n = [](const nlohmann::json& v) { return std::vector<std::string>{std::to_string(v.get<long long>())}; };
  const std::string a = j["programs"]["a"]["name"], b = j["programs"]["b"]["name"];
  expect({s("A: " + a + " = " + j["programs"]["a"]["command"].get<std::string>() + "\n")});
  expect({s("B: " + b + " = " + j["programs"]["b"]["command"].get<std::string>() + "\n")});
  expect({s("games: "), n(j["games"]["played"]), s(" ("), n(j["games"]["complete_pairs"]), s(" complete pairs")});
  for (const auto& [seat, words] : {std::pair<std::string, std::string>{"a_first", " moving first:  "},
                                    {"a_second", " moving second: "}, {"total", " total:         "}}) {
    const nlohmann::json& t = j["wdl"][seat];
    expect({s(a + words), n(t["w"]), s(" W, "), n(t["d"]), s(" D, "), n(t["l"]), s(" L")});
  }
  expect({s("   score "), fixed(j["score"]["points"], 1), s("/"), n(j["games"]["played"]), s(" = "),
          fixed(j["score"]["per_game"].get<double>() * 100, 1), s("%\n")});
  expect({s("cells): "), fixed(j["margin"]["mean"], 1), s(" over "), n(j["games"]["played"]), s(" games")});
  const nlohmann::json& paired = j["margin"]["paired"];
  expect({s("paired margin per game: "), fixed(paired["value"], 2), s("  95% interval ["), fixed(paired["low"], 2),
          s(", "), fixed(paired["high"], 2), s("] over "), n(paired["boards"]), s(" boards\n")});
  const nlohmann::json& capped = j["margin"]["capped"];
  expect({s(" cells): "), signed_(capped["value"], 2), s("  95% interval ["), signed_(capped["low"], 2), s(", "),
          signed_(capped["high"], 2), s("] over "), n(capped["boards"]), s(" boards\n")});
  const nlohmann::json& elo = j["elo"]["logistic"];
  expect({s("Elo (" + a + " - " + b + "): "), signed_(elo["value"], 1), s("  95% interval ["), signed_(elo["low"], 1),
          s(", "), signed_(elo["high"], 1), s("] (pentanomial, pairs)   LOS "),
          fixed(j["elo"]["los"].get<double>() * 100, 1), s("%\n")});
  const nlohmann::json& penta = j["pentanomial"];
  expect({s("WL, WD, WW): "), n(penta[0]), s(" "), n(penta[1]), s(" "), n(penta[2]), s(" "), n(penta[3]), s(" "),
          n(penta[4]), s("\n")});
  const nlohmann::json& nelo = j["elo"]["normalized"];
  if (nelo.is_null())
    expect({s("normalized Elo (" + a + " - " + b + "): n/a")});
  else
    expect({s("normalized Elo (" + a + " - " + b + "): "), signed_(nelo["value"], 1), s("  95% interval ["),
            signed_(nelo["low"], 1), s(", "), signed_(nelo["high"], 1), s("]\n")});
  for (const auto& [side, name] : {std::pair<std::string, std::string>{"a", a}, {"b", b}}) {
    expect({s("forfeits by " + name + ": "), n(j["forfeits"][side]["count"]), s("\n")});
    for (const auto& [reason, count] : j["forfeits"][side]["by_reason"].items())
      expect({s("  "), n(count), s(" x " + reason + "  (e.g. ")});
  }
  for (const auto& [test, words] : {std::pair<std::string, std::string>{"wdl", "(W/D/L, pentanomial): "},
                                    {"margin", "(capped cells a game): "}}) {
    const nlohmann::json& t = j["sprt"][test];
    if (t.is_null()) {
      if (text.find(words) != std::string::npos) missing.push_back("no " + test + " test in the JSON, but " + words);
      continue;
    }
    const bool decided = t["verdict"] != "undecided";
    expect({s(words + t["verdict"].get<std::string>() + (decided ? " at " : " after ")), n(t["games"]),
            s(" games (LLR "), fixed(t["llr"], 2), s(", bounds ["), fixed(t["lower_bound"], 2), s(", "),
            fixed(t["upper_bound"], 2), s("])" + std::string(t["stops_the_match"].get<bool>() ? "; it stops the match" : "") + "\n")});
    if (!t["expected_games"].is_null())
      expect({s("it decides in about "), n(t["expected_games"]), s(" games (Wald's estimate)")});
  }
  return missing;
}

}  // namespace mushroom
