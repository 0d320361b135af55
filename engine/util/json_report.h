// The JSON reports written for programs (docs/reports.md): the arena's
// report.json, the ladder's ratings.json, `bench --json`, a run's
// progress.json. Each starts with the same head: what it is and the version
// of its schema. Included only by the .cpp files that write a report.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

namespace mushroom {

using JsonReport = nlohmann::ordered_json;

// {"schema": schema, "version": version, "mushroom": the build
// (util/version.h), "written": the UTC time}.
JsonReport json_report_head(const std::string& schema, int version);

// Writes the report atomically (a temp file beside it, then rename): a
// process killed meanwhile leaves the old file or none, never half a
// report. Numbers that are not finite are written as null.
void write_json_report(const std::string& path, const JsonReport& report);

}  // namespace mushroom
