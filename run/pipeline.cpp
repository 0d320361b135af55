#include "run/pipeline.h"

#include <stdexcept>

namespace mushroom::run {

Pipeline pipeline_of(const RunConfig& config) {
  for (const PipelineEntry& entry : pipelines())
    if (entry.model == config.run.model) return entry.make(config);
  throw ConfigError("run.model = \"" + config.run.model + "\" names no registered pipeline");
}

}  // namespace mushroom::run
