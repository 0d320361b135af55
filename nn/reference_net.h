// A deliberately plain forward pass (nested loops straight from the
// architecture in nn/model.h) that the fast runtimes are tested against.
#pragma once
#include <vector>

#include "nn/model.h"
#include "nn/net_eval.h"

namespace mushroom::nn {

// Fills wdl, margin, the logits of every policy index (kPolicySize) and the
// ownership, from encoded planes.
void reference_forward(const Model& model, const float* planes, NetEval& out);

}  // namespace mushroom::nn
