// The game viewer's page: fixed HTML, CSS and script around the game's data
// (a JSON object; see game_viewer.cpp for its fields).
#pragma once
#include <string>

namespace mushroom::view {

std::string viewer_page(const std::string& escaped_title, const std::string& game_json);

}  // namespace mushroom::view
