// A compact binary form of a Model for the exported bot (export/): weight
// matrices quantized to int8 with one float scale per output row, biases
// kept as float32. It travels base64-encoded inside submission.cpp, or raw
// as data.bin. Plain C++ only: the exported bot decodes it with this code.
//
// Layout (little-endian):
//   "MSHQ", u32 codec version (1)
//   i32 blocks, channels, policy_dim, value_hidden, feature layout version
//   per tensor of tensor_specs(config), in that order:
//     u8 kind; kind 0: numel float32; kind 1: per row (shape[0] rows) a
//     float32 scale, then numel / rows int8 values (value = q * scale)
//   u32 FNV-1a checksum of every byte before it
//
// Quantization error: each weight is off by at most scale / 2 = max|row| /
// 254; what that does to the outputs is measured in export/export_test.cpp.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "nn/model.h"

namespace mushroom::nn {

std::vector<uint8_t> encode_model_int8(const Model& model);
// Throws std::runtime_error naming the problem (bad magic or version,
// truncated, checksum mismatch, wrong feature layout).
Model decode_model(const uint8_t* data, size_t size);
// What decode(encode(model)) gives: the weights the exported bot runs.
Model quantized_copy(const Model& model);

std::string base64_encode(const std::vector<uint8_t>& bytes);
// Ignores whitespace; throws on any other character outside the alphabet.
std::vector<uint8_t> base64_decode(const std::string& text);

}  // namespace mushroom::nn
