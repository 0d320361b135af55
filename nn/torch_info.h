// What LibTorch this build links (LibTorch builds only): its version and
// whether CUDA devices can be used, for `mushroom --version`. Declared
// without LibTorch's headers, so the CLI's entry point stays light.
#pragma once
#include <string>

namespace mushroom::nn {

// "LibTorch 1.13.0, CUDA: not available" or "LibTorch 2.4.1, CUDA: 1 device".
std::string torch_build_info();

}  // namespace mushroom::nn
