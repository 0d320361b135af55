// A small RAII layer over the HDF5 C API: one file, root attributes, and
// whole-dataset reads and writes. Every failure throws Hdf5Error naming the
// file and the item, instead of HDF5's own stack dump on stderr.
#pragma once
#include <cstdint>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "nn/hdf5_preflight.h"

namespace mushroom::nn {

class Hdf5Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Every call into libhdf5 from this process holds this lock: the library is
// not thread-safe in every build, and a file's preflight (nn/hdf5_preflight.h)
// forks only while no other thread is inside it. Recursive: Hdf5File's
// functions call each other. Code that calls libhdf5 itself (tests, the
// fuzz scripts) must hold it too once other threads may. A preflight's
// child inherits it held: the child never takes it.
std::unique_lock<std::recursive_mutex> hdf5_lock();

class Hdf5File {
 public:
  // Creates (truncating) a file for writing.
  static Hdf5File create(const std::string& path);
  // Opens an existing file read-only; a missing or non-HDF5 file throws.
  // Once a read of the file fails, this process never opens the same bytes
  // again (remember_hdf5_failure): every later open_read of them throws.
  // A file renamed over the path between the preflight and libhdf5's open
  // is preflighted in its turn; one that changes at every try is refused.
  static Hdf5File open_read(const std::string& path);

  Hdf5File(Hdf5File&& o) noexcept;
  Hdf5File& operator=(Hdf5File&&) = delete;
  Hdf5File(const Hdf5File&) = delete;
  ~Hdf5File();
  // Flushes and closes; throws if HDF5 reports a failure (the destructor cannot).
  void close();

  const std::string& path() const { return path_; }

  // Attributes on the root group.
  void set_attr(const std::string& name, int64_t value);
  void set_attr(const std::string& name, double value);
  void set_attr(const std::string& name, const std::string& value);
  bool has_attr(const std::string& name) const;
  int64_t attr_int(const std::string& name) const;
  double attr_double(const std::string& name) const;
  std::string attr_string(const std::string& name) const;
  std::vector<std::string> attr_names() const;

  void create_group(const std::string& name);
  bool has(const std::string& name) const;  // a group or dataset at this path
  // Names of the datasets directly inside a group.
  std::vector<std::string> list(const std::string& group) const;

  // Whole datasets. T is float, double, int8_t, uint8_t, int16_t, int32_t,
  // int64_t or uint64_t. compress: chunked and deflated (for large shards).
  template <typename T>
  void write(const std::string& name, const std::vector<uint64_t>& dims, const T* data, bool compress = false);
  std::vector<uint64_t> dims(const std::string& name) const;
  // Reads a dataset, converting to T; dims (if given) receives its shape.
  template <typename T>
  std::vector<T> read(const std::string& name, std::vector<uint64_t>* dims = nullptr) const;

 private:
  Hdf5File(std::string path, int64_t id) : path_(std::move(path)), id_(id) {}
  // Throws Hdf5Error naming the file; a file opened for reading is first
  // remembered as failed (above).
  [[noreturn]] void fail(const std::string& what) const;
  std::string path_;
  int64_t id_ = -1;
  bool reading_ = false;
  Hdf5Preflight preflight_;  // for reading: the bytes that were opened
};

// Creates `path` crash-safely: fill() writes into a new file under a temp
// name beside it, which is renamed to `path` only once complete. On any
// failure the temp file is removed and Hdf5Error names the path.
void write_hdf5_atomically(const std::string& path, const std::function<void(Hdf5File&)>& fill);

}  // namespace mushroom::nn
