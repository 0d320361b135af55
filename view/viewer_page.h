// The game viewer's page: fixed HTML, CSS and script around the game's data
// (a JSON object; see game_viewer.cpp for its fields).
#pragma once
#include <string>

namespace mushroom::view {

// with_charts inlines the chart library (view/chart_library.h) for the
// analysis graph; a page without an analysis has no chart and goes without.
std::string viewer_page(const std::string& escaped_title, const std::string& game_json, bool with_charts);

}  // namespace mushroom::view
