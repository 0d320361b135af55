// The registration of every pipeline, by the value of [run] model that
// names it (the config's choices come from here). A new kind of model adds
// its entry here and nothing else.
#include "run/eval_pipeline.h"
#include "run/net_pipeline.h"
#include "run/pipeline.h"

namespace mushroom::run {

const std::vector<PipelineEntry>& pipelines() {
  static const std::vector<PipelineEntry> all = {
      {"net", net_pipeline},
      {"eval", eval_pipeline},
  };
  return all;
}

std::vector<std::string> pipeline_models() {
  std::vector<std::string> models;
  for (const PipelineEntry& entry : pipelines()) models.push_back(entry.model);
  return models;
}

}  // namespace mushroom::run
