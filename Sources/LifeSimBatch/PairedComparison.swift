import Foundation
import TextTable

/// Paired differences by seed between the values of one parameter.
///
/// Every point of a batch runs the same seeds, so a run at `policy = lru`
/// and the run with the same seed at `policy = bands` (the other parameters
/// equal) met the same simulated user: their difference is free of the
/// seed's noise. For each metric, each value of the parameter other than
/// the baseline, and each combination of the other parameters, this gives
/// the pairs' count, the mean difference (value − baseline), its sd, its
/// Student's t 95% interval, and the paired t test (two-sided), as R's
/// `t.test(x, y, paired = TRUE)` gives them.
public struct PairedComparison: Sendable {
  public struct Row: Sendable {
    /// The other parameters' values.
    public var others: [String]
    public var metric: String
    /// The compared value, and the pairs (seeds where both runs gave a finite value).
    public var value: String
    public var pairs: Int
    public var mean: Double
    public var sd: Double
    public var ci: ClosedRange<Double>?
    /// Paired t statistic, degrees of freedom, two-sided p (nil below 2 pairs).
    public var t: Double?
    public var df: Int
    public var p: Double?
    /// Seeds with a run at one side only, a failed run, or a non-finite value.
    public var leftOut = 0
  }

  public var param: String
  public var baseline: String
  public var otherParams: [String]
  public var rows: [Row] = []

  /// Reads `path` and pairs its runs by seed. `baseline` is the value the
  /// others are compared with (default: the parameter's first value).
  public init(path: String, param: String, baseline: String? = nil) throws {
    var source = try openResults(path)
    self.param = param
    var paramNames = source.paramNames
    // Groups of the other parameters' values, in order of appearance; in each,
    // each value of `param` with its metrics by seed.
    var groupOrder: [[String]] = []
    var groups: [[String]: [String: [Int: [(name: String, value: Double)]]]] = [:]
    var values: [String] = []
    var metricOrder: [String] = []
    var numericMetric: [String: Bool] = [:]
    while let row = try source.nextRow() {
      if paramNames.isEmpty { paramNames = row.params.map(\.name) }
      guard let index = row.params.firstIndex(where: { $0.name == param }) else {
        let names = row.params.map(\.name)
        throw BatchError(names.isEmpty
          ? "\(path) has no parameters to compare"
          : "\(path) has no parameter '\(param)': its parameters are \(names.joined(separator: ", "))")
      }
      let value = row.params[index].value
      var others = row.params.map(\.value)
      others.remove(at: index)
      if groups[others] == nil { groupOrder.append(others); groups[others] = [:] }
      if !values.contains(value) { values.append(value) }
      guard groups[others]![value]?[row.seed] == nil else {
        throw BatchError("\(path): seed \(row.seed) comes twice at \(row.params.map { "\($0.name) = \($0.value)" }.joined(separator: ", ")): "
                         + "runs are paired by seed, so each seed may run once at a point")
      }
      // A failed run is kept with no values: its seed is then counted as left out.
      var metrics: [(name: String, value: Double)] = []
      if row.status == "ok" {
        for ((name, _), typed) in zip(row.metrics, row.typedMetrics) {
          if numericMetric[name] == nil { metricOrder.append(name); numericMetric[name] = false }
          // A label in one run leaves that run's seed out; the metric is compared on the others.
          if case .number(let x) = typed { metrics.append((name, x)); numericMetric[name] = true }
        }
      }
      groups[others]![value, default: [:]][row.seed] = metrics
    }
    otherParams = paramNames.filter { $0 != param }
    guard values.count >= 2 else {
      throw BatchError("\(path): '\(param)' has \(values.count == 1 ? "one value" : "no value") (\(values.joined(separator: ", "))): "
                       + "there is nothing to compare it with")
    }
    if let baseline, !values.contains(baseline) {
      throw BatchError("--baseline \(baseline): '\(param)' takes \(values.joined(separator: ", ")) in \(path)")
    }
    let base = baseline ?? values[0]
    self.baseline = base
    let metrics = metricOrder.filter { numericMetric[$0] == true }
    for metric in metrics {
      for others in groupOrder {
        let byValue = groups[others]!
        let baseRuns = byValue[base] ?? [:]
        for value in values where value != base {
          let runs = byValue[value] ?? [:]
          var diffs: [Double] = []
          var leftOut = 0
          for seed in Set(baseRuns.keys).union(runs.keys).sorted() {
            guard let a = runs[seed]?.first(where: { $0.name == metric })?.value,
                  let b = baseRuns[seed]?.first(where: { $0.name == metric })?.value,
                  a.isFinite, b.isFinite, (a - b).isFinite
            else {
              leftOut += 1
              continue
            }
            diffs.append(a - b)
          }
          var row = Self.row(others: others, metric: metric, value: value, diffs)
          row.leftOut = leftOut
          rows.append(row)
        }
      }
    }
  }

