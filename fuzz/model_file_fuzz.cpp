// The conv net's model file (nn/model_file.h), read as `mushroom run`, the
// nn agent and export-bot read it: load_model on a file in the scratch
// folder. The first byte picks what the file is:
//   0  the rest as it is (a real model's bytes, mutated: HDF5's own
//      structures, which libhdf5 parses);
//   1  an HDF5 file written from the rest as a script (fuzz/hdf5_script.h)
//      with the model's attribute and tensor names: our reader's checks.
// A model the reader accepts is then run, as the nn agent runs it, by the
// CPU runtime on a starting position and its legal moves.
#include <string>
#include <vector>

#include "fuzz/fuzz_support.h"
#include "fuzz/hdf5_script.h"
#include "nn/hdf5_preflight.h"
#include "mushroom/board_gen.h"
#include "mushroom/movegen.h"
#include "nn/cpu_net.h"
#include "nn/model_file.h"

using namespace mushroom;

namespace {

void run_model(const nn::Model& model) {
  if (model.config.game != nn::GameKind::kMushroom) return;
  nn::CpuNet net(model);
  const Position pos = random_board(5);
  MoveList list;
  generate_moves(pos, list);
  std::vector<Move> moves(list.moves, list.moves + list.size);
  moves.push_back(Move::pass());
  nn::NetEval out;
  net.evaluate(pos, moves.data(), int(moves.size()), out, true);
}

}  // namespace

// The preflight's child (nn/hdf5_preflight.h) gets 2 s of CPU, well inside
// fuzz.sh's -timeout=10, so a file libhdf5 loops on is refused, not a timeout.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  nn::set_hdf5_preflight_seconds(2);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string path = fuzz::write_hdf5_input(data, size, "model.h5", fuzz::model_file_vocabulary());
  if (path.empty()) return 0;
  nn::Model model;
  if (fuzz::read_or_refuse(path, [&] { model = nn::load_model(path); })) run_model(model);
  return 0;
}
