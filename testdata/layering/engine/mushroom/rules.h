#pragma once
#include "util/helper.h"
