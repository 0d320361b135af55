#include "cli/bench_report.h"

#include "cli/command.h"

namespace mushroom::cli {

BenchReport::BenchReport(const cxxopts::ParseResult& args, const std::string& bench)
    : report_(json_report_head("mushroom-bench", kBenchReportVersion)) {
  path_ = json_option(args);
  report_["bench"] = bench;
  report_["settings"] = JsonReport::object();
  report_["figures"] = JsonReport::object();
  report_["tables"] = JsonReport::object();
}

void BenchReport::write() const {
  if (!path_.empty()) write_json_report(path_, report_);
}

}  // namespace mushroom::cli
