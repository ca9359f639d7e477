import Foundation
import TextTable

/// The statistics of one metric at one point, over its successful runs.
///
/// A run may return a non-finite number (`0/0`, `math.huge`): it is data, so
/// it is counted (`nan`, `inf`, `negativeInf`) and shown, but it is left out
/// of `count` and of every statistic, which are over the finite values only.
public struct MetricSummary: Sendable, Equatable {
  public var name: String
  /// The finite values the statistics are over.
  public var count: Int
  public var mean: Double
  /// Sample standard deviation (n − 1); 0 for a single run.
  public var sd: Double
  /// The 95% confidence interval of the mean; nil below 2 runs.
  public var ci: ClosedRange<Double>?
  /// How `ci` was made: `.t` or `.bootstrap` (nil with no interval).
  public var ciMethod: IntervalMethod?
  public var p50: Double
  public var p95: Double
  /// Runs that returned NaN, +infinity and −infinity.
  public var nan = 0
  public var inf = 0
  public var negativeInf = 0

  /// The runs whose value is left out of the statistics.
  public var nonFinite: Int { nan + inf + negativeInf }

  /// Summarises values (at least one). With no finite value, `count` is 0 and
  /// the statistics are NaN.
  public init(name: String, values: [Double], interval: IntervalMethod = .auto) {
    var finite: [Double] = []
    finite.reserveCapacity(values.count)
    for x in values {
      if x.isFinite { finite.append(x) } else if x.isNaN { nan += 1 } else if x > 0 { inf += 1 } else { negativeInf += 1 }
    }
    let sorted = finite.sorted()
    let n = sorted.count
    self.name = name
    count = n
    guard n > 0 else {
      mean = .nan
      sd = .nan
      p50 = .nan
      p95 = .nan
      return
    }
    var m = sorted.reduce(0, +) / Double(n)
    // Values near the largest Double overflow the sum; dividing first keeps
    // the mean finite (each term is then at most max / n).
    if !m.isFinite { m = sorted.reduce(0) { $0 + $1 / Double(n) } }
    mean = m
    sd = n > 1 ? (sorted.reduce(0) { $0 + ($1 - m) * ($1 - m) } / Double(n - 1)).squareRoot() : 0
    if n > 1 {
      switch interval {
      case .t:
        ci = studentInterval(mean: mean, sd: sd, n: n)
        ciMethod = .t
      case .bootstrap:
        ci = Bootstrap.percentileInterval(sorted)
        ciMethod = .bootstrap
      case .auto:
        ci = studentInterval(mean: mean, sd: sd, n: n)
        ciMethod = .t
        // A count or a rate (no value below 0) gets no interval below 0,
        // nor does a metric that is never above 0 get one above it.
        if let c = ci, (sorted[0] >= 0 && c.lowerBound < 0) || (sorted[n - 1] <= 0 && c.upperBound > 0) {
          ci = Bootstrap.percentileInterval(sorted)
          ciMethod = .bootstrap
        }
      }
    }
    p50 = quantile(sorted, 0.5)
    p95 = quantile(sorted, 0.95)
  }

  /// "2 nan, 1 inf": the non-finite values, or "0".
  public var nonFiniteText: String {
    let parts = [(nan, "nan"), (inf, "inf"), (negativeInf, "-inf")].filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }
    return parts.isEmpty ? "0" : parts.joined(separator: ", ")
  }
}

/// The runs of one point of the grid.
public struct PointSummary: Sendable {
  public var params: [(name: String, value: String)]
  /// The point's values, typed (a number and a string that read alike are two points).
  public var values: [JSONScalar] = []
  public var runs: Int
  public var failed: Int
  /// Numeric metrics over the point's successful runs (none when every run failed).
  public var metrics: [MetricSummary]
  /// Text metrics (labels): each value seen, in order of first appearance,
  /// with how many runs gave it; past `LabelCounter.limit` distinct values
  /// the rest are counted together as "(other)".
  public var labels: [(name: String, counts: [(value: String, count: Int)])]
}

/// Counts a text metric's values at one point: the first `limit` distinct
/// values each, the rest together, so a label that differs in every run
/// (an id, a message) keeps memory flat however many runs there are.
struct LabelCounter {
  static let limit = 20
  private var index: [String: Int] = [:]
  private var values: [(value: String, count: Int)] = []
  private var other = 0

  mutating func add(_ value: String) {
    if let i = index[value] {
      values[i].count += 1
    } else if values.count < Self.limit {
      index[value] = values.count
      values.append((value, 1))
    } else {
      other += 1
    }
  }

