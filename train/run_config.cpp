#include "train/run_config.h"

#include <toml++/toml.h>

#include <cstdio>
#include <initializer_list>
#include <set>

#include "util/rng.h"
#include "util/text.h"

namespace mushroom::train {

namespace {

// Reads one table's keys with type and range checks, and remembers which
// keys were read so that any other key can be reported.
class TableReader {
 public:
  TableReader(const toml::table* table, std::string section, std::string source)
      : table_(table), section_(std::move(section)), source_(std::move(source)) {}

  void read(const char* key, int& out, int lo, int hi) {
    if (auto node = find(key)) {
      const auto v = node->value<int64_t>();
      if (!v || !node->is_integer()) fail(key, "must be an integer");
      if (*v < lo || *v > hi) fail(key, range_text(double(*v), lo, hi));
      out = int(*v);
    }
  }
  void read(const char* key, uint64_t& out) {
    int v = int(out);
    read(key, v, 0, 2'000'000'000);
    out = uint64_t(v);
  }
  void read(const char* key, double& out, double lo, double hi) {
    if (auto node = find(key)) {
      if (!node->is_number()) fail(key, "must be a number");
      const double v = *node->value<double>();
      if (!(v >= lo && v <= hi)) fail(key, range_text(v, lo, hi));
      out = v;
    }
  }
  void read(const char* key, bool& out) {
    if (auto node = find(key)) {
      if (!node->is_boolean()) fail(key, "must be true or false");
      out = *node->value<bool>();
    }
  }
  void read(const char* key, std::string& out, std::initializer_list<const char*> choices) {
    if (auto node = find(key)) {
      if (!node->is_string()) fail(key, "must be a string");
      const std::string v = *node->value<std::string>();
      std::string list;
      for (const char* c : choices) {
        if (v == c) {
          out = v;
          return;
        }
        list += (list.empty() ? "" : ", ") + std::string(c);
      }
      fail(key, "is \"" + v + "\", expected one of: " + list);
    }
  }
  void read_text(const char* key, std::string& out) {
    if (auto node = find(key)) {
      if (!node->is_string()) fail(key, "must be a string");
      out = *node->value<std::string>();
    }
  }
  // Device names are open-ended: cpu, cuda, cuda:N.
  void read_device(const char* key, std::string& out) {
    if (auto node = find(key)) {
      if (!node->is_string()) fail(key, "must be a string");
      const std::string v = *node->value<std::string>();
      int n = 0;
      if (v != "cpu" && v != "cuda" && !(v.rfind("cuda:", 0) == 0 && parse_int(v.substr(5), n) && n >= 0))
        fail(key, "is \"" + v + "\", expected cpu, cuda or cuda:N");
      out = v;
    }
  }
  void finish() const {
    if (!table_) return;
    for (const auto& [key, node] : *table_)
      if (!used_.count(std::string(key.str())))
        throw ConfigError(source_ + ": unknown key '" + section_ + "." + std::string(key.str()) + "'");
  }

 private:
  const toml::node* find(const char* key) {
    used_.insert(key);
    return table_ ? table_->get(key) : nullptr;
  }
  static std::string range_text(double v, double lo, double hi) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "is %g, outside the range [%g, %g]", v, lo, hi);
    return buf;
  }
  [[noreturn]] void fail(const char* key, const std::string& what) const {
    throw ConfigError(source_ + ": " + section_ + "." + key + " " + what);
  }
  const toml::table* table_;
  std::string section_, source_;
  std::set<std::string> used_;
};

}  // namespace

