#include "view/ladder_page.h"

#include "util/text.h"
#include "view/html.h"

namespace mushroom::view {

namespace {

std::string signed_elo(double v) { return (v >= 0 ? "+" : "&minus;") + format_fixed(v >= 0 ? v : -v, 0); }

std::string table(const LadderPage& page) {
  std::string html =
      "<table><thead><tr><th>rank</th><th>program</th><th>Elo</th><th>95% interval</th><th>games</th>"
      "<th>score</th><th>first W-D-L</th><th>second W-D-L</th><th>forfeits</th></tr></thead><tbody>";
  int rank = 0;
  for (const LadderPageRow& r : page.rows) {
    const std::string interval = !r.rated    ? "not rated"
                                 : r.anchor ? "anchor"
                                            : "[" + signed_elo(r.low) + ", " + signed_elo(r.high) + "]";
    html += "<tr><td>" + (r.rated ? std::to_string(++rank) : std::string("&ndash;")) + "</td><td>" +
            html_escape(r.name) + "</td><td class=\"num\">" + (r.rated ? signed_elo(r.elo) : std::string()) +
            "</td><td class=\"num\">" + interval + "</td><td class=\"num\">" + std::to_string(r.games) +
            "</td><td class=\"num\">" + (r.games ? format_fixed(100 * r.score, 1) + "%" : std::string()) +
            "</td><td class=\"num\">" + html_escape(r.first_wdl) + "</td><td class=\"num\">" +
            html_escape(r.second_wdl) + "</td><td class=\"num\">" + std::to_string(r.forfeits) + "</td></tr>";
  }
  return html + "</tbody></table>";
}

std::string head_to_head(const LadderPage& page) {
  if (page.head_to_head.empty()) return "";
  std::string html =
      "<h2>Head to head</h2><table><thead><tr><th>program</th><th>against</th><th>games</th><th>W-D-L</th>"
      "<th>score</th><th>LOS</th></tr></thead><tbody>";
  for (const LadderPairRow& p : page.head_to_head)
    html += "<tr><td>" + html_escape(p.a) + "</td><td>" + html_escape(p.b) + "</td><td class=\"num\">" +
            std::to_string(p.wins + p.draws + p.losses) + "</td><td class=\"num\">" + std::to_string(p.wins) + "-" +
            std::to_string(p.draws) + "-" + std::to_string(p.losses) + "</td><td class=\"num\">" +
            format_fixed(100 * p.score, 1) + "%</td><td class=\"num\">" + format_fixed(100 * p.los, 1) + "%</td></tr>";
  return html + "</tbody></table><p class=\"muted\">LOS: the likelihood that the program is the stronger of the "
                "two, from their decisive games.</p>";
}

std::string charts(const LadderPage& page) {
  std::string html;
  for (const LadderSeries& s : page.series) {
    Chart chart;
    chart.title = "rating by generation: " + s.label;
    chart.x_label = "generation";
    chart.y_label = "Elo";
    chart.whole_x = true;
    chart.series.push_back({"rating", s.generation, s.elo, true});
    chart.series.push_back({"95% low", s.generation, s.low, true});
    chart.series.push_back({"95% high", s.generation, s.high, true});
    html += chart_figure(chart, 640, 320);
  }
  return html.empty() ? html : "<h2>Rating by generation</h2><div class=\"charts\">" + html + "</div>";
}

}  // namespace

std::string ladder_page_html(const LadderPage& page) {
  std::string html =
      "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>" + html_escape(page.title) +
      "</title><style>"
      "body{font-family:system-ui,sans-serif;margin:24px;color:#1f2937;background:#f6f7f9}"
      "table{border-collapse:collapse;background:#fff}th,td{padding:5px 10px;border-bottom:1px solid #e5e7eb}"
      "th{text-align:left;background:#eef1f5}td.num{text-align:right;font-variant-numeric:tabular-nums}"
      ".muted{color:#6b7280}" +
      std::string(kChartStyle) + "</style></head><body><h1>" +
      html_escape(page.title) + "</h1><p class=\"muted\">" + html_escape(page.settings) + "</p>" + table(page) +
      "<p>" + html_escape(page.summary) + "</p>" + head_to_head(page) + charts(page);
  html += "<h2>Sample games</h2>";
  if (page.games.empty()) {
    html += "<p class=\"muted\">No games yet.</p>";
  } else {
    html += "<ul>";
    for (const LadderGameLink& g : page.games)
      html += "<li><a href=\"" + html_escape(g.href) + "\">" + html_escape(g.label) + "</a></li>";
    html += "</ul>";
  }
  html += "<p>Every game: <a href=\"" + html_escape(page.games_csv_href) + "\">" + html_escape(page.games_csv_href) +
          "</a></p>" + (page.series.empty() ? std::string() : chart_scripts()) + "</body></html>\n";
  return html;
}

}  // namespace mushroom::view
