// `mushroom elo-curve` end to end: the table and the page from the small
// fixture record, its help, and its error for a record it cannot read.
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>

#include "util/scratch_folder_test_util.h"
#include "util/shell_test_util.h"
#include "util/text.h"

namespace mushroom {
namespace {

namespace fs = std::filesystem;

TEST(EloCurveCli, DrawsThePageAndPrintsTheTableFromARecord) {
  const fs::path out = test_scratch_dir() / "curve" / "elo-curve.html";
  const ShellResult r = run_shell(std::string("'") + MUSHROOM_BIN +
                                  "' elo-curve --record testdata/shipped/shipped.toml --out '" + out.string() + "'");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  // The table, its columns padded: compared with single spaces. gamma's
  // match has the shipped one's counts, +17.8 [+4.0, +31.8], on top of beta's.
  const std::string table = std::regex_replace(r.output, std::regex(" +"), " ");
  for (const char* row :
       {"0 alpha 2026-01-01 the anchor - - - +0.0 (anchor)\n",
        "1 beta 2026-01-02 against alpha, SPRT(0, 15) undecided, LLR 0.16 21 1 1 4 2 2 +52.5 [-77.0, +199.3] +52.5 "
        "[-77.0, +199.3]\n",
        "2 gamma 2026-01-03 against beta, SPRT(0, 15) H1, LLR 3.11 527 4 17 206 20 16 +17.8 [+4.0, +31.8] +70.4 "
        "[-59.9, +217.8]\n"})
    EXPECT_NE(table.find(row), std::string::npos) << row << " in\n" << r.output;
  EXPECT_NE(r.output.find("variances add"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("elo-curve: wrote " + out.string()), std::string::npos) << r.output;

  const std::string page = read_file(out.string());
  EXPECT_NE(page.find("<figure class=\"chart\" data-chart>"), std::string::npos);
  EXPECT_NE(page.find("\"label\":\"Elo\""), std::string::npos);
  EXPECT_NE(page.find("\"label\":\"95% low\""), std::string::npos);
  EXPECT_NE(page.find("Chart.js"), std::string::npos);  // the library inlined
  for (const char* text :
       {">gamma<", "against beta, SPRT(0, 15) H1, LLR 3.11", "4 17 206 20 16", "233-24-7",
        "build/mushroom arena --a gamma --b beta --boards 1400 --sprt 0,15", "variances add", "+70.4"})
    EXPECT_NE(page.find(text), std::string::npos) << text;
  // The history links, from the page's folder (not the repository's root,
  // where the command ran), reach the fixture's history file.
  const std::regex link("<a href=\"([^\"]*README\\.md)(#[^\"]*)?\">");
  int links = 0;
  for (auto it = std::sregex_iterator(page.begin(), page.end(), link); it != std::sregex_iterator(); ++it, ++links) {
    const fs::path target = out.parent_path() / (*it)[1].str();
    EXPECT_TRUE(fs::is_regular_file(target)) << (*it)[0].str() << " does not lead from " << out.parent_path()
                                             << " to docs/history/README.md";
    EXPECT_TRUE(fs::equivalent(target, "docs/history/README.md")) << target;
  }
  EXPECT_EQ(links, 3) << "the page has not one history link an entry";
}

TEST(EloCurveCli, HasHelp) {
  const ShellResult r = run_shell(std::string("'") + MUSHROOM_BIN + "' elo-curve --help");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  for (const char* text : {"mushroom elo-curve", "--record", "bench/shipped/shipped.toml", "--out"})
    EXPECT_NE(r.output.find(text), std::string::npos) << text << " in " << r.output;
}

TEST(EloCurveCli, ARecordItCannotReadIsAnErrorNamingIt) {
  const ShellResult r =
      run_shell(std::string("'") + MUSHROOM_BIN + "' elo-curve --record testdata/shipped/none.toml --out '" +
                (test_scratch_dir() / "none.html").string() + "'");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("mushroom elo-curve: error: no record file testdata/shipped/none.toml"), std::string::npos)
      << r.output;
  EXPECT_FALSE(fs::exists(test_scratch_dir() / "none.html"));
}

}  // namespace
}  // namespace mushroom
