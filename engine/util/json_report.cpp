#include "util/json_report.h"

#include "util/log_stamp.h"
#include "util/text.h"
#include "util/version.h"

namespace mushroom {

JsonReport json_report_head(const std::string& schema, int version) {
  JsonReport head;
  head["schema"] = schema;
  head["version"] = version;
  head["mushroom"] = build_version();
  head["written"] = log_time_stamp() + " UTC";
  return head;
}

void write_json_report(const std::string& path, const JsonReport& report) {
  // nlohmann writes NaN and infinities as null.
  write_file_atomic(path, report.dump(2) + "\n");
}

}  // namespace mushroom
