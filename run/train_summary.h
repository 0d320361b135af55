// What a generation's training stage did (its steps, samples seen, rate and
// losses), kept beside its candidate: metrics/train-gen-NNNN.summary.json.
#pragma once
#include "run/run_dir.h"
#include "train/train_stats.h"

namespace mushroom::run {

// A training stage's figures, written (atomically) before its candidate,
// so that a run killed after the candidate records the generation as an
// unkilled one does: the losses are means over the last steps, which the
// training lines alone do not hold.
void write_trained_stats(const RunDir& run, int generation, const train::TrainStats& stats);
// A candidate's training figures, read back: from its summary
// (metrics/train-gen-NNNN.summary.json) when there is one, else, for runs
// from before it, from its training lines (metrics/train-gen-NNNN.jsonl:
// the last line's steps, samples seen, learning rate and step losses); zero
// steps when there are neither. Throws view::RecordError naming the file
// for a summary that is not one training line of this generation, or that
// disagrees with the training lines' last step (another training's).
train::TrainStats trained_stats_of(const RunDir& run, int generation);

}  // namespace mushroom::run
