import Foundation
import LifeSimEngine

/// What to draw: a metric's mean (with its 95% CI as error bars) against one
/// parameter, one line per value of another.
public struct PlotRequest: Sendable {
  public var metric: String
  /// The x-axis parameter; by default the first one with several numeric values.
  public var x: String?
  /// One series per value of this parameter; by default the other varying one.
  public var series: String?
  /// Keep only points with these values (`--where name=value`).
  public var filters: [(name: String, value: String)] = []
  public var title: String?
  /// Draw a numeric x parameter to scale even when it takes few values.
  public var xContinuous = false
  /// At most this many numeric values make an x axis of ordered categories
  /// (iOS 12, 13, 17, 26 equally spaced), unless `xContinuous`.
  public static let categoryLimit = 6

  public init(metric: String) { self.metric = metric }
}

/// An SVG chart of a summarised result file: lines over a numeric x axis
/// (to scale, or, for a few values, as ordered categories equally spaced);
/// over a categorical one (values with no order between them), points side
/// by side with their error bars, joined by nothing.
public enum SVGPlot {
  // Okabe–Ito: distinguishable with the common colour-vision deficiencies.
  static let palette = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442"]

  /// Draws the chart, or explains why it cannot.
  public static func render(_ summary: ResultSummary, _ request: PlotRequest) throws -> String {
    guard summary.metrics.contains(request.metric) else {
      throw BatchError("no metric '\(request.metric)' in the results; metrics: \(summary.metrics.joined(separator: ", "))")
    }
    for f in request.filters where !summary.params.contains(f.name) {
      throw BatchError("--where \(f.name)=…: no such parameter; parameters: \(summary.params.joined(separator: ", "))")
    }
    for f in request.filters {
      let existing = summary.points.compactMap { p in p.params.first { $0.name == f.name }?.value }
      if !existing.contains(f.value) {
        var seen: [String] = []
        for v in existing where !seen.contains(v) { seen.append(v) }
        throw BatchError("--where \(f.name)=\(f.value): no point has that value; \(f.name) takes \(seen.joined(separator: ", "))")
      }
    }
    let points = summary.points.filter { p in
      request.filters.allSatisfy { f in p.params.contains { $0.name == f.name && $0.value == f.value } }
    }
    func values(_ name: String) -> [String] {
      var seen: [String] = []
      for p in points { if let v = p.params.first(where: { $0.name == name })?.value, !seen.contains(v) { seen.append(v) } }
      return seen
    }
    let varying = summary.params.filter { values($0).count > 1 }
    guard let x = request.x ?? varying.first(where: { values($0).allSatisfy { Double($0) != nil } }) ?? varying.first else {
      throw BatchError("no parameter varies, so there is nothing to put on the x axis")
    }
    guard summary.params.contains(x) else {
      throw BatchError("--x \(x): no such parameter; parameters: \(summary.params.joined(separator: ", "))")
    }
    let series = request.series ?? varying.first { $0 != x }
    if let s = series, !summary.params.contains(s) {
      throw BatchError("--series \(s): no such parameter; parameters: \(summary.params.joined(separator: ", "))")
    }
    let others = varying.filter { $0 != x && $0 != series }
    guard others.isEmpty else {
      throw BatchError("the parameters \(others.joined(separator: ", ")) also vary; fix them with --where \(others[0])=\(values(others[0])[0])")
    }

    var xValues = values(x)
    let allNumeric = xValues.allSatisfy { Double($0) != nil }
    // A few numbers (versions, a handful of sizes) are ordered categories:
    // equally spaced in order, joined by lines.
    let ordinal = allNumeric && !request.xContinuous && xValues.count <= PlotRequest.categoryLimit
    if ordinal { xValues.sort { Double($0)! < Double($1)! } }
    let numericX = allNumeric && !ordinal
    let seriesValues = series.map(values) ?? [""]
    // Each series: (x position, mean, CI) per point.
    var lines: [(label: String, points: [(x: Double, y: Double, ci: ClosedRange<Double>?)])] = []
    for s in seriesValues {
      var pts: [(x: Double, y: Double, ci: ClosedRange<Double>?)] = []
      for p in points where series == nil || p.params.contains(where: { $0.name == series! && $0.value == s }) {
        // A point whose runs gave no finite value has no mean to draw.
        guard let xv = p.params.first(where: { $0.name == x })?.value,
              let m = p.metrics.first(where: { $0.name == request.metric }), m.count > 0, m.mean.isFinite else { continue }
        let xPos = numericX ? Double(xv)! : Double(xValues.firstIndex(of: xv)!)
        guard xPos.isFinite else { continue }
        let ci = m.ci.flatMap { $0.lowerBound.isFinite && $0.upperBound.isFinite ? $0 : nil }
        pts.append((xPos, m.mean, ci))
      }
      pts.sort { $0.x < $1.x }
      if !pts.isEmpty { lines.append((s, pts)) }
    }
    guard !lines.isEmpty else {
      let gaveNonFinite = points.contains { $0.metrics.contains { $0.name == request.metric && $0.nonFinite > 0 } }
      throw BatchError("no successful runs to plot for '\(request.metric)'" + (gaveNonFinite ? " (its runs gave only non-finite values: nan, inf)" : ""))
    }

    // Geometry.
    let width = 760.0, height = 480.0
    let left = 84.0, right = series == nil ? 24.0 : 170.0, top = 56.0, bottom = 64.0
    let plotW = width - left - right, plotH = height - top - bottom
    let allX = lines.flatMap { $0.points.map(\.x) }
    let allY = lines.flatMap { $0.points.flatMap { [$0.y, $0.ci?.lowerBound ?? $0.y, $0.ci?.upperBound ?? $0.y] } }
    let xTicks = numericX ? niceTicks(allX.min()!, allX.max()!) : xValues.indices.map(Double.init)
    let yTicks = niceTicks(min(0, allY.min()!), allY.max()!)
    let (x0, x1) = numericX ? (xTicks.first!, xTicks.last!) : (-0.5, Double(xValues.count) - 0.5)
    let (y0, y1) = (yTicks.first!, yTicks.last!)
    func pxBase(_ v: Double) -> Double { left + (x1 == x0 ? 0.5 : share(v, x0, x1)) * plotW }
    func px(_ v: Double) -> Double { pxBase(v) }
    func py(_ v: Double) -> Double { top + plotH - (y1 == y0 ? 0.5 : share(v, y0, y1)) * plotH }
    func f(_ v: Double) -> String { String(format: "%.1f", v) }

    var svg = """
      <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" viewBox="0 0 \(Int(width)) \(Int(height))" font-family="Helvetica, Arial, sans-serif" font-size="13">
      <rect width="100%" height="100%" fill="white"/>

      """
    let title = request.title ?? "\(request.metric) by \(x)" + (series.map { ", one line per \($0)" } ?? "")
    svg += "<text x=\"\(f(width / 2))\" y=\"26\" text-anchor=\"middle\" font-size=\"16\" font-weight=\"bold\">\(escape(title))</text>\n"
    let filterText = request.filters.map { "\($0.name)=\($0.value)" }.joined(separator: ", ")
    let n = points.compactMap { $0.metrics.first { $0.name == request.metric }?.count }.max() ?? 0
    let nonFinite = points.reduce(0) { $0 + ($1.metrics.first { $0.name == request.metric }?.nonFinite ?? 0) }
    let leftOut = nonFinite == 0 ? "" : "; \(nonFinite) non-finite value\(nonFinite == 1 ? "" : "s") (nan, inf) left out"
    let boot = points.contains { $0.metrics.contains { $0.name == request.metric && $0.ci != nil && $0.ciMethod == .bootstrap } }
    let method = boot ? " (bootstrap where t would cross 0)" : ""
    svg += "<text x=\"\(f(width / 2))\" y=\"44\" text-anchor=\"middle\" fill=\"#555\">mean of n = \(n) runs per point; error bars: 95% CI of the mean\(method)\(leftOut)\(filterText.isEmpty ? "" : "; " + escape(filterText))</text>\n"
    // Grid and axes.
    for t in yTicks {
      svg += "<line x1=\"\(f(left))\" x2=\"\(f(left + plotW))\" y1=\"\(f(py(t)))\" y2=\"\(f(py(t)))\" stroke=\"#e5e5e5\"/>\n"
      svg += "<text x=\"\(f(left - 8))\" y=\"\(f(py(t) + 4))\" text-anchor=\"end\">\(tickLabel(t))</text>\n"
    }
    for (i, t) in xTicks.enumerated() {
      svg += "<line x1=\"\(f(px(t)))\" x2=\"\(f(px(t)))\" y1=\"\(f(top + plotH))\" y2=\"\(f(top + plotH + 5))\" stroke=\"#333\"/>\n"
      let label = numericX ? tickLabel(t) : escape(xValues[i])
      svg += "<text x=\"\(f(px(t)))\" y=\"\(f(top + plotH + 20))\" text-anchor=\"middle\">\(label)</text>\n"
    }
    svg += "<rect x=\"\(f(left))\" y=\"\(f(top))\" width=\"\(f(plotW))\" height=\"\(f(plotH))\" fill=\"none\" stroke=\"#333\"/>\n"
    svg += "<text x=\"\(f(left + plotW / 2))\" y=\"\(f(height - 18))\" text-anchor=\"middle\" font-size=\"14\">\(escape(x))</text>\n"
    svg += "<text transform=\"translate(22 \(f(top + plotH / 2))) rotate(-90)\" text-anchor=\"middle\" font-size=\"14\">\(escape(request.metric))</text>\n"
    // Series: each has its colour, its dash pattern and its marker shape, so
    // that none is told apart by colour alone.
    let dashes = ["", "6 3", "2 3", "8 3 2 3", "12 4", "1 2"]
    func dash(_ i: Int) -> String { dashes[i % dashes.count].isEmpty ? "" : " stroke-dasharray=\"\(dashes[i % dashes.count])\"" }
    func mark(_ i: Int, _ x: Double, _ y: Double, _ color: String) -> String {
      switch i % 4 {
      case 0: return "<circle cx=\"\(f(x))\" cy=\"\(f(y))\" r=\"4\" fill=\"\(color)\"/>"
      case 1: return "<rect x=\"\(f(x - 4))\" y=\"\(f(y - 4))\" width=\"8\" height=\"8\" fill=\"\(color)\"/>"
      case 2: return "<path d=\"M\(f(x)) \(f(y - 5))L\(f(x + 5)) \(f(y + 4))L\(f(x - 5)) \(f(y + 4))z\" fill=\"\(color)\"/>"
      default: return "<path d=\"M\(f(x)) \(f(y - 5))L\(f(x + 5)) \(f(y))L\(f(x)) \(f(y + 5))L\(f(x - 5)) \(f(y))z\" fill=\"\(color)\"/>"
      }
    }
    // Categorical x: each series' points a little apart within their category.
    let slot = numericX ? 0 : min(18, plotW / Double(max(1, xValues.count)) * 0.6 / Double(max(1, lines.count)))
    for (i, line) in lines.enumerated() {
      let color = palette[i % palette.count]
      let offset = (Double(i) - Double(lines.count - 1) / 2) * slot
      func px(_ v: Double) -> Double { pxBase(v) + offset }
      if allNumeric {
        let path = line.points.map { "\(f(px($0.x))),\(f(py($0.y)))" }.joined(separator: " ")
        svg += "<polyline points=\"\(path)\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"2\"\(dash(i))/>\n"
      }
      for p in line.points {
        if let ci = p.ci {
          let cx = px(p.x)
          svg += "<path d=\"M\(f(cx)) \(f(py(ci.lowerBound)))V\(f(py(ci.upperBound)))M\(f(cx - 5)) \(f(py(ci.lowerBound)))h10M\(f(cx - 5)) \(f(py(ci.upperBound)))h10\" stroke=\"\(color)\" stroke-width=\"1.5\"/>\n"
        }
        svg += mark(i, px(p.x), py(p.y), color) + "\n"
      }
    }
    // Legend.
    if let series {
      let lx = left + plotW + 16
      svg += "<text x=\"\(f(lx))\" y=\"\(f(top + 12))\" font-weight=\"bold\">\(escape(series))</text>\n"
      for (i, line) in lines.enumerated() {
        let y = top + 34 + Double(i) * 22
        let color = palette[i % palette.count]
        if allNumeric {
          svg += "<line x1=\"\(f(lx))\" x2=\"\(f(lx + 24))\" y1=\"\(f(y - 4))\" y2=\"\(f(y - 4))\" stroke=\"\(color)\" stroke-width=\"2\"\(dash(i))/>"
        }
        svg += mark(i, lx + 12, y - 4, color)
        svg += "<text x=\"\(f(lx + 32))\" y=\"\(f(y))\">\(escape(line.label))</text>\n"
      }
    }
    return svg + "</svg>\n"
  }