  var counts: [(value: String, count: Int)] { other > 0 ? values + [("(other)", other)] : values }
}

/// A result file summarised point by point, reading it once, one point at a time.
public struct ResultSummary: Sendable {
  public var params: [String]
  /// Numeric metrics, then text ones, in the order the file gives them.
  public var metrics: [String]
  public var points: [PointSummary]
  public var runs: Int
  public var failed: Int
  public var firstError: String?
  /// The batch that wrote the file, when it says.
  public var header: ResultHeader?

  /// How the intervals were made.
  public var interval: IntervalMethod = .auto

  /// Reads `path` (rows in run order, as `batch` and `merge` write them): CSV, JSONL or SQLite.
  public init(path: String, interval: IntervalMethod = .auto) throws {
    var source = try openResults(path)
    // CSV keeps only text: a column that holds a label anywhere is a column
    // of labels (a status "404" beside "ok" is not averaged). JSONL and
    // SQLite keep each value's type.
    var labelColumns = Set<String>()
    if !source.keepsTypes {
      var scan = try openResults(path)
      while let row = try scan.nextRow() {
        for (m, v) in zip(row.metrics, row.typedMetrics) {
          if case .text = v { labelColumns.insert(m.name) }
        }
      }
    }
    var params = source.paramNames
    var metricNames = source.metricNames
    var points: [PointSummary] = []
    var runs = 0, failed = 0
    var firstError: String?
    var current: [(name: String, value: String)]?
    var currentValues: [JSONScalar] = []
    var values: [String: [Double]] = [:]
    var labels: [String: LabelCounter] = [:]
    var pointRuns = 0, pointFailed = 0

    func close() {
      guard let p = current else { return }
      let ms = metricNames.compactMap { name in values[name].flatMap { $0.isEmpty ? nil : MetricSummary(name: name, values: $0, interval: interval) } }
      let ls = metricNames.compactMap { name in labels[name].map { (name, $0.counts) } }
      var point = PointSummary(params: p, runs: pointRuns, failed: pointFailed, metrics: ms, labels: ls)
      point.values = currentValues
      points.append(point)
      values = [:]
      labels = [:]
      pointRuns = 0
      pointFailed = 0
    }

    var lastRun = -1
    while let row = try source.nextRow() {
      // A point's runs must be together: rows out of run order would split
      // points and give wrong figures.
      guard row.run > lastRun else {
        throw BatchError("\(path): run \(row.run) comes after run \(lastRun): the rows are not in run order, "
                         + "so points would be split; lifesim merge writes parts in order")
      }
      lastRun = row.run
      if params.isEmpty && !row.params.isEmpty { params = row.params.map(\.name) }
      if current.map({ !$0.map(\.name).elementsEqual(row.params.map(\.name)) || currentValues != row.typedParams }) ?? true {
        close()
        current = row.params
        currentValues = row.typedParams
      }
      runs += 1
      pointRuns += 1
      guard row.status == "ok" else {
        failed += 1
        pointFailed += 1
        if firstError == nil { firstError = "run \(row.run) (seed \(row.seed)): \(row.error ?? "failed")" }
        continue
      }
      for ((name, text), value) in zip(row.metrics, row.typedMetrics) {
        if !metricNames.contains(name) { metricNames.append(name) }
        if case .number(let x) = value, !labelColumns.contains(name) {
          values[name, default: []].append(x)
        } else {
          labels[name, default: LabelCounter()].add(text)
        }
      }
    }
    close()
    self.params = params
    self.metrics = metricNames
    self.points = points
    self.alike = Self.alikeTexts(points)
    self.runs = runs
    self.failed = failed
    self.firstError = firstError
    self.header = source.header
    self.interval = interval
  }

  /// A point's values for a table: as written, except that a string is
  /// quoted where another point's value of another type reads alike (1 and "1").
  func shownValues(_ p: PointSummary) -> [String] {
    p.params.indices.map { i in
      let value = p.params[i].value
      guard i < p.values.count, case .text = p.values[i], i < alike.count, alike[i].contains(value) else { return value }
      return "\"" + value + "\""
    }
  }

  /// For each parameter, the texts that values of different types share.
  private var alike: [Set<String>] = []

  private static func alikeTexts(_ points: [PointSummary]) -> [Set<String>] {
    guard let n = points.first?.values.count else { return [] }
    return (0..<n).map { i in
      var kinds: [String: Set<String>] = [:]
      for p in points where i < p.values.count {
        let kind: String
        switch p.values[i] {
        case .number: kind = "n"
        case .text: kind = "t"
        case .bool: kind = "b"
        case .null: kind = "0"
        }
        kinds[p.params[i].value, default: []].insert(kind)
      }
      return Set(kinds.filter { $0.value.count > 1 }.keys)
    }
  }

