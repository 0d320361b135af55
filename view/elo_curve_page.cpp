#include "view/elo_curve_page.h"

#include "util/text.h"
#include "view/html.h"

namespace mushroom::view {

namespace {

std::string chart(const EloCurvePage& page) {
  Chart chart;
  chart.title = "Elo of each shipped evaluation, real clock, chained from the anchor";
  chart.x_label = "shipped evaluation (# in the table; 0 = " + (page.rows.empty() ? "" : page.rows[0].name) + ")";
  chart.y_label = "Elo";
  chart.whole_x = true;
  ChartSeries elo{"Elo", {}, {}, true}, low{"95% low", {}, {}, true}, high{"95% high", {}, {}, true};
  for (size_t i = 0; i < page.rows.size(); ++i) {
    const EloCurvePageRow& r = page.rows[i];
    for (ChartSeries* s : {&elo, &low, &high}) s->x.push_back(double(i));
    elo.y.push_back(r.elo), low.y.push_back(r.low), high.y.push_back(r.high);
  }
  chart.series = {elo, low, high};
  return "<div class=\"charts\">" + chart_figure(chart, 720, 360) + "</div>";
}

std::string td(const std::string& text, bool number = false) {
  return std::string(number ? "<td class=\"num\">" : "<td>") + html_escape(text) + "</td>";
}

std::string table(const EloCurvePage& page) {
  std::string html =
      "<table><thead><tr><th>#</th><th>evaluation</th><th>shipped</th><th>commit</th><th>Elo, chained</th>"
      "<th>95% interval</th><th>match</th><th>games</th><th>first W-D-L</th><th>second W-D-L</th>"
      "<th>pentanomial</th><th>match Elo [95%]</th><th>history</th></tr></thead><tbody>";
  for (size_t i = 0; i < page.rows.size(); ++i) {
    const EloCurvePageRow& r = page.rows[i];
    html += "<tr>" + td(std::to_string(i), true) + "<td class=\"nw\">" + html_escape(r.name) + "<div class=\"muted\">" +
            html_escape(r.model) + "</div></td><td class=\"nw\">" + html_escape(r.date) + "</td><td><code>" +
            html_escape(r.commit) + "</code></td>" + td(format_signed(r.elo, 1), true) +
            td(r.anchor ? "anchor" : "[" + format_signed(r.low, 1) + ", " + format_signed(r.high, 1) + "]", true);
    if (r.anchor)
      html += "<td colspan=\"6\" class=\"muted\">the anchor: Elo 0 by definition</td>";
    else
      html += td("against " + r.against + ", " + r.sprt) + td(r.games, true) + td(r.first_wdl, true) +
              td(r.second_wdl, true) + td(r.pentanomial, true) + td(r.match_elo, true);
    html += "<td><a href=\"" + html_escape(r.history_href) + "\">" + html_escape(r.history) + "</a></td></tr>";
  }
  return html + "</tbody></table>";
}

std::string commands(const EloCurvePage& page) {
  std::string html =
      "<h2>The matches</h2><p class=\"muted\">Each as it was run; A is the evaluation that shipped, "
      "B the one before it.</p><ul>";
  for (const EloCurvePageRow& r : page.rows)
    if (!r.anchor)
      html += "<li>" + html_escape(r.name) + " against " + html_escape(r.against) + ":<pre>" + html_escape(r.command) +
              "</pre></li>";
  return html + "</ul>";
}

}  // namespace

std::string elo_curve_page_html(const EloCurvePage& page) {
  return "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>" + html_escape(page.title) +
         "</title><style>"
         "body{font-family:system-ui,sans-serif;margin:24px;color:#1f2937;background:#f6f7f9;max-width:1400px}"
         "table{border-collapse:collapse;background:#fff;margin:14px 0}"
         "th,td{padding:5px 10px;border-bottom:1px solid #e5e7eb;vertical-align:top}"
         "th{text-align:left;background:#eef1f5}td.num{text-align:right;font-variant-numeric:tabular-nums}"
         "td.num,td.nw{white-space:nowrap}"
         ".muted{color:#6b7280;font-size:90%}pre{white-space:pre-wrap;background:#fff;padding:6px;"
         "border:1px solid #e5e7eb}" +
         std::string(kChartStyle) + "</style></head><body><h1>" + html_escape(page.title) + "</h1>" + chart(page) +
         "<p>" + html_escape(page.method) + "</p>" + table(page) + commands(page) + "<p class=\"muted\">Drawn by " +
         "<code>mushroom elo-curve</code> from " + html_escape(page.source) + ".</p>" + chart_scripts() +
         "</body></html>\n";
}

}  // namespace mushroom::view
