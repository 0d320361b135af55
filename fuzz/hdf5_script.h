// An HDF5 file written from fuzz bytes through nn/hdf5_file.h, for the
// readers of HDF5 files (the conv net's model file, self-play shards).
// Mutating a real file's bytes mostly breaks HDF5's own structures, which
// the library refuses before our reader looks; a file written from a script
// is always sound HDF5, so the fuzzer spends its time on what our readers
// must check themselves: which attributes and datasets there are, their
// types, shapes and values.
//
// The bytes are read as steps until they run out; each step is one byte
// that says what it writes (its value mod 5), then its arguments:
//   0  an integer root attribute: a name (one byte: an index into
//      `attributes`), then one byte w and a value of 1, 2 or 8 bytes
//      (w mod 3: int8, int16, int64)
//   1  a float root attribute: a name, then 8 bytes of a double
//   2  a string root attribute: a name, then one byte v: a value from
//      `strings` when v indexes it, else v mod 16 bytes that follow
//   3  a dataset: a name (an index into `datasets`), one byte for its
//      element type (u8, i8, i16, i32, i64, float, double), one for its
//      rank (0..4) and one per dimension (0..255), one for deflate (odd)
//      or not, one for how values are made (0: each from one byte as a
//      small integer, 1: the same in sixteenths, 2: the type's raw bytes),
//      then the values' bytes. One of more than 65,536 values is skipped.
//   4  an array of integers as a root attribute, which our files never
//      hold but a damaged one may: a name, one byte for its length (0..7),
//      then 8 bytes a value
// Names index their list modulo its size; bytes past the end read as 0. A
// step HDF5 refuses (a second dataset of one name) is skipped.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace mushroom::fuzz {

struct Hdf5Vocabulary {
  std::vector<std::string> groups;      // made before any step
  std::vector<std::string> attributes;  // root attribute names
  std::vector<std::string> strings;     // string attribute values
  std::vector<std::string> datasets;    // dataset paths
};

// The names of the readers' files: a model file's, and a shard's of every game.
const Hdf5Vocabulary& model_file_vocabulary();
const Hdf5Vocabulary& shard_vocabulary();

void write_hdf5_script(const std::string& path, std::string_view script, const Hdf5Vocabulary& words);

// The file an HDF5 target reads, `name` in a fresh scratch folder, from the
// fuzzer's input: byte 0 even, the rest is the file as it is (HDF5's own
// structures, which libhdf5 parses); odd, the rest is a script written
// through write_hdf5_script with `words` (the reader's own checks). Returns
// its path, or "" for an empty input.
std::string write_hdf5_input(const uint8_t* data, size_t size, const std::string& name, const Hdf5Vocabulary& words);

// The other direction, for seeds (fuzz/make_seeds.cpp): a script that
// writes the given attributes and datasets, named as in `words`.
class Hdf5ScriptWriter {
 public:
  explicit Hdf5ScriptWriter(const Hdf5Vocabulary& words) : words_(words) {}
  void int_attribute(const std::string& name, int64_t value);
  void string_attribute(const std::string& name, const std::string& value);  // at most 15 bytes, or one of `strings`
  // Values as small integers (each in int8's range) or, with `raw`, the
  // element type's bytes; type as in the step (0 u8 ... 6 double).
  void dataset(const std::string& name, int type, const std::vector<uint8_t>& dims, const std::vector<int8_t>& values);
  void raw_dataset(const std::string& name, int type, const std::vector<uint8_t>& dims, const std::string& bytes);
  const std::string& script() const { return script_; }

 private:
  void step(int op, const std::vector<std::string>& list, const std::string& name);
  void header(const std::string& name, int type, const std::vector<uint8_t>& dims, int how);
  const Hdf5Vocabulary& words_;
  std::string script_;
};

}  // namespace mushroom::fuzz