  /// The metrics with numbers, and those with labels (a metric may be both
  /// when some runs gave text).
  var numericMetrics: [String] { metrics.filter { m in points.contains { $0.metrics.contains { $0.name == m } } } }
  var labelMetrics: [String] { metrics.filter { m in points.contains { $0.labels.contains { $0.name == m } } } }

  /// The columns of a statistics row, after the parameters.
  static let statColumns = ["runs", "failed", "n", "mean", "sd", "ci_low", "ci_high", "ci_method", "p50", "p95"]

  /// A parameter's column name in the csv and markdown summaries: its own,
  /// unless a summary column has that name (then `param:NAME`).
  func paramColumn(_ name: String) -> String {
    (Self.statColumns + ["metric", "value", "count"]).contains(name) ? "param:" + name : name
  }

  private func statFields(_ p: PointSummary, _ m: MetricSummary?) -> [String] {
    guard let m, m.count > 0 else { return [String(p.runs), String(p.failed), "0", "", "", "", "", "", "", ""] }
    return [String(p.runs), String(p.failed), String(m.count), ResultEncoding.number(m.mean), ResultEncoding.number(m.sd),
            m.ci.map { ResultEncoding.number($0.lowerBound) } ?? "", m.ci.map { ResultEncoding.number($0.upperBound) } ?? "",
            m.ci == nil ? "" : m.ciMethod?.rawValue ?? "", ResultEncoding.number(m.p50), ResultEncoding.number(m.p95)]
  }

  /// The columns of a metric's table (text and markdown), after the parameters.
  static let tableColumns = ["failed", "n", "mean", "sd", "95% CI", "p50", "p95"]

  /// Whether some run gave a non-finite value (NaN, ±infinity) of a metric.
  public func hasNonFinite(_ name: String) -> Bool {
    points.contains { $0.metrics.contains { $0.name == name && $0.nonFinite > 0 } }
  }

  /// Whether --ci auto chose the bootstrap for some point of a metric.
  func bootstrapped(_ name: String) -> Bool {
    interval == .auto && points.contains { $0.metrics.contains { $0.name == name && $0.ci != nil && $0.ciMethod == .bootstrap } }
  }

  /// What a metric's table says under it when --ci auto chose the bootstrap.
  static let bootstrapNote = "* bootstrap percentile interval (\(Bootstrap.resamples) resamples, seed \(Bootstrap.seed)): "
    + "Student's t would cross 0, which no value does"

  /// The line under the header that names an interval chosen with --ci.
  var intervalLine: String? { interval == .auto ? nil : "95% CI: \(interval.name)" }

  /// What a metric's table says under it when some values were not finite.
  static let nonFiniteNote = "non-finite values (nan, inf) are counted under non-finite and left out of n and the statistics"

  /// A metric's table columns (text and markdown), after the parameters: a
  /// `non-finite` column only when some run gave such a value.
  private func tableColumns(_ name: String) -> [String] {
    Self.tableColumns + (hasNonFinite(name) ? ["non-finite"] : [])
  }

  /// A metric's table rows, a point each; `none` fills the statistics of a
  /// point whose runs all failed (or gave no finite value).
  private func tableRows(_ name: String, none: String) -> [[String]] {
    let extra = hasNonFinite(name)
    return points.map { p in
      guard let m = p.metrics.first(where: { $0.name == name }) else {
        return shownValues(p) + [String(p.failed), "0"] + Array(repeating: none, count: 5) + (extra ? ["0"] : [])
      }
      let tail = extra ? [m.nonFiniteText] : []
      guard m.count > 0 else {
        return shownValues(p) + [String(p.failed), "0"] + Array(repeating: none, count: 5) + tail
      }
      // Under --ci auto, a star marks the intervals the bootstrap made.
      let mark = interval == .auto && m.ciMethod == .bootstrap ? "*" : ""
      let ci = m.ci.map { "[\(short($0.lowerBound)), \(short($0.upperBound))]" + mark } ?? none
      return shownValues(p) + [String(p.failed), String(m.count), short(m.mean), short(m.sd), ci, short(m.p50), short(m.p95)] + tail
    }
  }

