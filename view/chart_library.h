// Chart.js, the charting library the pages draw their charts with. Its
// minified source (Debian's libjs-chart.js) is copied into the build by
// view/CMakeLists.txt and inlined in each page that draws a chart, so a page
// stays one file that opens without a network.
#pragma once

namespace mushroom::view {

// The library's source, for a <script> element; it defines the global Chart.
const char* chart_library_source();
// Its version, as the file names it (e.g. "3.9.1").
const char* chart_library_version();

}  // namespace mushroom::view
