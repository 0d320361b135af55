// Small pieces for writing self-contained HTML: escaping, and line charts
// drawn as inline SVG (no scripts, no network).
#pragma once
#include <string>
#include <vector>

namespace mushroom::view {

std::string html_escape(const std::string& text);

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
// over [lo, hi]: the charts' and the gnuplot figures' axes.
double round_tick_step(double lo, double hi);
// Axis labels for ticks `step` apart: k or M for large values, and as many
// decimals as the step needs, so that no two labels read the same
// ("4.300M 4.305M 4.310M", not "4.3M 4.3M 4.31M").
std::vector<std::string> axis_tick_labels(const std::vector<double>& values, double step);

// The CSS that svg_line_chart's classes need, for a page's <style>.
inline constexpr const char* kChartStyle =
    ".charts{display:flex;flex-wrap:wrap;gap:14px}"
    ".chart{background:#fff;border:1px solid #d7dce3;border-radius:10px}"
    ".chart-title{font-weight:600;font-size:13px}.chart-empty{fill:#6b7280}"
    ".grid{stroke:#eceef2}.frame{fill:none;stroke:#c9ced6}"
    ".tick,.legend{font-size:11px;fill:#4b5563}.axis{font-size:12px;fill:#4b5563}"
    ".series{stroke-width:2;stroke-linejoin:round}";

// An <svg> element with axes, ticks, a legend and one polyline per series.
std::string svg_line_chart(const Chart& chart, int width = 560, int height = 300);

}  // namespace mushroom::view
