#include "nn/torch_info.h"

#include <torch/torch.h>
#include <torch/version.h>

namespace mushroom::nn {

std::string torch_build_info() {
  // Appended piece by piece: GCC 12 reports a false -Warray-bounds inside
  // std::string's operator+ chain here once <torch/torch.h> is precompiled.
  std::string text = "LibTorch ";
  text += TORCH_VERSION;
  text += ", CUDA: ";
  if (!torch::cuda::is_available()) return text + "not available";
  const size_t n = torch::cuda::device_count();
  text += std::to_string(n);
  text += n == 1 ? " device" : " devices";
  return text;
}

}  // namespace mushroom::nn
