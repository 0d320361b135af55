#pragma once
#include "train/trainer.h"
// A violation: an include that runs back up, from train/nnue/ to run/.
#include "run/loop.h"
