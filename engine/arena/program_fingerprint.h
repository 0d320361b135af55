// What a program command runs, byte for byte: the files it names and the
// data.bin beside them, each with its FNV-1a hash. A resumed match or
// ladder compares the fingerprint of each program with the one recorded
// with its earlier games, so a new export into the same folder is not
// taken for the build that played them.
//
// Checked: every word of the command that names a regular file (quotes
// removed; after a leading `cd DIR &&`, relative to DIR; an agent spec's
// option values such as eval=FILE too), and DIR/data.bin (the working
// folder's data.bin when there is no `cd`) when it exists. Not checked:
// files the program opens by other names, and programs found on $PATH.
#pragma once
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace mushroom {

// "PATH@HASH" for each file, sorted, joined by ';' ("" when it names none).
std::string program_fingerprint(const std::string& command);

// "" when `recorded` and `now` agree, else which files differ, e.g.
// "sub/main changed (hash 1f2e... then, 9a8b... now)".
std::string fingerprint_changes(const std::string& recorded, const std::string& now);

// A folder's fingerprints.txt, one line per program: NAME<TAB>fingerprint
// (the arena's programs are named a and b, the ladder's by their names).
struct NamedProgram {
  std::string name, command;
};
struct FingerprintChange {
  std::string name, changes;  // changes: fingerprint_changes' text
};
// Each program that has games in the folder (`played`) and a recorded
// fingerprint is compared with today's: the first whose files changed is
// returned, and nothing is written. Otherwise today's fingerprints are
// recorded (programs not given keep their lines) and nullopt is returned.
std::optional<FingerprintChange> check_and_record_fingerprints(const std::string& path,
                                                               const std::vector<NamedProgram>& programs,
                                                               const std::set<std::string>& played);
// The same comparison, writing nothing: for a caller that plays later and
// must refuse a changed build before its other work (the run loop's ladder).
std::optional<FingerprintChange> check_fingerprints(const std::string& path, const std::vector<NamedProgram>& programs,
                                                    const std::set<std::string>& played);

}  // namespace mushroom