RunConfig parse_run_config(const std::string& text, const std::string& source) {
  toml::table root;
  try {
    root = toml::parse(text, source);
  } catch (const toml::parse_error& e) {
    const auto& where = e.source().begin;
    throw ConfigError(source + ":" + std::to_string(where.line) + ":" + std::to_string(where.column) + ": " +
                      std::string(e.description()));
  }
  const std::set<std::string> sections = {"net", "selfplay", "train", "gate", "eval", "run", "distill"};
  for (const auto& [key, node] : root) {
    const std::string name(key.str());
    if (!sections.count(name)) throw ConfigError(source + ": unknown table '" + name + "'");
    if (!node.is_table()) throw ConfigError(source + ": '" + name + "' must be a table ([" + name + "])");
  }
  auto table = [&](const char* name) { return TableReader(root[name].as_table(), name, source); };

  RunConfig c;
  {
    TableReader t = table("net");
    t.read("blocks", c.net.blocks, 0, 64);
    t.read("channels", c.net.channels, 1, 512);
    t.read("policy_dim", c.net.policy_dim, 1, 256);
    t.read("value_hidden", c.net.value_hidden, 1, 1024);
    t.finish();
  }
  {
    auto& s = c.selfplay;
    TableReader t = table("selfplay");
    t.read("games", s.games, 1, 10'000'000);
    t.read("workers", s.workers, 1, 256);
    t.read("games_in_flight", s.games_in_flight, 1, 100'000);
    t.read("full_sims", s.full_sims, 1, 1'000'000);
    t.read("cheap_sims", s.cheap_sims, 1, 1'000'000);
    t.read("full_search_fraction", s.full_search_fraction, 0.0, 1.0);
    t.read("exploration", s.exploration, {"dirichlet", "gumbel"});
    t.read("dirichlet_alpha", s.dirichlet_alpha, 0.0, 10.0);
    t.read("dirichlet_fraction", s.dirichlet_fraction, 0.0, 1.0);
    t.read("gumbel_k", s.gumbel_k, 1, 1024);
    t.read("temperature_start", s.temperature_start, 0.0, 10.0);
    t.read("temperature_end", s.temperature_end, 0.0, 10.0);
    t.read("temperature_halflife", s.temperature_halflife, 0.1, 1000.0);
    t.read("cpuct", s.cpuct, 0.0, 100.0);
    t.read("score_weight", s.score_weight, 0.0, 10.0);
    t.read("solver", s.solver);
    t.read("backend", s.backend, {"cpu", "torch"});
    t.read_device("device", s.device);
    t.read("bootstrap", s.bootstrap, {"material", "uniform"});
    t.read("samples_per_shard", s.samples_per_shard, 1, 10'000'000);
    t.read("sample_games", s.sample_games, 0, 1000);
    t.read("random_opening_plies", s.random_opening_plies, 0, 1000);
    t.read("proven_sample_fraction", s.proven_sample_fraction, 0.0, 1.0);
    t.finish();
    if (s.cheap_sims > s.full_sims) throw ConfigError(source + ": selfplay.cheap_sims exceeds selfplay.full_sims");
  }
  {
    auto& tr = c.train;
    TableReader t = table("train");
    t.read_device("device", tr.device);
    t.read("threads", tr.threads, 0, 256);
    t.read("batch_size", tr.batch_size, 1, 65536);
    t.read("steps", tr.steps, 1, 10'000'000);
    t.read("optimizer", tr.optimizer, {"sgd", "adam"});
    t.read("learning_rate", tr.learning_rate, 1e-7, 10.0);
    t.read("momentum", tr.momentum, 0.0, 0.999);
    t.read("weight_decay", tr.weight_decay, 0.0, 1.0);
    t.read("lr_schedule", tr.lr_schedule, {"constant", "cosine"});
    t.read("lr_decay_generation", tr.lr_decay_generation, 0, 1'000'000);
    t.read("lr_decay_factor", tr.lr_decay_factor, 1e-6, 1.0);
    t.read("window_samples", tr.window_samples, 1, 1'000'000'000);
    t.read("policy_weight", tr.loss.policy, 0.0, 100.0);
    t.read("value_weight", tr.loss.value, 0.0, 100.0);
    t.read("score_weight", tr.loss.score, 0.0, 100.0);
    t.read("ownership_weight", tr.loss.ownership, 0.0, 100.0);
    t.finish();
  }
  {
    TableReader t = table("gate");
    t.read("enabled", c.gate.enabled);
    t.read("boards", c.gate.boards, 1, 100'000);
    t.read("sims", c.gate.sims, 1, 1'000'000);
    t.read("promote_score", c.gate.promote_score, 0.0, 1.0);
    t.finish();
  }
  {
    TableReader t = table("eval");
    t.read("every", c.eval.every, 0, 1'000'000);
    t.read("boards", c.eval.boards, 1, 100'000);
    t.read("sims", c.eval.sims, 1, 1'000'000);
    t.read("positions", c.eval.positions, 1, 1'000'000);
    t.finish();
  }
  {
    TableReader t = table("distill");
    t.read("teacher_policy", c.distill.teacher_policy, 0.0, 1.0);
    t.read("teacher_value", c.distill.teacher_value, 0.0, 1.0);
    t.read_text("data", c.distill.data);
    t.finish();
  }
  {
    TableReader t = table("run");
    t.read("generations", c.generations, 1, 1'000'000);
    t.read("seed", c.seed);
    std::string game = "mushroom";
    t.read("game", game, {"mushroom", "blockgame"});
    c.net.game = nn::parse_game_kind(game);
    t.finish();
  }
  c.selfplay.seed = c.seed;
  c.train.seed = c.seed;
  uint64_t h = 0x6d757368726f6f6dull;
  for (unsigned char ch : text) h = (h ^ ch) * 0x100000001b3ull;
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", (unsigned long long)Rng::splitmix64(h));
  c.hash = buf;
  return c;
}

RunConfig load_run_config(const std::string& path) { return parse_run_config(read_file(path), path); }

}  // namespace mushroom::train
