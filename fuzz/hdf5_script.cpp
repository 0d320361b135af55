#include "fuzz/hdf5_script.h"

#include <hdf5.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <type_traits>

#include "fuzz/fuzz_support.h"
#include "nn/hdf5_file.h"
#include "nn/model.h"
#include "selfplay/sample.h"

namespace mushroom::fuzz {

namespace {

using nn::Hdf5File;

constexpr uint64_t kMostValues = 65536;

// The script's bytes in turn; zeros once they run out.
struct Script {
  std::string_view bytes;
  size_t at = 0;
  bool done() const { return at >= bytes.size(); }
  uint8_t next() { return done() ? 0 : uint8_t(bytes[at++]); }
  template <typename T>
  T raw() {
    unsigned char out[sizeof(T)];
    for (unsigned char& b : out) b = next();
    T value;
    std::memcpy(&value, out, sizeof value);
    return value;
  }
  const std::string& pick(const std::vector<std::string>& words) { return words[next() % words.size()]; }
};

int64_t integer_value(Script& s) {
  switch (s.next() % 3) {
    case 0: return int8_t(s.next());
    case 1: return s.raw<int16_t>();
    default: return s.raw<int64_t>();
  }
}

template <typename T>
void write_dataset(Hdf5File& file, const std::string& name, const std::vector<uint64_t>& dims, Script& s) {
  uint64_t count = 1;
  for (uint64_t d : dims) count *= d;
  const bool compress = s.next() & 1;
  const int how = s.next() % 3;
  if (count > kMostValues) return;
  std::vector<T> values(count);
  for (T& v : values) {
    if (how == 0) v = T(int8_t(s.next()));
    else if (how == 1) v = std::is_floating_point_v<T> ? T(double(int8_t(s.next())) / 16) : T(int8_t(s.next()) / 16);
    else v = s.raw<T>();
  }
  file.write(name, dims, values.data(), compress);
}

void dataset_step(Hdf5File& file, Script& s, const Hdf5Vocabulary& words) {
  const std::string& name = s.pick(words.datasets);
  const int type = s.next() % 7;
  std::vector<uint64_t> dims(s.next() % 5);
  for (uint64_t& d : dims) d = s.next();
  switch (type) {
    case 0: write_dataset<uint8_t>(file, name, dims, s); break;
    case 1: write_dataset<int8_t>(file, name, dims, s); break;
    case 2: write_dataset<int16_t>(file, name, dims, s); break;
    case 3: write_dataset<int32_t>(file, name, dims, s); break;
    case 4: write_dataset<int64_t>(file, name, dims, s); break;
    case 5: write_dataset<float>(file, name, dims, s); break;
    default: write_dataset<double>(file, name, dims, s); break;
  }
}

struct ArrayAttribute {
  std::string name;
  std::vector<int64_t> values;
};

// Hdf5File writes single values only: arrays go in with the C API once it
// has closed the file.
void write_array_attributes(const std::string& path, const std::vector<ArrayAttribute>& arrays) {
  if (arrays.empty()) return;
  const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  if (file < 0) throw nn::Hdf5Error(path + ": cannot reopen to add array attributes");
  for (const ArrayAttribute& a : arrays) {
    if (H5Aexists(file, a.name.c_str()) > 0) H5Adelete(file, a.name.c_str());
    const hsize_t count = a.values.size();
    const hid_t space = H5Screate_simple(1, &count, nullptr);
    const hid_t attr = H5Acreate2(file, a.name.c_str(), H5T_NATIVE_INT64, space, H5P_DEFAULT, H5P_DEFAULT);
    if (attr >= 0) {
      if (count) H5Awrite(attr, H5T_NATIVE_INT64, a.values.data());
      H5Aclose(attr);
    }
    H5Sclose(space);
  }
  H5Fclose(file);
}

void step(Hdf5File& file, Script& s, const Hdf5Vocabulary& words, std::vector<ArrayAttribute>& arrays) {
  switch (s.next() % 5) {
    case 0: {
      const std::string& name = s.pick(words.attributes);
      file.set_attr(name, integer_value(s));
      break;
    }
    case 1: {
      const std::string& name = s.pick(words.attributes);
      file.set_attr(name, s.raw<double>());
      break;
    }
    case 2: {
      const std::string& name = s.pick(words.attributes);
      const size_t v = s.next();
      std::string value;
      if (v < words.strings.size()) value = words.strings[v];
      else
        for (size_t i = 0; i < v % 16; ++i) value += char(s.next());
      file.set_attr(name, value);
      break;
    }
    case 3: dataset_step(file, s, words); break;
    default: {
      ArrayAttribute a{s.pick(words.attributes), {}};
      a.values.resize(s.next() % 8);
      for (int64_t& v : a.values) v = s.raw<int64_t>();
      arrays.push_back(std::move(a));
      break;
    }
  }
}

}  // namespace

const Hdf5Vocabulary& model_file_vocabulary() {
  static const Hdf5Vocabulary words = [] {
    Hdf5Vocabulary w;
    w.groups = {"/weights"};
    w.attributes = {"format",     "format_version", "game",         "feature_version",  "input_planes",  "blocks",
                    "channels",   "policy_dim",     "value_hidden", "mushroom_version", "meta.model_id", "meta.generation"};
    w.strings = {"mushroom-model", "mushroom", "blockgame", "tictactoe", ""};
    // The tensors of a net with one block; its sizes come from the attributes.
    nn::NetConfig config;
    config.blocks = 1;
    for (const nn::TensorSpec& spec : nn::tensor_specs(config)) w.datasets.push_back("/weights/" + spec.name);
    w.datasets.push_back("/weights/unexpected");
    w.datasets.push_back("/elsewhere");
    return w;
  }();
  return words;
}

const Hdf5Vocabulary& shard_vocabulary() {
  static const Hdf5Vocabulary words = [] {
    Hdf5Vocabulary w;
    w.attributes = {"format",           "format_version", "game",  "model_id", "config_hash",
                    "mushroom_version", "generator_seed", "games", "samples",  "created"};
    w.strings = {"mushroom-selfplay", "mushroom", "mushroom-eval3", "mushroom-eval2", "mushroom-eval",
                 "blockgame", "tictactoe", ""};
    w.datasets = {"/to_move", "/ply",    "/policy_offsets", "/policy_moves", "/policy_probs",
                  "/outcome", "/weight", "/search_value",   "/game_id"};
    for (const char* game : {"mushroom", "mushroom-eval3", "mushroom-eval2", "mushroom-eval", "blockgame", "tictactoe"})
      for (const selfplay::SampleField& field : selfplay::sample_schema(game).fields)
        if (std::find(w.datasets.begin(), w.datasets.end(), "/" + field.name) == w.datasets.end())
          w.datasets.push_back("/" + field.name);
    return w;
  }();
  return words;
}

void write_hdf5_script(const std::string& path, std::string_view bytes, const Hdf5Vocabulary& words) {
  Hdf5File file = Hdf5File::create(path);
  for (const std::string& group : words.groups) file.create_group(group);
  Script s{bytes};
  std::vector<ArrayAttribute> arrays;
  while (!s.done()) {
    try {
      step(file, s, words, arrays);
    } catch (const nn::Hdf5Error&) {
      // HDF5 refused the step; the file holds the others.
    }
  }
  file.close();
  write_array_attributes(path, arrays);
}

std::string write_hdf5_input(const uint8_t* data, size_t size, const std::string& name, const Hdf5Vocabulary& words) {
  if (size == 0) return "";
  const std::string path = fresh_scratch() + "/" + name;
  const std::string_view rest = as_text(data + 1, size - 1);
  if (data[0] % 2 == 0) write_scratch_file(name, rest);
  else write_hdf5_script(path, rest, words);
  return path;
}

void Hdf5ScriptWriter::step(int op, const std::vector<std::string>& list, const std::string& name) {
  const auto at = std::find(list.begin(), list.end(), name);
  if (at == list.end()) throw std::invalid_argument("no '" + name + "' in the script's vocabulary");
  script_ += char(op);
  script_ += char(at - list.begin());
}

void Hdf5ScriptWriter::int_attribute(const std::string& name, int64_t value) {
  step(0, words_.attributes, name);
  script_ += char(2);
  script_.append(reinterpret_cast<const char*>(&value), sizeof value);
}

void Hdf5ScriptWriter::string_attribute(const std::string& name, const std::string& value) {
  step(2, words_.attributes, name);
  const auto known = std::find(words_.strings.begin(), words_.strings.end(), value);
  if (known != words_.strings.end()) {
    script_ += char(known - words_.strings.begin());
    return;
  }
  if (value.size() > 15) throw std::invalid_argument("a script's string holds at most 15 bytes");
  script_ += char(240 + value.size());  // past the known strings: its length mod 16
  script_ += value;
}

void Hdf5ScriptWriter::header(const std::string& name, int type, const std::vector<uint8_t>& dims, int how) {
  step(3, words_.datasets, name);
  script_ += char(type);
  script_ += char(dims.size());
  for (uint8_t d : dims) script_ += char(d);
  script_ += char(0);  // not deflated
  script_ += char(how);
}

void Hdf5ScriptWriter::dataset(const std::string& name, int type, const std::vector<uint8_t>& dims,
                               const std::vector<int8_t>& values) {
  header(name, type, dims, 0);
  for (int8_t v : values) script_ += char(v);
}

void Hdf5ScriptWriter::raw_dataset(const std::string& name, int type, const std::vector<uint8_t>& dims,
                                   const std::string& bytes) {
  header(name, type, dims, 2);
  script_ += bytes;
}

}  // namespace mushroom::fuzz