  /// The summary as text tables: one per numeric metric (a point whose runs
  /// all failed still has its row, with its failures), then one per text
  /// metric with the count of each value.
  public func render(title: String) -> String {
    var out = "\(title): \(runs) runs at \(points.count) points, \(failed) failed\n"
    if let header { out += "\(header.summary), lifesim \(header.lifesim)\n" }
    if let intervalLine { out += intervalLine + "\n" }
    func table(_ name: String, titles: [String], rows: [[String]]) {
      let table = TextTable<[String]> { row in
        row.indices.map { Column(title: titles[$0], value: row[$0], align: $0 < params.count ? .left : .right) }
      }
      out += "\n" + name + "\n" + (table.string(for: rows, style: Style.simple) ?? "")
      if !out.hasSuffix("\n") { out += "\n" }
    }
    let numeric = numericMetrics
    for name in numeric {
      table(name, titles: params.map(paramColumn) + tableColumns(name), rows: tableRows(name, none: "-"))
      if hasNonFinite(name) { out += Self.nonFiniteNote + "\n" }
      if bootstrapped(name) { out += Self.bootstrapNote + "\n" }
    }
    for name in labelMetrics {
      let rows: [[String]] = points.map { p in
        let counts = p.labels.first { $0.name == name }?.counts ?? []
        return shownValues(p) + [String(p.failed), counts.map { "\($0.value): \($0.count)" }.joined(separator: ", ")]
      }
      table(name + " (labels)", titles: params.map(paramColumn) + ["failed", "values"], rows: rows)
    }
    if numeric.isEmpty && labelMetrics.isEmpty && !points.isEmpty {
      table("runs", titles: params.map(paramColumn) + ["runs", "failed"], rows: points.map { shownValues($0) + [String($0.runs), String($0.failed)] })
    }
    if let firstError { out += "\nfirst failure: \(firstError)\n" }
    return out
  }

  /// CSV, one table: one row per point and numeric metric (params, metric,
  /// runs, failed, n, mean, sd, ci_low, ci_high, p50, p95; a point whose runs
  /// all failed has n = 0 and empty statistics, and empty value and count;
  /// after it, a row per non-finite value its runs gave, `nan`, `inf` or
  /// `-inf`, with empty statistics and the count, as for labels), then one row
  /// per point, text metric and value (its runs and failures, empty
  /// statistics, the value and its count).
  public func csv() -> String {
    var out = ResultEncoding.csvLine(params.map(paramColumn) + ["metric"] + Self.statColumns + ["value", "count"])
    for name in numericMetrics {
      for p in points {
        let m = p.metrics.first { $0.name == name }
        out += ResultEncoding.csvLine(p.params.map(\.value) + [name] + statFields(p, m) + ["", ""])
        // Non-finite values, left out of the statistics, are counted as labels are.
        guard let m, m.nonFinite > 0 else { continue }
        let stats = [String(p.runs), String(p.failed)] + Array(repeating: "", count: Self.statColumns.count - 2)
        for (count, value) in [(m.nan, "nan"), (m.inf, "inf"), (m.negativeInf, "-inf")] where count > 0 {
          out += ResultEncoding.csvLine(p.params.map(\.value) + [name] + stats + [value, String(count)])
        }
      }
    }
    for name in labelMetrics {
      for p in points {
        let stats = [String(p.runs), String(p.failed)] + Array(repeating: "", count: Self.statColumns.count - 2)
        for c in p.labels.first(where: { $0.name == name })?.counts ?? [] {
          out += ResultEncoding.csvLine(p.params.map(\.value) + [name] + stats + [c.value, String(c.count)])
        }
      }
    }
    return out
  }


  /// JSON: the file's header, the totals, and one object per point with its
  /// parameters (under "params", so no name can clash), its runs and
  /// failures, and each metric's statistics (over its finite values, with
  /// "nan", "inf" and "-inf" counts when some were not) or value counts.
  public func json() -> String {
    func number(_ x: Double) -> String { x.isFinite ? ResultEncoding.number(x) : "null" }
    var out = "{\"header\":" + (header?.json ?? "null")
    out += ",\"runs\":\(runs),\"failed\":\(failed),\"first_error\":" + (firstError.map(ResultEncoding.json) ?? "null")
    out += ",\"points\":["
    out += points.map { p in
      // Each value typed as the file gives it (a number stays a number).
      var s = "{\"params\":{" + zip(p.params, p.values).map { ResultEncoding.json($0.0.name) + ":" + $0.1.json }.joined(separator: ",")
      s += "},\"runs\":\(p.runs),\"failed\":\(p.failed),\"metrics\":{"
      var entries = p.metrics.map { m in
        var e = ResultEncoding.json(m.name) + ":{\"n\":\(m.count),\"mean\":\(number(m.mean)),\"sd\":\(number(m.sd)),\"ci95\":"
          + (m.ci.map { "[\(number($0.lowerBound)),\(number($0.upperBound))]" } ?? "null")
          + ",\"ci_method\":" + (m.ci == nil ? "null" : m.ciMethod.map { "\"\($0.rawValue)\"" } ?? "null")
          + ",\"p50\":\(number(m.p50)),\"p95\":\(number(m.p95))"
        if m.nonFinite > 0 { e += ",\"nan\":\(m.nan),\"inf\":\(m.inf),\"-inf\":\(m.negativeInf)" }
        return e + "}"
      }
      entries += p.labels.map { l in
        ResultEncoding.json(l.name) + ":{\"counts\":{" + l.counts.map { ResultEncoding.json($0.value) + ":\($0.count)" }.joined(separator: ",") + "}}"
      }
      return s + entries.joined(separator: ",") + "}}"
    }.joined(separator: ",")
    return out + "]}\n"
  }

