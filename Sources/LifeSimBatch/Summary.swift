import Foundation
import TextTable

/// The statistics of one metric at one point, over its successful runs.
public struct MetricSummary: Sendable, Equatable {
  public var name: String
  public var count: Int
  public var mean: Double
  /// Sample standard deviation (n − 1); 0 for a single run.
  public var sd: Double
  /// The 95% confidence interval of the mean (Student's t); nil below 2 runs.
  public var ci: ClosedRange<Double>?
  public var p50: Double
  public var p95: Double

  /// Summarises values (at least one).
  public init(name: String, values: [Double]) {
    let sorted = values.sorted()
    let n = sorted.count
    self.name = name
    count = n
    mean = sorted.reduce(0, +) / Double(n)
    let m = mean
    sd = n > 1 ? (sorted.reduce(0) { $0 + ($1 - m) * ($1 - m) } / Double(n - 1)).squareRoot() : 0
    if n > 1 {
      let half = studentT975(df: n - 1) * sd / Double(n).squareRoot()
      ci = (mean - half)...(mean + half)
    }
    p50 = quantile(sorted, 0.5)
    p95 = quantile(sorted, 0.95)
  }
}

/// The runs of one point of the grid.
public struct PointSummary: Sendable {
  public var params: [(name: String, value: String)]
  public var runs: Int
  public var failed: Int
  public var metrics: [MetricSummary]
  /// Text metrics (labels): the distinct values seen, in order.
  public var labels: [(name: String, values: [String])]
}

/// A result file summarised point by point, reading it once, one point at a time.
public struct ResultSummary: Sendable {
  public var params: [String]
  public var metrics: [String]
  public var points: [PointSummary]
  public var runs: Int
  public var failed: Int
  public var firstError: String?

  /// Reads `path` (rows in run order, as `batch` and `merge` write them).
  public init(path: String) throws {
    let reader = try ResultReader(path: path)
    var params = reader.columns?.params ?? []
    var metricNames = reader.columns?.metrics ?? []
    var points: [PointSummary] = []
    var runs = 0, failed = 0
    var firstError: String?
    var current: [(name: String, value: String)]?
    var values: [String: [Double]] = [:]
    var labels: [String: [String]] = [:]
    var pointRuns = 0, pointFailed = 0

    func close() {
      guard let p = current else { return }
      let ms = metricNames.compactMap { name in values[name].flatMap { $0.isEmpty ? nil : MetricSummary(name: name, values: $0) } }
      let ls = metricNames.compactMap { name in labels[name].map { (name, $0) } }
      points.append(PointSummary(params: p, runs: pointRuns, failed: pointFailed, metrics: ms, labels: ls))
      values = [:]
      labels = [:]
      pointRuns = 0
      pointFailed = 0
    }

    while let line = reader.nextLine() {
      let row = try reader.parse(line)
      if params.isEmpty && !row.params.isEmpty { params = row.params.map(\.name) }
      if current.map({ !$0.elementsEqual(row.params, by: { $0 == $1 }) }) ?? true {
        close()
        current = row.params
      }
      runs += 1
      pointRuns += 1
      guard row.status == "ok" else {
        failed += 1
        pointFailed += 1
        if firstError == nil { firstError = "run \(row.run) (seed \(row.seed)): \(row.error ?? "failed")" }
        continue
      }
      for (name, text) in row.metrics {
        if !metricNames.contains(name) { metricNames.append(name) }
        if let x = Double(text) {
          values[name, default: []].append(x)
        } else if !(labels[name]?.contains(text) ?? false) {
          labels[name, default: []].append(text)
        }
      }
    }
    close()
    self.params = params
    self.metrics = metricNames
    self.points = points
    self.runs = runs
    self.failed = failed
    self.firstError = firstError
  }

  /// The summary as text tables, one per numeric metric.
  public func render(title: String) -> String {
    var out = "\(title): \(runs) runs at \(points.count) points, \(failed) failed\n"
    for name in metrics {
      let rows: [[String]] = points.compactMap { p in
        guard let m = p.metrics.first(where: { $0.name == name }) else { return nil }
        let ci = m.ci.map { "[\(short($0.lowerBound)), \(short($0.upperBound))]" } ?? "-"
        return p.params.map(\.value) + [String(m.count), short(m.mean), short(m.sd), ci, short(m.p50), short(m.p95)]
      }
      guard !rows.isEmpty else { continue }
      let titles = params + ["n", "mean", "sd", "95% CI", "p50", "p95"]
      let table = TextTable<[String]> { row in
        row.indices.map { Column(title: titles[$0], value: row[$0], align: $0 < params.count ? .left : .right) }
      }
      out += "\n" + name + "\n" + (table.string(for: rows, style: Style.simple) ?? "")
      if !out.hasSuffix("\n") { out += "\n" }
    }
    if let firstError { out += "\nfirst failure: \(firstError)\n" }
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
  return sorted[lo] + (h - Double(lo)) * (sorted[hi] - sorted[lo])
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
