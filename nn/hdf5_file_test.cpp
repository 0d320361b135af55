// Hdf5File's promises on failure (issue 101): an error libhdf5 returns is a
// refusal naming the file, never read as "absent", and a file whose reading
// failed is never handed to libhdf5 again in this process.
#include "nn/hdf5_file.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "nn/hdf5_preflight.h"
#include "util/scratch_folder_test_util.h"
#include "util/text.h"

namespace mushroom::nn {
namespace {

namespace fs = std::filesystem;

class Hdf5FileTest : public ::testing::Test {
 protected:
  ~Hdf5FileTest() override { detail::set_before_hdf5_open({}); }
  // A path of its own for each call: failures are remembered for the
  // process's life, and a test may run again in the same process
  // (--gtest_repeat).
  std::string path(const std::string& name) {
    static int files = 0;
    return (folder_.dir() / (std::to_string(++files) + "-" + name)).string();
  }
  // A small good file: a root attribute "format", a group /g and a
  // dataset /d.
  static void write_small(const std::string& file, const std::string& format = "test") {
    write_hdf5_atomically(file, [&format](Hdf5File& f) {
      f.set_attr("format", format);
      f.create_group("/g");
      const std::vector<float> values{1, 2, 3};
      f.write("/d", {3}, values.data());
    });
  }
  std::string small(const std::string& name) {
    const std::string file = path(name);
    write_small(file);
    return file;
  }
  // Expects `call` to throw Hdf5Error whose message starts with `message`.
  static void expect_refusal(const std::function<void()>& call, const std::string& message) {
    try {
      call();
      ADD_FAILURE() << "no refusal; expected: " << message;
    } catch (const Hdf5Error& e) {
      EXPECT_EQ(std::string(e.what()).rfind(message, 0), 0u) << e.what();
    }
  }
  // Expects open_read to refuse `file` as one that failed before, naming
  // the first error, without libhdf5 (the preflight refuses it).
  static void expect_never_opened_again(const std::string& file, const std::string& first_error) {
    EXPECT_EQ(preflight_hdf5(file).outcome, Hdf5Preflight::Outcome::kRefused);
    expect_refusal([&] { Hdf5File::open_read(file); },
                   file + ": a corrupt HDF5 file: reading it failed earlier in this process (" + first_error + ")");
  }
  // Breaks the root attribute "format"'s message (its version byte, 8
  // bytes before its name in a version 1 message; object headers of
  // version 1 have no checksum): libhdf5 opens the file and fails only
  // where it decodes the root's attributes.
  static void break_format_attribute(const std::string& file) {
    std::string bytes = read_file(file);
    const std::string name("format\0", 7);
    const size_t at = bytes.find(name);
    ASSERT_NE(at, std::string::npos);
    ASSERT_EQ(bytes.find(name, at + 1), std::string::npos) << "the name is in the file twice";
    ASSERT_GE(at, 8u);
    ASSERT_EQ(bytes[at - 8], 1) << "not a version 1 attribute message";
    bytes[at - 8] = char(0xff);
    write_file_atomic(file, bytes);
  }
  ScratchFolder folder_{"mushroom_hdf5_file_test"};
};

// A file that carries HDF5's signature and ends after its superblock:
// H5Fis_hdf5 passes it, the preflight's child sees libhdf5 refuse it
// cleanly, and the parent's own H5Fopen fails. That failure is remembered
// like any other: the same bytes are refused before libhdf5 sees them again,
// and new bytes at the same path are read afresh.
TEST_F(Hdf5FileTest, AFileLibhdf5CannotOpenIsNeverOpenedAgain) {
  const std::string file = small("cut.h5");
  fs::resize_file(file, 96);
  EXPECT_EQ(preflight_hdf5(file).outcome, Hdf5Preflight::Outcome::kRefusedCleanly);
  const std::string first_error = "cannot open HDF5 file (corrupt or truncated?)";
  expect_refusal([&] { Hdf5File::open_read(file); }, file + ": " + first_error);
  expect_never_opened_again(file, first_error);
  write_small(file);
  EXPECT_EQ(Hdf5File::open_read(file).attr_string("format"), "test");
}

// A file renamed over the path between the preflight and libhdf5's open is
// not the one the preflight read. Good bytes are preflighted in their turn
// and read; bytes on which the open then fails are remembered as well as
// the preflight's, since either may be what libhdf5 read; a path that
// changes at every try is refused after three.
TEST_F(Hdf5FileTest, AFileRenamedOverWhileItIsOpenedIsNeverReadUnchecked) {
  const std::string file = small("swapped.h5");
  const std::string other = path("other.h5");
  write_small(other, "renamed over");
  int opens = 0;
  detail::set_before_hdf5_open([&](const std::string&) {
    if (++opens == 1) fs::rename(other, file);
  });
  EXPECT_EQ(Hdf5File::open_read(file).attr_string("format"), "renamed over");
  EXPECT_EQ(opens, 2);

  // The open fails on bytes renamed over: both files are remembered.
  const std::string first = small("first.h5");
  const std::string saved = path("first-saved.h5");
  fs::copy_file(first, saved);
  const std::string cut = path("cut.h5");
  write_small(cut, "cut");
  fs::resize_file(cut, 96);
  const std::string cut_saved = path("cut-saved.h5");
  fs::copy_file(cut, cut_saved);
  opens = 0;
  detail::set_before_hdf5_open([&](const std::string&) {
    if (++opens == 1) fs::rename(cut, first);
  });
  const std::string first_error = "cannot open HDF5 file (corrupt or truncated?)";
  expect_refusal([&] { Hdf5File::open_read(first); }, first + ": " + first_error);
  detail::set_before_hdf5_open({});
  expect_never_opened_again(first, first_error);  // the cut bytes
  fs::rename(saved, first);
  expect_never_opened_again(first, first_error);  // the bytes the preflight read
  fs::rename(cut_saved, cut);
  EXPECT_EQ(preflight_hdf5(cut).outcome, Hdf5Preflight::Outcome::kRefusedCleanly) << "another path";

  const std::string restless = small("restless.h5");
  opens = 0;
  detail::set_before_hdf5_open([&](const std::string& at) {
    write_small(at, "again " + std::to_string(++opens));
  });
  expect_refusal([&] { Hdf5File::open_read(restless); },
                 restless + ": it changed while being opened, 3 times (a file renamed over it?); not read");
  EXPECT_EQ(opens, 3);
}

// Each lookup that libhdf5 answers with an error refuses the file, naming
// the item, and the file is then remembered as failed; the same bytes at
// another path are another file to libhdf5, and are read. Before issue
// 101's fixes these errors read as "absent" or "empty": a reader went on
// with a file libhdf5 had failed on.
TEST_F(Hdf5FileTest, ALookupLibhdf5FailsIsARefusalNotAnAbsence) {
  {
    // What a good file answers, for contrast.
    const Hdf5File f = Hdf5File::open_read(small("good.h5"));
    EXPECT_TRUE(f.has_attr("format"));
    EXPECT_FALSE(f.has_attr("other"));
    EXPECT_TRUE(f.has("/d"));
    EXPECT_FALSE(f.has("/e/x"));
    EXPECT_EQ(f.attr_names(), std::vector<std::string>{"format"});
    EXPECT_EQ(f.dims("/d"), std::vector<uint64_t>{3});
    // The empty name is the caller's error, not the file's: not remembered.
    expect_refusal([&] { (void)f.has_attr(""); }, f.path() + ": has_attr asked about an empty attribute name");
    EXPECT_EQ(preflight_hdf5(f.path()).outcome, Hdf5Preflight::Outcome::kRead);
  }
  // Each case: the call on a fresh file, the error it must raise.
  const auto check = [this](const std::string& name, const std::function<void(const Hdf5File&)>& call,
                            const std::string& first_error, bool break_attribute) {
    SCOPED_TRACE(name);
    const std::string file = small(name);
    if (break_attribute) break_format_attribute(file);
    const std::string copy = path("copy-of-" + name);
    fs::copy_file(file, copy);
    expect_refusal([&] { call(Hdf5File::open_read(file)); }, file + ": " + first_error);
    expect_never_opened_again(file, first_error);
    EXPECT_NE(preflight_hdf5(copy).outcome, Hdf5Preflight::Outcome::kRefused);
    EXPECT_NO_THROW(Hdf5File::open_read(copy)) << "the same bytes at another path";
  };
  // A path through a dataset: H5Lexists fails there, it does not say "no".
  check("through.h5", [](const Hdf5File& f) { (void)f.has("/d/x"); },
        "cannot look up '/d/x' (is a part of it not a group?)", false);
  // The root's attribute message broken: H5Aexists and H5Aiterate2 fail.
  check("attr-exists.h5", [](const Hdf5File& f) { (void)f.has_attr("other"); },
        "cannot look for attribute 'other'", true);
  check("attr-names.h5", [](const Hdf5File& f) { (void)f.attr_names(); }, "cannot list the root's attributes",
        true);
  // A group where a dataset belongs.
  check("group.h5", [](const Hdf5File& f) { (void)f.dims("/g"); }, "'/g' is not a dataset", false);
  // A broken attribute is one the preflight's child could not read: it
  // says so (libhdf5 refused cleanly) and lets the parent name it.
  const std::string broken = small("broken.h5");
  break_format_attribute(broken);
  EXPECT_EQ(preflight_hdf5(broken).outcome, Hdf5Preflight::Outcome::kRefusedCleanly);
}

}  // namespace
}  // namespace mushroom::nn
