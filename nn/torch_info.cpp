#include "nn/torch_info.h"

#include <torch/torch.h>
#include <torch/version.h>

namespace mushroom::nn {

std::string torch_build_info() {
  std::string text = std::string("LibTorch ") + TORCH_VERSION + ", CUDA: ";
  if (!torch::cuda::is_available()) return text + "not available";
  const size_t n = torch::cuda::device_count();
  return text + std::to_string(n) + (n == 1 ? " device" : " devices");
}

}  // namespace mushroom::nn
