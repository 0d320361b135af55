// mushroom-bot: `mushroom bot` as a program of its own, linked without
// LibTorch. The arena and the ladder start it for every builtin: program
// (ladder/program_spec.h): `mushroom`, which loads LibTorch, took 1.1-1.6 s
// to start and, on a loaded machine, past the judge's 3 s for OK. The `nn`
// agent needs no LibTorch either (nn/nn_agent.h), so every agent plays here.
#include <iostream>
#include <stdexcept>
#include <string>

#include "cli/command.h"
#include "nn/nn_agent.h"

int main(int argc, char** argv) {
  mushroom::nn::register_nn_agent();
  std::string program = "mushroom-bot";
  argv[0] = program.data();
  try {
    return mushroom::cli::cmd_bot(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "mushroom-bot: error: " << e.what() << std::endl;
    return 2;
  }
}
