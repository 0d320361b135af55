// Program commands as text: quoting for /bin/sh, and one text for one
// program whichever way our own bot's options were spelled.
#pragma once
#include <string>

namespace mushroom {

// Quotes a string for /bin/sh.
std::string shell_quote(const std::string& s);

// One program, one text: our own bot commands were once written with --opt
// pairs ("EXE bot --agent 'alphabeta' --opt 'eval=F'"); this gives either
// spelling as resolve_program (ladder/program_spec.h) writes it now ("EXE
// bot --agent 'alphabeta:eval=F'"), mushroom-bot beside EXE ("DIR/mushroom-bot
// --agent 'A'", ladder/program_spec.h) as "DIR/mushroom bot --agent 'A'", so a
// ladder begun before mushroom-bot existed keeps its programs, and any other
// command unchanged. The
// ladder's programs.txt and the arena's arena.txt compare through it.
std::string canonical_program_command(const std::string& command);

}  // namespace mushroom
