// `mushroom bench ... --json FILE`: every benchmark's figures for programs,
// beside the lines it prints (docs/reports.md, "bench"). A bench records
// its settings, its headline figures (those of its last line) and the rows
// of its tables; write() puts them in FILE, atomically. Without --json it
// records nothing anyone reads and writes nothing.
#pragma once
#include <cxxopts.hpp>
#include <string>

#include "util/json_report.h"

namespace mushroom::cli {

constexpr int kBenchReportVersion = 1;

class BenchReport {
 public:
  // bench: "movegen", "endgame", ... Its --json (add_json_option,
  // cli/command.h): a folder that is missing or cannot be written is
  // refused here, before any timing.
  BenchReport(const cxxopts::ParseResult& args, const std::string& bench);
  void setting(const std::string& name, JsonReport value) { report_["settings"][name] = std::move(value); }
  void figure(const std::string& name, JsonReport value) { report_["figures"][name] = std::move(value); }
  void row(const std::string& table, JsonReport row) { report_["tables"][table].push_back(std::move(row)); }
  void write() const;

 private:
  std::string path_;
  JsonReport report_;
};

}  // namespace mushroom::cli
