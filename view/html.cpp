#include "view/html.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "util/text.h"

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

namespace {

const char* const kPalette[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b"};

// About five round tick values covering [lo, hi].
std::vector<double> ticks(double lo, double hi) {
  const double step = round_tick_step(lo, hi);
  std::vector<double> out;
  for (double t = std::ceil(lo / step) * step; t <= hi + step * 1e-9; t += step) out.push_back(std::abs(t) < step * 1e-9 ? 0 : t);
  return out;
}

// A value in a hover title: four significant digits, k or M for large ones.
std::string tick_label(double v) {
  char buffer[32];
  const double a = std::abs(v);
  if (a >= 1e6) std::snprintf(buffer, sizeof buffer, "%.3gM", v / 1e6);
  else if (a >= 1e4) std::snprintf(buffer, sizeof buffer, "%.3gk", v / 1e3);
  else std::snprintf(buffer, sizeof buffer, "%.4g", v);
  return buffer;
}

}  // namespace

std::vector<std::string> axis_tick_labels(const std::vector<double>& values, double step) {
  double biggest = 0;
  for (double v : values) biggest = std::max(biggest, std::abs(v));
  const double unit = biggest >= 1e6 ? 1e6 : biggest >= 1e4 ? 1e3 : 1;
  const char* suffix = unit == 1e6 ? "M" : unit == 1e3 ? "k" : "";
  // As many decimals as the step needs in that unit: 4.300M 4.305M 4.310M.
  const int decimals = std::clamp(int(std::ceil(-std::log10(step / unit) - 1e-9)), 0, 9);
  std::vector<std::string> labels;
  for (double v : values) labels.push_back(format_fixed(v / unit, decimals) + suffix);
  return labels;
}

namespace {

}  // namespace

std::string svg_line_chart(const Chart& chart, int width, int height) {
  // The legend sits between the title and the plot, three entries a row.
  const double legend_rows = double((chart.series.size() + 2) / 3);
  const double left = 58, right = 12, top = 30 + 14 * legend_rows, bottom = 42;
  double x_lo = std::numeric_limits<double>::infinity(), x_hi = -x_lo, y_lo = x_lo, y_hi = -x_lo;
  for (const ChartSeries& s : chart.series)
    for (size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
      if (!std::isfinite(s.x[i]) || !std::isfinite(s.y[i])) continue;
      x_lo = std::min(x_lo, s.x[i]);
      x_hi = std::max(x_hi, s.x[i]);
      y_lo = std::min(y_lo, s.y[i]);
      y_hi = std::max(y_hi, s.y[i]);
    }
  std::string svg = "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(width) +
                    "\" height=\"" + std::to_string(height) + "\" viewBox=\"0 0 " + std::to_string(width) + " " +
                    std::to_string(height) + "\" role=\"img\" aria-label=\"" + html_escape(chart.title) + "\">";
  svg += "<text x=\"" + std::to_string(width / 2) + "\" y=\"18\" text-anchor=\"middle\" class=\"chart-title\">" +
         html_escape(chart.title) + "</text>";
  if (!std::isfinite(x_lo)) {
    svg += "<text x=\"" + std::to_string(width / 2) + "\" y=\"" + std::to_string(height / 2) +
           "\" text-anchor=\"middle\" class=\"chart-empty\">no data yet</text></svg>";
    return svg;
  }
  if (chart.y_from_zero) y_lo = std::min(y_lo, 0.0);
  if (chart.y_max > 0) y_hi = chart.y_max;
  if (chart.whole_x) x_lo -= 0.5, x_hi += 0.5;
  if (x_hi <= x_lo) x_hi = x_lo + 1;
  if (y_hi <= y_lo) y_hi = y_lo + 1;
  const double pw = width - left - right, ph = height - top - bottom;
  auto px = [&](double x) { return left + (x - x_lo) / (x_hi - x_lo) * pw; };
  auto py = [&](double y) { return top + (1 - (y - y_lo) / (y_hi - y_lo)) * ph; };
  auto num = [](double v) { return format_fixed(v, 1); };

  const std::vector<double> y_ticks = ticks(y_lo, y_hi);
  const std::vector<std::string> y_labels = axis_tick_labels(y_ticks, round_tick_step(y_lo, y_hi));
  for (size_t i = 0; i < y_ticks.size(); ++i) {
    const double t = y_ticks[i];
    svg += "<line class=\"grid\" x1=\"" + num(left) + "\" x2=\"" + num(left + pw) + "\" y1=\"" + num(py(t)) + "\" y2=\"" +
           num(py(t)) + "\"/>";
    svg += "<text class=\"tick\" x=\"" + num(left - 6) + "\" y=\"" + num(py(t) + 4) + "\" text-anchor=\"end\">" +
           y_labels[i] + "</text>";
  }
  std::vector<double> x_ticks = ticks(x_lo, x_hi);
  double x_step = round_tick_step(x_lo, x_hi);
  if (chart.whole_x) {
    std::vector<double> whole;
    for (double t : x_ticks)
      if (t == std::floor(t)) whole.push_back(t);
    if (whole.empty()) whole.push_back(std::round((x_lo + x_hi) / 2));
    x_ticks = whole;
    x_step = std::max(1.0, x_step);
  }
  const std::vector<std::string> x_labels = axis_tick_labels(x_ticks, x_step);
  for (size_t i = 0; i < x_ticks.size(); ++i)
    svg += "<text class=\"tick\" x=\"" + num(px(x_ticks[i])) + "\" y=\"" + num(top + ph + 16) +
           "\" text-anchor=\"middle\">" + x_labels[i] + "</text>";
  svg += "<rect class=\"frame\" x=\"" + num(left) + "\" y=\"" + num(top) + "\" width=\"" + num(pw) + "\" height=\"" +
         num(ph) + "\"/>";
  svg += "<text class=\"axis\" x=\"" + num(left + pw / 2) + "\" y=\"" + std::to_string(height - 6) +
         "\" text-anchor=\"middle\">" + html_escape(chart.x_label) + "</text>";
  svg += "<text class=\"axis\" transform=\"translate(14," + num(top + ph / 2) + ") rotate(-90)\" text-anchor=\"middle\">" +
         html_escape(chart.y_label) + "</text>";

  for (size_t k = 0; k < chart.series.size(); ++k) {
    const ChartSeries& s = chart.series[k];
    const std::string colour = kPalette[k % (sizeof kPalette / sizeof kPalette[0])];
    std::string path, dots;
    bool pen_down = false;
    for (size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
      if (!std::isfinite(s.x[i]) || !std::isfinite(s.y[i])) {
        pen_down = false;
        continue;
      }
      path += (pen_down ? " L" : " M") + num(px(s.x[i])) + " " + num(py(s.y[i]));
      pen_down = true;
      if (s.points)
        dots += "<circle cx=\"" + num(px(s.x[i])) + "\" cy=\"" + num(py(s.y[i])) + "\" r=\"3\" fill=\"" + colour +
                "\"><title>" + html_escape(s.label) + ": " + tick_label(s.y[i]) + " at " + tick_label(s.x[i]) +
                "</title></circle>";
    }
    if (!path.empty())
      svg += "<path class=\"series\" d=\"" + path.substr(1) + "\" stroke=\"" + colour + "\" fill=\"none\"/>" + dots;
    const double lx = left + double(k % 3) * 150, ly = 38 + double(k / 3) * 14;
    svg += "<rect x=\"" + num(lx) + "\" y=\"" + num(ly - 8) + "\" width=\"12\" height=\"3\" fill=\"" + colour + "\"/>";
    svg += "<text class=\"legend\" x=\"" + num(lx + 16) + "\" y=\"" + num(ly - 3) + "\">" + html_escape(s.label) + "</text>";
  }
  return svg + "</svg>";
}

}  // namespace mushroom::view
