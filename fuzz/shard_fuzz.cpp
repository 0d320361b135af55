// Self-play shards (selfplay/shard.h), read as the learners and relabel
// read them: the root attributes first (read_shard_meta), then the samples
// of the game the shard names (read_shard). The first byte picks what the
// file is:
//   0  the rest as it is (a real shard's bytes, mutated);
//   1  an HDF5 file written from the rest as a script (fuzz/hdf5_script.h)
//      with the shard's attribute and dataset names, every game's fields
//      among them: our reader's checks of shapes, counts and ranges.
// The samples it accepts are then turned into what their consumers make
// of them: the conv net's input planes, or the learned evaluation's
// position, labels and features.
#include <string>
#include <vector>

#include "fuzz/fuzz_support.h"
#include "fuzz/hdf5_script.h"
#include "nn/hdf5_preflight.h"
#include "mushroom/static_evaluator.h"
#include "nn/features.h"
#include "nnue/features.h"
#include "selfplay/shard.h"

using namespace mushroom;

namespace {

void use_samples(const selfplay::Shard& shard) {
  const selfplay::SampleSchema& schema = selfplay::sample_schema(shard.meta.game);
  std::vector<float> planes(nn::kInputSize);
  int features[nnue::kActiveFeatures];
  for (const selfplay::Sample& s : shard.samples) {
    if (schema.game == "mushroom") {
      nn::encode_features(selfplay::position_of(s, schema), planes.data());
    } else if (selfplay::is_eval_schema(schema.game)) {
      const Position pos = selfplay::eval_position_of(s, schema);
      selfplay::eval_labels_of(s, schema);
      nnue::active_features(pos, pos.to_move(), features);
      scan_leaf_moves(pos);
    }
  }
}

}  // namespace

// The preflight's child (nn/hdf5_preflight.h) gets 2 s of CPU, well inside
// fuzz.sh's -timeout=10, so a file libhdf5 loops on is refused, not a timeout.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  nn::set_hdf5_preflight_seconds(2);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string path = fuzz::write_hdf5_input(data, size, "shard.h5", fuzz::shard_vocabulary());
  if (path.empty()) return 0;
  selfplay::ShardMeta meta;
  if (!fuzz::read_or_refuse(path, [&] { meta = selfplay::read_shard_meta(path); })) return 0;
  selfplay::Shard shard;
  if (fuzz::read_or_refuse(path, [&] { shard = selfplay::read_shard(path, meta.game); })) use_samples(shard);
  return 0;
}
