// Batched inference through LibTorch, behind the LibTorch-free NetBackend
// interface (so callers need not include torch). Only the selected moves'
// logits leave the device, not the whole policy table.
#pragma once
#include <memory>
#include <string>

#include "nn/model.h"
#include "nn/net_eval.h"

namespace mushroom::nn {

// device: "cpu", "cuda" or "cuda:N" (from the run's config). threads: LibTorch
// intra-op threads on the CPU, 0 to leave LibTorch's default.
std::unique_ptr<NetBackend> make_torch_backend(const Model& model, const std::string& device, int threads = 0);

}  // namespace mushroom::nn