  private static func row(others: [String], metric: String, value: String, _ diffs: [Double]) -> Row {
    let n = diffs.count
    guard n > 0 else { return Row(others: others, metric: metric, value: value, pairs: 0, mean: .nan, sd: .nan, df: 0) }
    let mean = diffs.reduce(0) { $0 + $1 / Double(n) }
    let sd = n > 1 ? (diffs.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(n - 1)).squareRoot() : 0
    var row = Row(others: others, metric: metric, value: value, pairs: n, mean: mean, sd: sd, df: n - 1)
    // Differences whose spread overflows a Double have no interval or test to give.
    if n > 1 && mean.isFinite && sd.isFinite {
      row.ci = studentInterval(mean: mean, sd: sd, n: n)
      // Equal differences have no spread to test against: no t and no p,
      // as R's t.test refuses "essentially constant" data.
      if sd > 0 {
        let t = mean / (sd / Double(n).squareRoot())
        row.t = t
        row.p = studentTwoSidedP(t: t, df: n - 1)
      }
    }
    return row
  }

  private var metrics: [String] { rows.reduce(into: [String]()) { if !$0.contains($1.metric) { $0.append($1.metric) } } }

  private func comparison(_ r: Row) -> String { "\(r.value) − \(baseline)" }

  private func pText(_ p: Double?) -> String {
    guard let p else { return "-" }
    return p < 1e-4 ? "<0.0001" : String(format: "%.4g", p)
  }

  private func tableRows(_ metric: String, none: String) -> [[String]] {
    rows.filter { $0.metric == metric }.map { r in
      guard r.pairs > 0 else { return r.others + [comparison(r), "0"] + Array(repeating: none, count: 6) }
      return r.others + [comparison(r), String(r.pairs), short(r.mean), short(r.sd),
                         r.ci.map { "[\(short($0.lowerBound)), \(short($0.upperBound))]" } ?? none,
                         r.t.map(short) ?? none, r.t == nil ? none : String(r.df), r.p == nil ? none : pText(r.p)]
    }
  }

  private static let statTitles = ["pairs", "mean diff", "sd", "95% CI", "t", "df", "p"]

  /// A parameter's column, renamed `param:NAME` where a statistic has its name.
  private func column(_ name: String, reserved: [String]) -> String { reserved.contains(name) ? "param:" + name : name }

  private var titles: [String] {
    let reserved = Self.statTitles + [param]
    return otherParams.map { column($0, reserved: reserved) } + [column(param, reserved: Self.statTitles)] + Self.statTitles
  }

  private var explanation: String {
    "paired by seed (the same seed at \(param) = \(baseline) and at each other value, the other parameters equal); "
      + "mean difference with Student's t 95% CI, paired t test, two-sided"
  }

  /// What a metric's table says under it when some rows have no test.
  private func constantNote(_ metric: String) -> String? {
    rows.contains { $0.metric == metric && $0.pairs > 1 && $0.t == nil && $0.sd == 0 }
      ? "a row with no t has differences all equal: there is no spread to test against (R's t.test refuses it too)" : nil
  }

  /// What a metric's table says under it when some seeds made no pair.
  private func leftOutNote(_ metric: String) -> String? {
    let n = rows.filter { $0.metric == metric }.reduce(0) { $0 + $1.leftOut }
    return n == 0 ? nil : "\(n) seed\(n == 1 ? "" : "s") left out: a run at one value only, a failed run or a non-finite value"
  }