  static func escape(_ s: String) -> String { xmlEscaped(s) }

  /// Where `v` lies from `a` to `b`, as a share of the span. An axis from
  /// near -1.8e308 to near 1.8e308 spans more than a Double holds: its ends
  /// are halved first, which halves both terms exactly and leaves the share
  /// as it is.
  static func share(_ v: Double, _ a: Double, _ b: Double) -> Double {
    let span = b - a
    if span.isFinite { return (v - a) / span }
    return (v / 2 - a / 2) / (b / 2 - a / 2)
  }

  static func tickLabel(_ v: Double) -> String {
    if v == v.rounded() && abs(v) < 1e9 { return String(Int64(v)) }
    // Rounded to a millionth where that stays finite (not near the largest Double).
    let rounded = (v * 1e6).rounded() / 1e6
    return String(format: "%g", rounded.isFinite ? rounded : v)
  }

  /// Round tick values covering [lo, hi]: steps of 1, 2 or 5 times a power of ten.
  static func niceTicks(_ lo: Double, _ hi: Double, count: Int = 6) -> [Double] {
    var lo = lo, hi = hi
    if hi <= lo {
      // One value: an axis a tenth of it wide, below it where above would pass the largest Double.
      let pad = lo == 0 ? 1 : abs(lo) * 0.1
      hi = lo + pad
      if !hi.isFinite { (lo, hi) = (lo - pad, lo) }
    }
    let raw = (hi - lo) / Double(count - 1)
    // Near the ends of the Double range no round step exists: the ends will do.
    guard raw.isFinite, raw > 0 else { return lo < hi ? [lo, hi] : [lo] }
    let magnitude = pow(10, (log10(raw)).rounded(.down))
    let step = [1.0, 2, 5, 10].map { $0 * magnitude }.first { $0 >= raw } ?? 10 * magnitude
    guard step.isFinite, step > 0, (hi / step).isFinite, (lo / step).rounded(.down) * step > -.infinity,
          (hi / step).rounded(.up) * step + step < .infinity else { return [lo, hi] }
    let start = (lo / step).rounded(.down) * step
    let end = (hi / step).rounded(.up) * step
    return stride(from: start, through: end + step / 2, by: step).map { ($0 / step).rounded() * step }
  }
}
