#pragma once
#include "mushroom/rules.h"
