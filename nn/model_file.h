// The model file: one HDF5 file that describes itself.
//   root attributes  format = "mushroom-model", format_version = 1,
//                    feature_version (nn/features.h), input_planes,
//                    blocks, channels, policy_dim, value_hidden,
//                    meta.<key> strings (model id, generation, ...)
//   /weights/<name>  float32 datasets, names and shapes as nn/model.h lists
// Saving writes a temp file beside the target and renames it, so a crash
// never leaves a half-written model under the real name.
#pragma once
#include <stdexcept>
#include <string>

#include "nn/model.h"

namespace mushroom::nn {

constexpr int kModelFormatVersion = 1;

class ModelFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

void save_model(const Model& model, const std::string& path);
// Throws ModelFileError naming the file and the problem: not HDF5, not a
// model, a version we cannot read, a missing/misshapen/non-finite tensor.
Model load_model(const std::string& path);

}  // namespace mushroom::nn
