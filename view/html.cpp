#include "view/html.h"

#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

#include "util/text.h"
#include "view/chart_library.h"

namespace mushroom::view {

std::string html_escape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

double round_tick_step(double lo, double hi) {
  const double rough = std::max(hi - lo, 1e-12) / 5;
  const double magnitude = std::pow(10.0, std::floor(std::log10(rough)));
  for (double m : {1.0, 2.0, 5.0})
    if (m * magnitude >= rough) return m * magnitude;
  return 10 * magnitude;
}

std::string script_safe_json(const std::string& json_text) {
  std::string out;
  out.reserve(json_text.size());
  for (char c : json_text) {
    if (c == '<')
      out += "\\u003c";
    else
      out += c;
  }
  return out;
}

std::string chart_figure(const Chart& chart, int width, int height) {
  using json = nlohmann::json;
  json series = json::array();
  bool any = false;
  for (const ChartSeries& s : chart.series) {
    json points = json::array();
    for (size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
      if (!std::isfinite(s.x[i])) continue;
      const bool finite = std::isfinite(s.y[i]);
      any = any || finite;
      points.push_back({s.x[i], finite ? json(s.y[i]) : json(nullptr)});  // null: a gap
    }
    series.push_back({{"label", s.label}, {"points", points}, {"marked", s.points}});
  }
  const std::string size = "width:" + std::to_string(width) + "px;height:" + std::to_string(height) + "px";
  if (!any)
    return "<figure class=\"chart chart-empty\" style=\"" + size + "\"><b>" + html_escape(chart.title) +
           "</b><span>no data yet</span></figure>";
  const json spec = {{"title", chart.title},   {"x_label", chart.x_label},         {"y_label", chart.y_label},
                     {"series", series},       {"y_from_zero", chart.y_from_zero}, {"y_max", chart.y_max},
                     {"whole_x", chart.whole_x}};
  return "<figure class=\"chart\" data-chart><canvas width=\"" + std::to_string(width) + "\" height=\"" +
         std::to_string(height) + "\" role=\"img\" aria-label=\"" + html_escape(chart.title) +
         "\"></canvas><script type=\"application/json\" class=\"chart-spec\">" +
         script_safe_json(spec.dump(-1, ' ', false, json::error_handler_t::replace)) + "</script></figure>";
}

namespace {

// Turns each figure's spec into a Chart.js line chart. The axes are padded
// past the outermost points (half a unit on a whole-number axis), so no point
// sits on the frame; Chart.js rounds them out to its own ticks.
const char* const kDrawCharts = R"JS(
(function () {
  "use strict";
  const colours = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#17becf", "#7f7f7f"];
  const shapes = ["circle", "triangle", "rect", "rectRot", "star", "crossRot"];
  const dashes = [[], [6, 3], [2, 3], [8, 3, 2, 3]];
  document.querySelectorAll("figure.chart[data-chart]").forEach(figure => {
    const spec = JSON.parse(figure.querySelector("script.chart-spec").textContent);
    const xs = [], ys = [];
    spec.series.forEach(s => s.points.forEach(([x, y]) => { if (y !== null) { xs.push(x); ys.push(y); } }));
    const xLo = Math.min(...xs), xHi = Math.max(...xs), yLo = Math.min(...ys), yHi = Math.max(...ys);
    const pad = (lo, hi, share) => (hi > lo ? hi - lo : Math.abs(hi) || 1) * share;
    const marked = spec.series.some(s => s.marked);
    const x = { type: "linear", title: { display: true, text: spec.x_label }, ticks: { includeBounds: false } };
    if (spec.whole_x) {
      x.min = xLo - 0.5; x.max = xHi + 0.5;
      Object.assign(x.ticks, { precision: 0, stepSize: Math.max(1, Math.ceil((xHi - xLo + 1) / 10)) });
    } else if (marked || xHi <= xLo) {
      x.suggestedMin = xLo - pad(xLo, xHi, 0.03); x.suggestedMax = xHi + pad(xLo, xHi, 0.03);
    } else {
      x.min = xLo; x.max = xHi;  // lines only: they may run to the frame's sides
    }
    const yPad = pad(yLo, yHi, 0.06);
    const y = { type: "linear", title: { display: true, text: spec.y_label }, ticks: { includeBounds: false },
                suggestedMin: yLo - yPad, suggestedMax: yHi + yPad };
    // A fixed floor at 0 or ceiling at y_max, where the points stay clear of it.
    if (spec.y_from_zero && yLo >= 0 && (!marked || yLo >= yPad)) { delete y.suggestedMin; y.min = 0; }
    if (spec.y_max > 0 && yHi + yPad <= spec.y_max) { delete y.suggestedMax; y.max = spec.y_max; }
    const datasets = spec.series.map((s, k) => ({
      label: s.label,
      data: s.points.map(([px, py]) => ({ x: px, y: py })),
      borderColor: colours[k % colours.length], backgroundColor: colours[k % colours.length],
      borderWidth: Math.max(1.5, 3.5 - k * 0.5), borderDash: dashes[k % dashes.length], pointStyle: shapes[k % shapes.length],
      // The first series are drawn wider and larger, below the later ones, so equal series all show.
      pointRadius: s.marked ? Math.max(2.5, 5.5 - k * 1.5) : 0, pointHoverRadius: s.marked ? 6 : 3,
      order: -k, spanGaps: false,
    }));
    new Chart(figure.querySelector("canvas"), {
      type: "line", data: { datasets },
      options: { responsive: false, animation: false, parsing: false,
                 interaction: { mode: "x", intersect: false },  // the tooltip lists every series at that x
                 scales: { x, y },
                 plugins: { title: { display: true, text: spec.title },
                            legend: { labels: { usePointStyle: true, boxHeight: 7,
                                                sort: (a, b) => a.datasetIndex - b.datasetIndex } } } },
    });
  });
})();
)JS";

}  // namespace

std::string chart_scripts() {
  return std::string("<script>") + chart_library_source() + "</script><script>" + kDrawCharts + "</script>";
}

}  // namespace mushroom::view
