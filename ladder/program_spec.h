// Turns an arena program spec into a shell command:
//   builtin:NAME[:key=value,key=value]  -> mushroom-bot --agent NAME... beside
//                                          this binary (builtin_bot_command)
//   builtin:seed-greedy                 -> python3 on seed 000's bot, extracted
//                                          into work_dir at run time
//   anything else                       -> used as a shell command as is
#pragma once
#include <string>

#include "arena/program_command.h"  // shell_quote, canonical_program_command

namespace mushroom {

std::string resolve_program(const std::string& spec, const std::string& work_dir);
// The command that plays `agent` (NAME[:key=value,...]) over the contest
// protocol: mushroom-bot beside `self` (the running mushroom) when it is there
// and executable, since it starts in milliseconds without LibTorch where
// `mushroom` takes over a second (past the judge's 3 s for OK under load);
// else `self bot --agent AGENT`, as before. mushroom-bot knows every agent
// mushroom does, `nn` included (no agent needs LibTorch).
std::string builtin_bot_command(const std::string& self, const std::string& agent);
// This executable's absolute path (from /proc/self/exe).
std::string self_executable();

// The program spec that plays a checkpoint: a conv net (.h5) as
// builtin:nn:model=FILE, a learned evaluation (.eval) as
// builtin:alphabeta:eval=FILE, with a Multi-ProbCut fit (`probcut`, "" for
// none; learned evaluations only) ...,probcut=FIT. Throws
// std::invalid_argument naming a missing file or another kind of file.
std::string checkpoint_program(const std::string& path, const std::string& probcut = "");

}  // namespace mushroom
