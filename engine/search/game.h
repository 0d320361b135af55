// The small game interface the search is generic over. A game is a struct of
// static functions; the MCTS and its tests use it through templates:
//
//   using State, Action;
//   static constexpr int kMaxActions;         // bound on legal actions
//   static int legal_actions(const State&, Action* out);  // 0 when terminal
//   static void apply(State&, const Action&);
//   static bool is_terminal(const State&);
//   static int to_move(const State&);         // 0 or 1
//   static double terminal_value(const State&);   // side to move: +1/0/-1
//   static double terminal_margin(const State&);  // side to move's score margin
//   static uint64_t hash(const State&);
//   static int action_index(const Action&);   // policy-target slot
//   static constexpr int kNumSymmetries;
//   static State transform(int symmetry, const State&);
//   static Action transform(int symmetry, const Action&);
//
// A game the learning pipeline trains a net for (a "learnable game", see the
// README's "Adding a game") adds what the net and the shards need to know:
//
//   static constexpr int kBoardRows, kBoardCols;  // the net's board
//   static constexpr int kSlotsPerCell;   // policy head: slot = k * cells + cell,
//                                         // k < kSlotsPerCell (action_index's range)
//   static constexpr int kFeatureVersion; // the newest input layout
//   static int feature_planes(int version);  // 0: a layout this build does not know
//   static void encode(const State&, float* planes, int version);  // channel-major
//   static int action_of_index(int slot); // the action of a policy slot; -1: none
//   static int ply(const State&);
//   static std::vector<StateField> state_fields();  // what a sample keeps of a state
//   static void write_state(const State&, int32_t* values);  // one value per field column
//   static State read_state(const int32_t* values, int to_move, int ply);
#pragma once
#include <cstdint>
#include <vector>
#if defined(__cpp_concepts)
#include <concepts>
#endif

namespace mushroom {

// One field of a learnable game's sample: `width` integers in [lo, hi],
// stored in the shard as the dataset /name.
struct StateField {
  const char* name;
  int width;
  int32_t lo, hi;
};

// The concept needs C++20; the exported bot (export/) also builds as C++17,
// where MUSHROOM_SEARCH_GAME is a plain typename and checks are skipped.
#if defined(__cpp_concepts)
#define MUSHROOM_SEARCH_GAME SearchGame
#define MUSHROOM_CHECK_SEARCH_GAME(G) static_assert(SearchGame<G>)
template <typename G>
concept SearchGame = requires(typename G::State s, const typename G::State cs, typename G::Action a,
                              typename G::Action* out) {
  { G::kMaxActions } -> std::convertible_to<int>;
  { G::legal_actions(cs, out) } -> std::convertible_to<int>;
  { G::apply(s, a) };
  { G::is_terminal(cs) } -> std::convertible_to<bool>;
  { G::to_move(cs) } -> std::convertible_to<int>;
  { G::terminal_value(cs) } -> std::convertible_to<double>;
  { G::terminal_margin(cs) } -> std::convertible_to<double>;
  { G::hash(cs) } -> std::convertible_to<uint64_t>;
  { G::action_index(a) } -> std::convertible_to<int>;
  { G::kNumSymmetries } -> std::convertible_to<int>;
  { G::transform(0, cs) } -> std::convertible_to<typename G::State>;
  { G::transform(0, a) } -> std::convertible_to<typename G::Action>;
};
template <typename G>
concept LearnableGame = SearchGame<G> && requires(const typename G::State cs, float* planes, int32_t* values) {
  { G::kBoardRows } -> std::convertible_to<int>;
  { G::kBoardCols } -> std::convertible_to<int>;
  { G::kSlotsPerCell } -> std::convertible_to<int>;
  { G::kFeatureVersion } -> std::convertible_to<int>;
  { G::feature_planes(0) } -> std::convertible_to<int>;
  { G::encode(cs, planes, 0) };
  { G::action_of_index(0) } -> std::convertible_to<int>;
  { G::ply(cs) } -> std::convertible_to<int>;
  { G::state_fields() } -> std::convertible_to<std::vector<StateField>>;
  { G::write_state(cs, values) };
  { G::read_state(values, 0, 0) } -> std::convertible_to<typename G::State>;
};
#else
#define MUSHROOM_SEARCH_GAME typename
#define MUSHROOM_CHECK_SEARCH_GAME(G) static_assert(true)
#endif

}  // namespace mushroom
