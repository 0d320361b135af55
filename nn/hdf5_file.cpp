#include "nn/hdf5_file.h"

#include <hdf5.h>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <utility>

#include "nn/hdf5_preflight.h"

namespace mushroom::nn {
namespace {

// HDF5 prints an error stack on every failed call unless told not to; our
// errors carry their own message.
void silence_hdf5() {
  static const bool done = [] {
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    return true;
  }();
  (void)done;
}

template <typename T>
hid_t native_type();
template <> hid_t native_type<float>() { return H5T_NATIVE_FLOAT; }
template <> hid_t native_type<double>() { return H5T_NATIVE_DOUBLE; }
template <> hid_t native_type<int8_t>() { return H5T_NATIVE_INT8; }
template <> hid_t native_type<uint8_t>() { return H5T_NATIVE_UINT8; }
template <> hid_t native_type<int16_t>() { return H5T_NATIVE_INT16; }
template <> hid_t native_type<int32_t>() { return H5T_NATIVE_INT32; }
template <> hid_t native_type<int64_t>() { return H5T_NATIVE_INT64; }
template <> hid_t native_type<uint64_t>() { return H5T_NATIVE_UINT64; }

// Closes an HDF5 handle at scope exit.
struct Handle {
  hid_t id;
  herr_t (*closer)(hid_t);
  ~Handle() {
    if (id >= 0) closer(id);
  }
};

}  // namespace

std::unique_lock<std::recursive_mutex> hdf5_lock() {
  static std::recursive_mutex mutex;
  return std::unique_lock<std::recursive_mutex>(mutex);
}

Hdf5File Hdf5File::create(const std::string& path) {
  const auto lock = hdf5_lock();
  silence_hdf5();
  const hid_t id = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  if (id < 0) throw Hdf5Error(path + ": cannot create HDF5 file");
  return Hdf5File(path, id);
}

Hdf5File Hdf5File::open_read(const std::string& path) {
  const auto lock = hdf5_lock();
  silence_hdf5();
  // libhdf5 reads the file in a child first (nn/hdf5_preflight.h): where it
  // faults there, or where this process has failed to read it before, the
  // file is refused here before libhdf5 sees it. A file renamed over the
  // path between the preflight and the open is not the one the preflight
  // read: it is preflighted in its turn (a few tries, then refused).
  constexpr int kTries = 3;
  for (int attempt = 1;; ++attempt) {
    const Hdf5Preflight check = preflight_hdf5(path);
    if (check.outcome == Hdf5Preflight::Outcome::kRefused)
      throw Hdf5Error(path + ": a corrupt HDF5 file: " + check.detail + "; not opened");
    detail::before_hdf5_open(path);
    // A failure here may be of other bytes than the preflight's: both are
    // remembered.
    const auto refuse = [&](const std::string& what) {
      remember_hdf5_failure(path, check, what);
      if (!same_hdf5_file(path, check)) remember_hdf5_failure(path, hdf5_file_now(path), what);
      throw Hdf5Error(path + ": " + what);
    };
    const htri_t is_hdf5 = H5Fis_hdf5(path.c_str());
    if (is_hdf5 < 0 && check.inode != 0)  // a file that is there and reads
      refuse("libhdf5 failed telling whether it is an HDF5 file");
    if (is_hdf5 <= 0) throw Hdf5Error(path + ": missing, unreadable or not an HDF5 file");
    const hid_t id = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    if (id < 0) refuse("cannot open HDF5 file (corrupt or truncated?)");
    Hdf5File file(path, id);
    file.reading_ = true;
    file.preflight_ = check;
    if (same_hdf5_file(path, check)) return file;
    if (attempt == kTries)
      throw Hdf5Error(path + ": it changed while being opened, " + std::to_string(kTries) +
                      " times (a file renamed over it?); not read");
  }
}

Hdf5File::Hdf5File(Hdf5File&& o) noexcept
    : path_(std::move(o.path_)), id_(o.id_), reading_(o.reading_), preflight_(std::move(o.preflight_)) {
  o.id_ = -1;
}

Hdf5File::~Hdf5File() {
  const auto lock = hdf5_lock();
  if (id_ >= 0) H5Fclose(id_);
}

void Hdf5File::close() {
  const auto lock = hdf5_lock();
  if (id_ < 0) return;
  const herr_t flushed = H5Fflush(id_, H5F_SCOPE_GLOBAL);
  const herr_t closed = H5Fclose(id_);
  id_ = -1;
  if (flushed < 0 || closed < 0) throw Hdf5Error(path_ + ": failed to flush/close HDF5 file");
}

void Hdf5File::fail(const std::string& what) const {
  if (reading_) remember_hdf5_failure(path_, preflight_, what);
  throw Hdf5Error(path_ + ": " + what);
}

namespace {
template <typename T>
void write_scalar_attr(hid_t file, const std::string& name, hid_t type, const T* value, const std::string& path) {
  if (H5Aexists(file, name.c_str()) > 0) H5Adelete(file, name.c_str());
  Handle space{H5Screate(H5S_SCALAR), H5Sclose};
  Handle attr{H5Acreate2(file, name.c_str(), type, space.id, H5P_DEFAULT, H5P_DEFAULT), H5Aclose};
  if (attr.id < 0 || H5Awrite(attr.id, type, value) < 0) throw Hdf5Error(path + ": cannot write attribute '" + name + "'");
}
}  // namespace

void Hdf5File::set_attr(const std::string& name, int64_t value) {
  const auto lock = hdf5_lock();
  write_scalar_attr(id_, name, H5T_NATIVE_INT64, &value, path_);
}
void Hdf5File::set_attr(const std::string& name, double value) {
  const auto lock = hdf5_lock();
  write_scalar_attr(id_, name, H5T_NATIVE_DOUBLE, &value, path_);
}
void Hdf5File::set_attr(const std::string& name, const std::string& value) {
  const auto lock = hdf5_lock();
  Handle type{H5Tcopy(H5T_C_S1), H5Tclose};
  H5Tset_size(type.id, std::max<size_t>(1, value.size()));
  H5Tset_strpad(type.id, H5T_STR_NULLPAD);
  const std::string padded = value.empty() ? std::string(1, '\0') : value;
  write_scalar_attr(id_, name, type.id, padded.data(), path_);
}

bool Hdf5File::has_attr(const std::string& name) const {
  // libhdf5 fails on the empty name: the caller's error, not the file's.
  if (name.empty()) throw Hdf5Error(path_ + ": has_attr asked about an empty attribute name");
  const auto lock = hdf5_lock();
  const htri_t exists = H5Aexists(id_, name.c_str());
  if (exists < 0) fail("cannot look for attribute '" + name + "'");
  return exists > 0;
}

namespace {
// The attribute, which must hold one value: H5Aread writes every value it
// holds, so an array read into one value's room would write past it.
// `fail` throws (Hdf5File::fail).
template <typename Fail>
Handle open_attr(hid_t file, const std::string& name, const Fail& fail) {
  if (H5Aexists(file, name.c_str()) <= 0) fail("missing attribute '" + name + "'");
  Handle attr{H5Aopen(file, name.c_str(), H5P_DEFAULT), H5Aclose};
  if (attr.id < 0) fail("cannot open attribute '" + name + "'");
  Handle space{H5Aget_space(attr.id), H5Sclose};
  if (space.id < 0 || H5Sget_simple_extent_npoints(space.id) != 1)
    fail("attribute '" + name + "' is not a single value");
  return Handle{std::exchange(attr.id, -1), H5Aclose};
}
}  // namespace

int64_t Hdf5File::attr_int(const std::string& name) const {
  const auto lock = hdf5_lock();
  Handle attr = open_attr(id_, name, [this](const std::string& what) { fail(what); });
  Handle type{H5Aget_type(attr.id), H5Tclose};
  if (H5Tget_class(type.id) != H5T_INTEGER) fail("attribute '" + name + "' is not an integer");
  int64_t v = 0;
  if (H5Aread(attr.id, H5T_NATIVE_INT64, &v) < 0) fail("cannot read attribute '" + name + "'");
  return v;
}

double Hdf5File::attr_double(const std::string& name) const {
  const auto lock = hdf5_lock();
  Handle attr = open_attr(id_, name, [this](const std::string& what) { fail(what); });
  Handle type{H5Aget_type(attr.id), H5Tclose};
  const H5T_class_t cls = H5Tget_class(type.id);
  if (cls != H5T_FLOAT && cls != H5T_INTEGER) fail("attribute '" + name + "' is not a number");
  double v = 0;
  if (H5Aread(attr.id, H5T_NATIVE_DOUBLE, &v) < 0) fail("cannot read attribute '" + name + "'");
  return v;
}

std::string Hdf5File::attr_string(const std::string& name) const {
  const auto lock = hdf5_lock();
  Handle attr = open_attr(id_, name, [this](const std::string& what) { fail(what); });
  Handle type{H5Aget_type(attr.id), H5Tclose};
  if (H5Tget_class(type.id) != H5T_STRING || H5Tis_variable_str(type.id) > 0)
    fail("attribute '" + name + "' is not a fixed-length string");
  std::string s(H5Tget_size(type.id), '\0');
  if (H5Aread(attr.id, type.id, s.data()) < 0) fail("cannot read attribute '" + name + "'");
  s.resize(std::find(s.begin(), s.end(), '\0') - s.begin());
  return s;
}

std::vector<std::string> Hdf5File::attr_names() const {
  const auto lock = hdf5_lock();
  std::vector<std::string> names;
  const herr_t listed = H5Aiterate2(
      id_, H5_INDEX_NAME, H5_ITER_INC, nullptr,
      [](hid_t, const char* name, const H5A_info_t*, void* out) -> herr_t {
        static_cast<std::vector<std::string>*>(out)->push_back(name);
        return 0;
      },
      &names);
  if (listed < 0) fail("cannot list the root's attributes");
  return names;
}

void Hdf5File::create_group(const std::string& name) {
  const auto lock = hdf5_lock();
  Handle g{H5Gcreate2(id_, name.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose};
  if (g.id < 0) fail("cannot create group '" + name + "'");
}

bool Hdf5File::has(const std::string& name) const {
  const auto lock = hdf5_lock();
  // Each component must exist before H5Lexists may be asked about the next.
  size_t pos = 0;
  while (true) {
    pos = name.find('/', pos + 1);
    const std::string prefix = name.substr(0, pos);
    if (!prefix.empty() && prefix != "/") {
      const htri_t exists = H5Lexists(id_, prefix.c_str(), H5P_DEFAULT);
      if (exists < 0) fail("cannot look up '" + prefix + "' (is a part of it not a group?)");
      if (exists == 0) return false;
    }
    if (pos == std::string::npos) return true;
  }
}

std::vector<std::string> Hdf5File::list(const std::string& group) const {
  const auto lock = hdf5_lock();
  if (!has(group)) fail("missing group '" + group + "'");
  std::vector<std::string> names;
  const herr_t listed = H5Literate_by_name(
      id_, group.c_str(), H5_INDEX_NAME, H5_ITER_INC, nullptr,
      [](hid_t, const char* name, const H5L_info_t*, void* out) -> herr_t {
        static_cast<std::vector<std::string>*>(out)->push_back(name);
        return 0;
      },
      &names, H5P_DEFAULT);
  if (listed < 0) fail("cannot list group '" + group + "' (is it a group?)");
  return names;
}

template <typename T>
void Hdf5File::write(const std::string& name, const std::vector<uint64_t>& dims, const T* data, bool compress) {
  const auto lock = hdf5_lock();
  std::vector<hsize_t> hd(dims.begin(), dims.end());
  Handle space{H5Screate_simple(int(hd.size()), hd.data(), nullptr), H5Sclose};
  Handle props{H5Pcreate(H5P_DATASET_CREATE), H5Pclose};
  uint64_t total = 1;
  for (uint64_t d : dims) total *= d;
  if (compress && total > 0 && !hd.empty()) {
    // Chunks of whole rows, about 64k elements each.
    std::vector<hsize_t> chunk = hd;
    const uint64_t row = total / std::max<uint64_t>(1, hd[0]);
    chunk[0] = std::max<hsize_t>(1, std::min<hsize_t>(hd[0], 65536 / std::max<uint64_t>(1, row)));
    H5Pset_chunk(props.id, int(chunk.size()), chunk.data());
    H5Pset_deflate(props.id, 4);
  }
  Handle set{H5Dcreate2(id_, name.c_str(), native_type<T>(), space.id, H5P_DEFAULT, props.id, H5P_DEFAULT), H5Dclose};
  if (set.id < 0) fail("cannot create dataset '" + name + "'");
  if (total > 0 && H5Dwrite(set.id, native_type<T>(), H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0)
    fail("cannot write dataset '" + name + "'");
}

std::vector<uint64_t> Hdf5File::dims(const std::string& name) const {
  const auto lock = hdf5_lock();
  if (!has(name)) fail("missing dataset '" + name + "'");
  Handle set{H5Dopen2(id_, name.c_str(), H5P_DEFAULT), H5Dclose};
  if (set.id < 0) fail("'" + name + "' is not a dataset");
  Handle space{H5Dget_space(set.id), H5Sclose};
  const int rank = H5Sget_simple_extent_ndims(space.id);
  if (rank < 0) fail("cannot read the shape of '" + name + "'");
  std::vector<hsize_t> hd(rank);
  if (H5Sget_simple_extent_dims(space.id, hd.data(), nullptr) < 0) fail("cannot read the shape of '" + name + "'");
  return std::vector<uint64_t>(hd.begin(), hd.end());
}

// A stored byte holds at least one value, or, deflated, at most about a
// thousand (deflate's limit is 1,032 to 1).
constexpr uint64_t kMostValuesPerStoredByte = 1100;

template <typename T>
std::vector<T> Hdf5File::read(const std::string& name, std::vector<uint64_t>* dims_out) const {
  const auto lock = hdf5_lock();
  const std::vector<uint64_t> d = dims(name);
  Handle set{H5Dopen2(id_, name.c_str(), H5P_DEFAULT), H5Dclose};
  // The values a dataset declares must be ones the file stores before they
  // size a buffer: a damaged header declares 2^60 of them in a few bytes.
  const uint64_t stored = H5Dget_storage_size(set.id);
  uint64_t total = 1;
  for (uint64_t x : d) total = x && total > UINT64_MAX / x ? UINT64_MAX : total * x;
  if (total > 0 && (stored == 0 || total / kMostValuesPerStoredByte > stored))
    fail("dataset '" + name + "' declares " + std::to_string(total) + " values but the file stores " +
         std::to_string(stored) + " bytes of them");
  Handle type{H5Dget_type(set.id), H5Tclose};
  const H5T_class_t cls = H5Tget_class(type.id);
  if (cls != H5T_INTEGER && cls != H5T_FLOAT) fail("dataset '" + name + "' is not numeric");
  std::vector<T> out(total);
  if (total > 0 && H5Dread(set.id, native_type<T>(), H5S_ALL, H5S_ALL, H5P_DEFAULT, out.data()) < 0)
    fail("cannot read dataset '" + name + "' (corrupt data?)");
  if (dims_out) *dims_out = d;
  return out;
}

void write_hdf5_atomically(const std::string& path, const std::function<void(Hdf5File&)>& fill) {
  const std::string tmp = path + ".tmp." + std::to_string(getpid());
  try {
    Hdf5File f = Hdf5File::create(tmp);
    fill(f);
    f.close();
  } catch (const std::exception& e) {
    std::remove(tmp.c_str());
    throw Hdf5Error(path + ": not written: " + e.what());
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::remove(tmp.c_str());
    throw Hdf5Error(path + ": cannot rename the finished file into place: " + ec.message());
  }
}

#define MUSHROOM_HDF5_TYPES(T)                                                                              \
  template void Hdf5File::write<T>(const std::string&, const std::vector<uint64_t>&, const T*, bool);      \
  template std::vector<T> Hdf5File::read<T>(const std::string&, std::vector<uint64_t>*) const;
MUSHROOM_HDF5_TYPES(float)
MUSHROOM_HDF5_TYPES(double)
MUSHROOM_HDF5_TYPES(int8_t)
MUSHROOM_HDF5_TYPES(uint8_t)
MUSHROOM_HDF5_TYPES(int16_t)
MUSHROOM_HDF5_TYPES(int32_t)
MUSHROOM_HDF5_TYPES(int64_t)
MUSHROOM_HDF5_TYPES(uint64_t)
#undef MUSHROOM_HDF5_TYPES

}  // namespace mushroom::nn
