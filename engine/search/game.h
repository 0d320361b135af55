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
#pragma once
#include <cstdint>
#if defined(__cpp_concepts)
#include <concepts>
#endif

namespace mushroom {

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
#else
#define MUSHROOM_SEARCH_GAME typename
#define MUSHROOM_CHECK_SEARCH_GAME(G) static_assert(true)
#endif

}  // namespace mushroom
