// A run's config (run/run_config.h) as `mushroom run` reads it when it
// resumes: the text of config.toml as a run saves it (the file, then its
// --set overrides as comment lines), parsed and validated by
// parse_saved_config, then compared with the defaults key by key, as a
// resumed run names the settings that changed. The "(default)" marks of
// its comments are checked as configs/'s test checks them.
#include <string>

#include "fuzz/fuzz_support.h"
#include "run/run_config.h"

using namespace mushroom;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const run::RunConfig defaults = run::parse_run_config("", "defaults");
  const std::string source = "fuzz-config.toml";
  const std::string text(fuzz::as_text(data, size));
  run::RunConfig config;
  if (fuzz::read_or_refuse(source, [&] { config = run::parse_saved_config(text, source); }))
    run::changed_settings(defaults, config);
  run::false_default_marks(text, source);
  return 0;
}