  /// Text tables, one per metric.
  public func render(title: String) -> String {
    var out = "\(title): \(param), each value against \(baseline)\n\(explanation)\n"
    for metric in metrics {
      let table = TextTable<[String]> { row in
        row.indices.map { Column(title: titles[$0], value: row[$0], align: $0 <= otherParams.count ? .left : .right) }
      }
      out += "\n" + metric + "\n" + (table.string(for: tableRows(metric, none: "-"), style: Style.simple) ?? "")
      if !out.hasSuffix("\n") { out += "\n" }
      if let note = leftOutNote(metric) { out += note + "\n" }
      if let note = constantNote(metric) { out += note + "\n" }
    }
    if metrics.isEmpty { out += "\nno metric with numbers to compare: every value is a label\n" }
    return out
  }

  /// Markdown: a pipe table per metric.
  public func markdown(title: String) -> String {
    func cell(_ s: String) -> String { s.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ") }
    var out = "## \(cell(title)): \(cell(param)), each value against \(cell(baseline))\n\n\(cell(explanation)).\n"
    for metric in metrics {
      out += "\n### \(cell(metric))\n\n| " + titles.map(cell).joined(separator: " | ") + " |\n|"
      out += titles.indices.map { $0 <= otherParams.count ? " --- |" : " ---: |" }.joined() + "\n"
      for r in tableRows(metric, none: "–") { out += "| " + r.map(cell).joined(separator: " | ") + " |\n" }
      if let note = leftOutNote(metric) { out += "\n" + cell(note) + ".\n" }
      if let note = constantNote(metric) { out += "\n" + cell(note) + ".\n" }
    }
    if metrics.isEmpty { out += "\nNo metric with numbers to compare: every value is a label.\n" }
    return out
  }

  /// CSV: a row per metric, point of the other parameters and compared value.
  public func csv() -> String {
    func number(_ x: Double?) -> String { x.map { $0.isNaN ? "" : ResultEncoding.number($0) } ?? "" }
    let reserved = ["metric", "baseline", "pairs", "mean_diff", "sd", "ci_low", "ci_high", "t", "df", "p", "left_out"]
    let columns = otherParams.map { column($0, reserved: reserved + [param]) }
    var out = ResultEncoding.csvLine(columns + ["metric", column(param, reserved: reserved), "baseline"] + Array(reserved.dropFirst(2)))
    for r in rows {
      out += ResultEncoding.csvLine(r.others + [r.metric, r.value, baseline, String(r.pairs), r.pairs > 0 ? number(r.mean) : "",
                                                r.pairs > 0 ? number(r.sd) : "", number(r.ci?.lowerBound), number(r.ci?.upperBound),
                                                number(r.t), r.t == nil ? "" : String(r.df), number(r.p), String(r.leftOut)])
    }
    return out
  }

  /// JSON: the parameter, the baseline, and one object per row.
  public func json() -> String {
    func number(_ x: Double?) -> String {
      guard let x, !x.isNaN else { return "null" }
      return x.isFinite ? ResultEncoding.number(x) : (x > 0 ? "\"inf\"" : "\"-inf\"")
    }
    var out = "{\"param\":" + ResultEncoding.json(param) + ",\"baseline\":" + ResultEncoding.json(baseline)
    out += ",\"comparisons\":["
    out += rows.map { r in
      "{\"params\":{" + zip(otherParams, r.others).map { ResultEncoding.json($0) + ":" + ResultEncoding.json($1) }.joined(separator: ",")
        + "},\"metric\":" + ResultEncoding.json(r.metric) + ",\"value\":" + ResultEncoding.json(r.value)
        + ",\"pairs\":\(r.pairs),\"mean_diff\":\(r.pairs > 0 ? number(r.mean) : "null"),\"sd\":\(r.pairs > 0 ? number(r.sd) : "null")"
        + ",\"ci95\":" + (r.ci.map { "[\(number($0.lowerBound)),\(number($0.upperBound))]" } ?? "null")
        + ",\"t\":\(number(r.t)),\"df\":\(r.t == nil ? "null" : String(r.df)),\"p\":\(number(r.p)),\"left_out\":\(r.leftOut)}"
    }.joined(separator: ",")
    return out + "]}\n"
  }
}
