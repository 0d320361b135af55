// The learned-evaluation file (nnue/network.h): what parse_network lets
// through must run in the integer evaluator without undefined behaviour,
// give the same evaluations incrementally on the scalar kernels as from
// scratch on the default (SIMD) ones, and keep them inside the range
// alpha-beta searches in (its infinity, 30,000: alphabeta/alphabeta.cpp's
// kInf; its table keeps scores as int16). The first byte picks how the rest
// becomes a file:
//   0  as it is;
//   1  with its last 8 bytes made the checksum of the others, so that
//      mutations get past the checksum to the shape and range checks;
//   2  a network of a shape the next 6 bytes choose, with values from the
//      bytes after (each tensor scaled by a byte of its own, so that some
//      fit the runtime's ranges and some do not), written by
//      serialize_network: the evaluator on whatever weights the reader
//      accepts, as a file of this size could never carry them.
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>

#include "fuzz/fuzz_support.h"
#include "mushroom/board_gen.h"
#include "mushroom/greedy.h"
#include "nnue/evaluator.h"
#include "nnue/network.h"
#include "util/hash.h"

using namespace mushroom;

namespace {

const std::string kSource = "fuzz.eval";
constexpr int kSearchInfinity = 30000;

std::string with_checksum(std::string bytes) {
  if (bytes.size() < sizeof(uint64_t)) return bytes;
  const size_t body = bytes.size() - sizeof(uint64_t);
  const uint64_t hash = fnv1a64(bytes.data(), body);
  std::memcpy(bytes.data() + body, &hash, sizeof hash);
  return bytes;
}

// Bytes read in turn, from the start again when they run out (0 when none).
struct ByteSource {
  std::string_view bytes;
  size_t at = 0;
  uint8_t next() { return bytes.empty() ? 0 : uint8_t(bytes[at++ % bytes.size()]); }
};

std::string generated_network(std::string_view input) {
  ByteSource in{input};
  nnue::Shape shape;
  shape.hidden = 16 * (1 + in.next() % 4);
  shape.l1 = 1 + in.next() % 64;
  shape.l2 = 1 + in.next() % 64;
  shape.phase_buckets = 1 + in.next() % nnue::kMaxPhaseBuckets;
  shape.seat_buckets = 1 + in.next() % 2;
  shape.mobility = in.next() & 1;
  nnue::Network net = nnue::Network::hand_equivalent(shape);
  for (const auto& tensor : net.tensors()) {
    // 0.5 keeps the transformer inside the int16 accumulator (456 rows of
    // 64/127), 1.98 a dense weight inside int8; the scale byte moves both
    // by 2^-16..2^31.
    const float limit = std::string_view(tensor.name).rfind("ft.", 0) == 0 ? 0.5f : 1.98f;
    const float scale = limit * std::ldexp(1.0f, int(in.next() % 48) - 16);
    for (size_t i = 0; i < tensor.size; ++i) {
      const uint8_t low = in.next(), high = in.next();
      const int16_t raw = int16_t(low | high << 8);
      tensor.data[i] = scale * float(raw) / 32768.0f;
    }
  }
  return nnue::serialize_network(net);
}

void play_through(const nnue::Network& net) {
  nnue::Evaluator incremental(net, nnue::kernels::Isa::kScalar);
  nnue::Evaluator fresh(net);
  Position pos = random_board(7);
  incremental.set_root(pos);
  for (int ply = 0; ply < 24 && !pos.game_over(); ++ply) {
    fresh.set_root(pos);
    const LeafMoves scan = scan_leaf_moves(pos);
    const int a = incremental.evaluate(pos, scan), b = fresh.evaluate(pos, scan);
    if (a != b)
      fuzz::finding("ply " + std::to_string(ply) + ": incremental scalar " + std::to_string(a) + ", fresh " +
                    nnue::kernels::isa_name(fresh.isa()) + " " + std::to_string(b));
    if (std::abs(a) >= kSearchInfinity)
      fuzz::finding("ply " + std::to_string(ply) + ": an evaluation of " + std::to_string(a) +
                    ", beyond the search's range");
    incremental.evaluate_floor(pos);
    const Move m = greedy_move(pos);
    incremental.push(pos, m);
    pos.apply(m);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string_view rest = fuzz::as_text(data + 1, size - 1);
  std::string bytes;
  switch (data[0] % 3) {
    case 0: bytes = std::string(rest); break;
    case 1: bytes = with_checksum(std::string(rest)); break;
    default: bytes = generated_network(rest); break;
  }
  nnue::Network net;
  if (fuzz::read_or_refuse(kSource, [&] { net = nnue::parse_network(bytes, kSource); })) play_through(net);
  return 0;
}
