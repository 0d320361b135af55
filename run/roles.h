// The run loop's stages as processes of their own, for runs spread over
// many machines (deploy/slurm/ starts them as Slurm jobs). They share only
// the run directory (run/run_dir.h), whose files each appear under their
// final names when complete, so any of them can be killed and started again:
//   actor       self-play without end: reads models/promoted.txt before each
//               chunk of games, and plays the chunk into data/gen-NNNN/ of the
//               first generation that has no candidate yet. Its shards and
//               game ids carry its host and actor index. A promoted model it
//               cannot read (half-copied, corrupt) is reported, and the
//               previous one kept.
//   learner     trains candidate g once data/gen-g holds selfplay.games games
//               (the same learner stage as `mushroom run`).
//   gatekeeper  gates and evaluates candidate g once it exists, writes the
//               generation's record, then moves models/promoted.txt.
// `mushroom run` (role all) runs the three in turn in one process, as before.
// Every role stops when the run's last generation is recorded, or when the
// run directory holds a file named "stop".
#pragma once
#include <cstdint>
#include <string>

#include "run/run_loop.h"

namespace mushroom::run {

enum class Role { kAll, kActor, kLearner, kGatekeeper };
// "all", "actor", "learner", "gatekeeper"; anything else throws naming it.
Role parse_role(const std::string& name);

struct ActorIdentity {
  std::string host;  // letters, digits, '-' and '_' are kept, others become '_'
  int index = 0;     // unique within a run: a Slurm array's task id
  std::string tag() const;  // "host.a007": part of the actor's shard names
};

// Actor `index`'s game ids in generation g: g * 10^12 + (index + 1) * 10^8,
// then chunks of 10^5 ids, so no two actors (and no actor and `mushroom
// run`, whose ids are g * 10^8 + k) ever play the same board.
constexpr int kMaxActors = 9999;
constexpr int64_t kActorIds = 100'000'000;     // per actor and generation
constexpr int64_t kActorChunkIds = 100'000;
int64_t actor_game_id_base(int generation, int index);

struct RoleOptions {
  RunOptions run;
  Role role = Role::kAll;
  ActorIdentity actor;
  int chunk_games = 0;         // actor: games per chunk (0: selfplay.games / 4, at least 1)
  double poll_seconds = 5;     // how often a waiting role looks at the run directory again
};

void run_role(const RoleOptions& options);

}  // namespace mushroom::run
