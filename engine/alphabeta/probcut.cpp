#include "alphabeta/probcut.h"

#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "util/hash.h"
#include "util/parse_error.h"
#include "util/text.h"

namespace mushroom {

void ProbCutFit::set(int band, const ProbCutPair& p) {
  if (band < 0 || band >= kBands) throw std::invalid_argument("band " + std::to_string(band) + " is not one of 0.." + std::to_string(kBands - 1));
  if (p.depth == kExactDepth) {
    if (p.shallow < 1 || p.shallow > kMaxDepth)
      throw std::invalid_argument("shallow depth " + std::to_string(p.shallow) + " is outside 1.." + std::to_string(kMaxDepth));
  } else {
    if (p.depth < 2 || p.depth > kMaxDepth)
      throw std::invalid_argument("depth " + std::to_string(p.depth) + " is outside 2.." + std::to_string(kMaxDepth));
    if (p.shallow < 1 || p.shallow >= p.depth || (p.depth - p.shallow) % 2)
      throw std::invalid_argument("shallow depth " + std::to_string(p.shallow) + " must be at least 1, below depth " +
                                  std::to_string(p.depth) + " and of its parity");
  }
  if (!(p.slope > 0) || !std::isfinite(p.slope)) throw std::invalid_argument("slope must be above 0");
  if (!(p.spread > 0) || !std::isfinite(p.spread)) throw std::invalid_argument("spread must be above 0");
  if (!std::isfinite(p.offset)) throw std::invalid_argument("offset must be finite");
  if (p.samples < 1) throw std::invalid_argument("samples must be at least 1");
  pairs_[band][p.depth] = p;
}

std::vector<std::pair<int, ProbCutPair>> ProbCutFit::entries() const {
  std::vector<std::pair<int, ProbCutPair>> out;
  for (int band = 0; band < kBands; ++band)
    for (const ProbCutPair& p : pairs_[band])
      if (p.depth) out.emplace_back(band, p);
  return out;
}

std::string probcut_evaluation_name(const std::string& eval_path) {
  return eval_path.empty() ? "hand" : probcut_evaluation_of_bytes(read_file(eval_path));
}

std::string probcut_evaluation_of_bytes(const std::string& eval_bytes) {
  return fnv1a64_hex(eval_bytes.data(), eval_bytes.size());
}

ProbCutFit parse_probcut_fit(const std::string& text, const std::string& source) {
  ProbCutFit fit;
  bool named = false;
  int line_number = 0;
  for (const std::string& raw : split_lines(text)) {
    ++line_number;
    std::string_view line = raw;
    if (const size_t hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    const std::vector<std::string_view> words = split_words(line);
    if (words.empty()) continue;
    const auto fail = [&](const std::string& problem) -> ParseError {
      return ParseError(source + ":" + std::to_string(line_number) + ": " + problem);
    };
    if (words[0] == "evaluation") {
      if (words.size() != 2) throw fail("`evaluation` takes one value (hand, or 16 hex digits)");
      const std::string name(words[1]);
      const bool hex = name.size() == 16 && name.find_first_not_of("0123456789abcdef") == std::string::npos;
      if (name != "hand" && !hex) throw fail("evaluation '" + name + "' is neither `hand` nor 16 lowercase hex digits");
      if (named) throw fail("`evaluation` is given twice");
      fit.evaluation = name;
      named = true;
    } else if (words[0] == "pair") {
      if (words.size() != 10)
        throw fail("`pair` takes 9 values: LO HI DEPTH SHALLOW SLOPE OFFSET SPREAD SAMPLES CORRELATION");
      int lo, hi;
      ProbCutPair p;
      const bool exact = words[3] == "exact";
      if (exact) p.depth = ProbCutFit::kExactDepth;
      if (!parse_int(words[1], lo) || !parse_int(words[2], hi) || (!exact && !parse_int(words[3], p.depth)) ||
          !parse_int(words[4], p.shallow) || !parse_double(words[5], p.slope) || !parse_double(words[6], p.offset) ||
          !parse_double(words[7], p.spread) || !parse_int(words[8], p.samples) ||
          !parse_double(words[9], p.correlation))
        throw fail("`pair` has a value that is not a number");
      const int band = ProbCutFit::band_of(std::max(lo, 0));
      if (lo < 0 || lo != ProbCutFit::band_first(band) || hi != ProbCutFit::band_last(band))
        throw fail("mushrooms " + std::to_string(lo) + "-" + std::to_string(hi) + " is not a band of " +
                   std::to_string(ProbCutFit::kBandWidth) + " (0-19, 20-39, ..., 160-170)");
      if (exact ? fit.exact_at(lo) : fit.at(lo, p.depth)) throw fail("band " + std::to_string(lo) + "-" + std::to_string(hi) + " at depth " +
                                          std::string(words[3]) + " is given twice");
      try {
        fit.set(band, p);
      } catch (const std::invalid_argument& e) {
        throw fail(e.what());
      }
    } else {
      throw fail("unknown key '" + std::string(words[0]) + "' (the keys: evaluation, pair)");
    }
  }
  if (!named) throw ParseError(source + ": no `evaluation` line (which evaluation the fit was made with)");
  return fit;
}

ProbCutFit read_probcut_fit(const std::string& path) { return parse_probcut_fit(read_file(path), path); }

std::string format_probcut_fit(const ProbCutFit& fit, const std::string& header_comment) {
  std::string out;
  for (const std::string& line : split_lines(header_comment)) out += "# " + line + "\n";
  out += "# Multi-ProbCut fit (engine/alphabeta/probcut.h): deep = slope * shallow + offset, residual spread,\n";
  out += "# in 1/16 cells, per band of mushrooms left.\n";
  out += "evaluation " + fit.evaluation + "\n";
  out += "#    lo  hi depth shallow    slope    offset   spread samples correlation\n";
  for (const auto& [band, p] : fit.entries()) {
    char line[200];
    const std::string depth = p.depth == ProbCutFit::kExactDepth ? "exact" : std::to_string(p.depth);
    std::snprintf(line, sizeof line, "pair %3d %3d %5s %7d %8.5f %9.3f %8.3f %7d %11.5f\n", ProbCutFit::band_first(band),
                  ProbCutFit::band_last(band), depth.c_str(), p.shallow, p.slope, p.offset, p.spread, p.samples,
                  p.correlation);
    out += line;
  }
  return out;
}

void check_probcut_evaluation(const ProbCutFit& fit, const std::string& evaluation, const std::string& source) {
  if (fit.evaluation != evaluation)
    throw std::invalid_argument("ProbCut fit " + source + " was made with evaluation " + fit.evaluation +
                                ", not with this one (" + evaluation + "): fit it again (mushroom probcut-fit)");
}

ProbCutPair fit_probcut_pair(int depth, int shallow, const std::vector<std::pair<double, double>>& shallow_deep) {
  ProbCutPair p;
  p.depth = depth;
  p.shallow = shallow;
  const double n = double(shallow_deep.size());
  if (shallow_deep.size() < 3) return p;
  double mx = 0, my = 0;
  for (const auto& [x, y] : shallow_deep) mx += x, my += y;
  mx /= n, my /= n;
  double sxx = 0, sxy = 0, syy = 0;
  for (const auto& [x, y] : shallow_deep) {
    sxx += (x - mx) * (x - mx);
    sxy += (x - mx) * (y - my);
    syy += (y - my) * (y - my);
  }
  if (sxx <= 0) return p;
  p.slope = sxy / sxx;
  p.offset = my - p.slope * mx;
  double residuals = 0;
  for (const auto& [x, y] : shallow_deep) {
    const double r = y - (p.slope * x + p.offset);
    residuals += r * r;
  }
  p.spread = std::sqrt(residuals / std::max(1.0, n - 2));  // two parameters fitted
  p.correlation = syy > 0 ? sxy / std::sqrt(sxx * syy) : 0;
  p.samples = int(shallow_deep.size());
  return p;
}

}  // namespace mushroom