  /// Markdown: a pipe table per metric, for papers and READMEs.
  public func markdown(title: String) -> String {
    func cell(_ s: String) -> String { s.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ") }
    func table(_ titles: [String], _ rows: [[String]], numericFrom: Int) -> String {
      var t = "| " + titles.map(cell).joined(separator: " | ") + " |\n|"
      t += titles.indices.map { $0 < numericFrom ? " --- |" : " ---: |" }.joined() + "\n"
      for r in rows { t += "| " + r.map(cell).joined(separator: " | ") + " |\n" }
      return t
    }
    var out = "## \(cell(title))\n\n\(runs) runs at \(points.count) points, \(failed) failed"
    if let header { out += "; \(header.summary), lifesim \(header.lifesim)" }
    out += ".\n"
    if let intervalLine { out += "\n" + intervalLine + ".\n" }
    for name in numericMetrics {
      out += "\n### \(cell(name))\n\n" + table(params.map(paramColumn) + tableColumns(name), tableRows(name, none: "–"),
                                                 numericFrom: params.count)
      if hasNonFinite(name) { out += "\n" + Self.nonFiniteNote + ".\n" }
      if bootstrapped(name) { out += "\n" + Self.bootstrapNote.replacingOccurrences(of: "* ", with: "\\* ") + ".\n" }
    }
    for name in labelMetrics {
      let rows: [[String]] = points.map { p in
        let counts = p.labels.first { $0.name == name }?.counts ?? []
        return shownValues(p) + [String(p.failed), counts.map { "\($0.value): \($0.count)" }.joined(separator: ", ")]
      }
      out += "\n### \(cell(name)) (labels)\n\n" + table(params.map(paramColumn) + ["failed", "values"], rows, numericFrom: params.count)
    }
    if let firstError { out += "\nFirst failure: `\(firstError.replacingOccurrences(of: "`", with: "'"))`\n" }
    return out
  }
}

/// A number for a table: four significant digits, no exponent for everyday sizes.
func short(_ x: Double) -> String {
  guard x.isFinite else { return x.isNaN ? "nan" : (x > 0 ? "inf" : "-inf") }
  if x == x.rounded() && abs(x) < 1e9 { return String(Int64(x)) }
  return String(format: "%.4g", x)
}

/// Linear interpolation between order statistics (Hyndman and Fan's type 7,
/// the default of R and NumPy).
func quantile(_ sorted: [Double], _ p: Double) -> Double {
  let h = Double(sorted.count - 1) * p
  let lo = Int(h.rounded(.down))
  let hi = min(lo + 1, sorted.count - 1)
  let f = h - Double(lo), d = sorted[hi] - sorted[lo]
  // Two values of opposite sign near the Double range have no finite difference.
  return d.isFinite ? sorted[lo] + f * d : sorted[lo] * (1 - f) + sorted[hi] * f
}

/// The 0.975 quantile of Student's t with `df` degrees of freedom: the table
/// value up to 30, then the Cornish–Fisher expansion around the normal quantile
/// (error below 1e-4 there).
func studentT975(df: Int) -> Double {
  let table = [12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622, 2.2281,
               2.2010, 2.1788, 2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.0930, 2.0860,
               2.0796, 2.0739, 2.0687, 2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423]
  if df >= 1 && df <= table.count { return table[df - 1] }
  let z = 1.959964, v = Double(df)
  let z3 = z * z * z, z5 = z3 * z * z, z7 = z5 * z * z
  return z + (z3 + z) / (4 * v) + (5 * z5 + 16 * z3 + 3 * z) / (96 * v * v)
    + (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * v * v * v)
}
