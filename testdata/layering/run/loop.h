#pragma once
#include "train/nnue/net.h"
#include "train/trainer.h"
