#pragma once
#include "mushroom/rules.h"
// A violation: train/ is below train/nnue/.
#include "train/nnue/net.h"
