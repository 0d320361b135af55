// The seed documents' own bots, extracted at run time (never copied by hand).
#pragma once
#include <string>

namespace mushroom {

// The folder of seed documents: $MUSHROOM_SEEDS_DIR, else ../shared/seeds
// beside the source tree, else ../shared/seeds from the working directory.
// Throws std::runtime_error listing where it looked.
std::string find_seeds_dir();

// Writes the Python greedy bot of seed 000 to out_dir/seed_greedy.py and
// returns its path. Throws when the seed file or its code cannot be found.
std::string extract_seed_greedy(const std::string& out_dir);

}  // namespace mushroom
