// Small pieces for writing self-contained HTML: escaping, JSON inside a
// <script> element, and line charts drawn by Chart.js (view/chart_library.h)
// inlined in the page (no network).
#pragma once
#include <string>
#include <vector>

namespace mushroom::view {

std::string html_escape(const std::string& text);
// JSON text made safe to sit inside a <script> element: '<' appears in JSON
// only within strings, where \u003c says the same, so no "</script>" in a
// player's name can end the element early.
std::string script_safe_json(const std::string& json_text);

struct ChartSeries {
  std::string label;
  std::vector<double> x, y;  // NaN y values leave a gap
  bool points = false;       // mark each point (sparse series)
};

struct Chart {
  std::string title, x_label, y_label;
  std::vector<ChartSeries> series;
  bool y_from_zero = false;
  double y_max = 0;  // > 0: fixed top of the y axis
  // x values are whole numbers (generations): ticks only on them, and half a
  // unit of margin each side, so one generation is a point mid-chart.
  bool whole_x = false;
};

// A round step (1, 2 or 5 times a power of ten) giving about five ticks
// over [lo, hi]: the gnuplot figures' axes.
double round_tick_step(double lo, double hi);

// The CSS that chart_figure's classes need, for a page's <style>.
inline constexpr const char* kChartStyle =
    ".charts{display:flex;flex-wrap:wrap;gap:14px}"
    ".chart{margin:0;padding:6px;background:#fff;border:1px solid #d7dce3;border-radius:10px}"
    ".chart-empty{display:flex;flex-direction:column;align-items:center;justify-content:center;color:#6b7280}"
    ".chart-empty b{color:#1d2330;font-weight:600;font-size:13px}";

// A <figure> holding the chart's canvas and its data (JSON), drawn by
// chart_scripts(); a chart with no finite point says "no data yet" instead.
// Every chart has a title and labelled axes; a series' NaN values leave a
// gap; each series has its own colour, point shape and dash, and the first
// ones are drawn larger, so a series equal to another still shows.
std::string chart_figure(const Chart& chart, int width = 560, int height = 300);
// The library and the code that draws every chart_figure on the page: once
// per page, after the figures.
std::string chart_scripts();

}  // namespace mushroom::view
