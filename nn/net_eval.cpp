#include "nn/net_eval.h"

#include <algorithm>
#include <cmath>

namespace mushroom::nn {

void wdl_softmax(const float logits[3], float out[3]) {
  const float mx = std::max({logits[0], logits[1], logits[2]});
  float total = 0;
  for (int i = 0; i < 3; ++i) total += out[i] = std::exp(logits[i] - mx);
  for (int i = 0; i < 3; ++i) out[i] /= total;
}

}  // namespace mushroom::nn
