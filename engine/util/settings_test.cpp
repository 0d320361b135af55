#include "util/settings.h"

#include <gtest/gtest.h>

namespace mushroom {
namespace {

struct Example {
  int count = 7;
  double rate = 0.5;
  bool on = true;
  std::string mode = "fast";
  std::string device = "cpu";
  std::string note;
  struct {
    int depth = 3;
  } inner;
};

const SettingsTable<Example>& example_settings() {
  static const SettingsTable<Example> table =
      SettingsTable<Example>("example")
          .integer("count", [](auto& c) -> auto& { return c.count; }, 1, 100, "how many")
          .real("rate", [](auto& c) -> auto& { return c.rate; }, 0, 1, "how fast")
          .flag("on", [](auto& c) -> auto& { return c.on; }, "whether")
          .choice("mode", [](auto& c) -> auto& { return c.mode; }, {"fast", "slow"}, "which way")
          .device("device", [](auto& c) -> auto& { return c.device; }, "where")
          .text("note", [](auto& c) -> auto& { return c.note; }, "anything")
          .integer("depth", [](auto& c) -> auto& { return c.inner.depth; }, 0, 9, "a nested member");
  return table;
}

// Reads options into a default Example; returns the error message, if any.
std::string read_options(std::vector<std::pair<std::string, std::string>> values, Example& out) {
  OptionSource source("thing 'x'", std::move(values));
  try {
    example_settings().read(source, out);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return source.unread() ? "unread " + *source.unread() : "";
}

TEST(Settings, OptionsOverrideTheStructDefaults) {
  Example e;
  EXPECT_EQ(read_options({{"count", "12"}, {"rate", "0.25"}, {"on", "off"}, {"mode", "slow"}, {"device", "cuda:1"},
                          {"note", "hi"}, {"depth", "9"}},
                         e),
            "");
  EXPECT_EQ(e.count, 12);
  EXPECT_DOUBLE_EQ(e.rate, 0.25);
  EXPECT_FALSE(e.on);
  EXPECT_EQ(e.mode, "slow");
  EXPECT_EQ(e.device, "cuda:1");
  EXPECT_EQ(e.note, "hi");
  EXPECT_EQ(e.inner.depth, 9);
  Example untouched;
  EXPECT_EQ(read_options({}, untouched), "");
  EXPECT_EQ(untouched.count, 7);
  EXPECT_EQ(untouched.inner.depth, 3);
}

TEST(Settings, BadValuesNameTheOwnerTheKeyAndTheRange) {
  Example e;
  EXPECT_EQ(read_options({{"count", "101"}}, e), "thing 'x' option count=101: is 101, outside the range [1, 100]");
  EXPECT_EQ(read_options({{"count", "3.5"}}, e), "thing 'x' option count=3.5: must be an integer in [1, 100]");
  EXPECT_EQ(read_options({{"rate", "2"}}, e), "thing 'x' option rate=2: is 2, outside the range [0, 1]");
  EXPECT_EQ(read_options({{"rate", "fast"}}, e), "thing 'x' option rate=fast: must be a number in [0, 1]");
  EXPECT_EQ(read_options({{"on", "maybe"}}, e), "thing 'x' option on=maybe: must be true or false");
  EXPECT_EQ(read_options({{"mode", "medium"}}, e),
            "thing 'x' option mode=medium: is \"medium\", expected one of: fast, slow");
  EXPECT_EQ(read_options({{"device", "gpu"}}, e),
            "thing 'x' option device=gpu: is \"gpu\", expected cpu, cuda or cuda:N");
  EXPECT_EQ(read_options({{"colour", "red"}}, e), "unread colour");
}

TEST(Settings, HelpAndTomlShowTheDeclaredDefaults) {
  const std::string help = example_settings().help_text();
  EXPECT_NE(help.find("count=7  [1, 100]  how many"), std::string::npos) << help;
  EXPECT_NE(help.find("mode=\"fast\"  (fast|slow)  which way"), std::string::npos) << help;
  const std::string toml = example_settings().toml_text();
  EXPECT_EQ(toml.rfind("[example]\n", 0), 0u) << toml;
  EXPECT_NE(toml.find("rate = 0.5"), std::string::npos) << toml;
  EXPECT_NE(toml.find("on = true"), std::string::npos) << toml;
  EXPECT_NE(toml.find("depth = 3"), std::string::npos) << toml;
  EXPECT_EQ(example_settings().default_text("rate"), "0.5");
  EXPECT_EQ(example_settings().default_text("mode"), "\"fast\"");
  EXPECT_THROW(example_settings().default_text("nope"), std::invalid_argument);
}

}  // namespace
}  // namespace mushroom
