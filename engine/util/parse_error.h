// The error every text reader throws for malformed input (positions, judge
// input, boards): its message names the source and where the input broke.
#pragma once
#include <stdexcept>

namespace mushroom {

class ParseError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace mushroom
