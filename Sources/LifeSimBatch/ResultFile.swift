import CSV
import Foundation
import LifeSimEngine
import LifeSimLua

/// The format of a result file, from its extension.
public enum ResultFormat: String, Sendable {
  case csv, jsonl, sqlite

  /// `.csv`, `.jsonl` / `.ndjson`, or `.sqlite` / `.sqlite3` / `.db`.
  public init(path: String) throws {
    let lower = path.lowercased()
    if lower.hasSuffix(".csv") { self = .csv; return }
    if lower.hasSuffix(".jsonl") || lower.hasSuffix(".ndjson") { self = .jsonl; return }
    if lower.hasSuffix(".sqlite") || lower.hasSuffix(".sqlite3") || lower.hasSuffix(".db") { self = .sqlite; return }
    throw BatchError("\(path): result files end in .csv, .jsonl or .sqlite")
  }
}

/// An error of the batch tools, with a message for the user.
public struct BatchError: Error, CustomStringConvertible {
  public var description: String
  public init(_ message: String) { description = message }
}

/// One row of a result file: one run, (point, seed).
///
/// Every row is one line in both formats, so a batch killed mid-write leaves
/// at most one partial line, which `--resume` drops.
public struct ResultRow: Sendable, Equatable {
  /// The run's index in the whole grid (point-major), the same in every shard.
  public var run: Int
  /// The point's values, in the experiment's parameter order.
  public var params: [ParamValue]
  public var seed: Int
  public var outcome: RunOutcome

  public init(run: Int, params: [ParamValue], seed: Int, outcome: RunOutcome) {
    self.run = run
    self.params = params
    self.seed = seed
    self.outcome = outcome
  }

  public var status: String { outcome.error == nil ? "ok" : "error" }
}

/// The columns of a result file: `run`, the params, `seed`, `status`, the
/// metrics, then `error`.
public struct ResultColumns: Sendable, Equatable {
  public var params: [String]
  public var metrics: [String]

  public init(params: [String], metrics: [String]) {
    self.params = params
    self.metrics = metrics
  }

  public var header: [String] { ["run"] + params + ["seed", "status"] + metrics + ["error"] }

  /// Reads a CSV header written by `header`. With the number of parameters
  /// (from the file's header line), a parameter may be named like a column
  /// (`seed`, `status`, `run`, `error`); without it (files from before
  /// header lines), the first `seed` column ends the parameters.
  public init?(csvHeader fields: [String], paramCount: Int? = nil) {
    guard fields.first == "run", fields.last == "error", fields.count >= 4 else { return nil }
    let seed: Int
    if let paramCount {
      seed = 1 + paramCount
      guard seed + 2 <= fields.count - 1, fields[seed] == "seed", fields[seed + 1] == "status" else { return nil }
    } else {
      guard let s = fields.firstIndex(of: "seed"), s + 1 < fields.count - 1, fields[s + 1] == "status" else { return nil }
      seed = s
    }
    params = Array(fields[1..<seed])
    metrics = Array(fields[(seed + 2)..<(fields.count - 1)])
  }
}

// MARK: - Writing

enum ResultEncoding {
  /// A CSV field, quoted when it holds a comma, a quote or a line break (RFC 4180).
  static func csvField(_ s: String) -> String {
    guard s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return s }
    return "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }

  static func csvLine(_ fields: [String]) -> String {
    fields.map(csvField).joined(separator: ",") + "\n"
  }

  /// A number as lifesim writes it everywhere: whole numbers without a
  /// fraction, others in the shortest form that reads back exactly.
  static func number(_ x: Double) -> String {
    guard x.isFinite else { return x.isNaN ? "nan" : (x > 0 ? "inf" : "-inf") }
    return formatNumber(x)
  }

  static func text(_ m: MetricValue) -> String {
    switch m {
    case .number(let x): return number(x)
    case .text(let s): return s
    }
  }

  static func csv(_ row: ResultRow, columns: ResultColumns) -> String {
    var fields = [String(row.run)] + row.params.map(\.description) + [String(row.seed), row.status]
    for name in columns.metrics {
      fields.append(row.outcome.metrics.first { $0.name == name }.map { text($0.value) } ?? "")
    }
    fields.append(oneLine(row.outcome.error ?? ""))
    return csvLine(fields)
  }

  static func json(_ s: String) -> String {
    var out = ""
    jsonString(s, &out)
    return out
  }

  /// A number in JSON, which has no NaN or infinity: NaN is null (pandas reads
  /// it as NaN), the infinities are the strings "inf" and "-inf" (so that
  /// reading them back tells them from NaN and from each other).
  static func jsonNumber(_ x: Double) -> String {
    x.isFinite ? number(x) : x.isNaN ? "null" : x > 0 ? "\"inf\"" : "\"-inf\""
  }

  static func json(_ v: ParamValue) -> String {
    switch v {
    case .number(let x): return jsonNumber(x)
    case .text(let s): return json(s)
    case .bool(let b): return b ? "true" : "false"
    }
  }

  static func json(_ m: MetricValue) -> String {
    switch m {
    case .number(let x): return jsonNumber(x)
    case .text(let s): return json(s)
    }
  }

  static func jsonl(_ row: ResultRow, params: [String]) -> String {
    var s = "{\"run\":\(row.run),\"params\":{"
    s += zip(params, row.params).map { json($0) + ":" + json($1) }.joined(separator: ",")
    s += "},\"seed\":\(row.seed),\"status\":\"\(row.status)\",\"metrics\":{"
    s += row.outcome.metrics.map { json($0.name) + ":" + json($0.value) }.joined(separator: ",")
    s += "}"
    if let e = row.outcome.error { s += ",\"error\":" + json(oneLine(e)) }
    return s + "}\n"
  }

  static func oneLine(_ s: String) -> String {
    s.split(whereSeparator: \.isNewline).joined(separator: " | ")
  }
}

/// Appends rows to a result file, one `write` and flush per row.
final class ResultWriter {
  private var file: UnsafeMutablePointer<FILE>?
  let path: String

  init(path: String, append: Bool) throws {
    guard let f = fopen(path, append ? "a" : "w") else {
      throw BatchError("cannot write \(path): \(String(cString: strerror(errno)))")
    }
    self.file = f
    self.path = path
  }

  deinit { if let file { fclose(file) } }

  func write(_ text: String) throws {
    guard let file else { throw BatchError("cannot write \(path): it is closed") }
    var t = text
    let ok = t.withUTF8 { fwrite($0.baseAddress, 1, $0.count, file) == $0.count } && fflush(file) == 0
    if !ok { throw BatchError("cannot write \(path): \(String(cString: strerror(errno)))") }
  }

  /// Closes the file; a failure to close is a failure to write (the last
  /// bytes may not have reached it).
  func close() throws {
    guard let f = file else { return }
    file = nil
    if fclose(f) != 0 { throw BatchError("cannot write \(path): \(String(cString: strerror(errno)))") }
  }
}

// MARK: - Reading

/// A CSV or JSONL result file read line by line, without holding its rows:
/// for `--resume`, `merge`, `summary` and `plot`.
public struct ResultReader {
  public let path: String
  public let format: ResultFormat
  /// The batch that wrote the file (nil in files from before header lines).
  public private(set) var header: ResultHeader?
  /// The CSV header, or nil for JSONL.
  public private(set) var columns: ResultColumns?
  private let lines: LineReader

  public init(path: String) throws {
    self.path = path
    self.format = try ResultFormat(path: path)
    guard format != .sqlite else { throw BatchError("\(path): an SQLite file is read with SQLiteResults") }
    self.lines = try LineReader(path: path)
    var first = lines.next()
    if let line = first, line.hasPrefix("#") || line.hasPrefix(ResultHeader.jsonlPrefix) {
      guard let h = ResultHeader(line: line, format: format) else {
        throw BatchError("\(path): its first line is not a lifesim result header: \(line.prefix(60))")
      }
      header = h
      first = lines.next()
    }
    if format == .csv {
      guard let first else { return }
      guard let c = ResultColumns(csvHeader: Self.csvFields(first), paramCount: header?.params.count) else {
        throw BatchError("\(path): not a lifesim result file (its header is not run,…,seed,status,…,error)")
      }
      columns = c
    } else if let first {
      lines.pushBack(first)
    }
  }

  /// The next complete line (ending in a newline); a partial last line is not returned.
  public func nextLine() -> String? { lines.next() }

  /// Byte offset just after the last complete line read so far.
  public var completeBytes: Int { lines.consumed }

  /// The run index at the start of a line.
  public func runIndex(of line: String) throws -> Int {
    let digits: Substring
    if format == .csv {
      digits = line.prefix { $0 != "," }
    } else {
      guard line.hasPrefix("{\"run\":") else { throw BatchError("\(path): a line does not start with {\"run\":") }
      digits = line.dropFirst(7).prefix { $0.isNumber }
    }
    guard let n = Int(digits), n >= 0 else { throw BatchError("\(path): a line has no run number: \(line.prefix(60))") }
    return n
  }

  /// Parses a line into its fields: params and metrics as text, for summaries
  /// and for checking a file against an experiment.
  public func parse(_ line: String) throws -> ParsedRow {
    if format == .csv {
      let fields = Self.csvFields(line)
      guard let c = columns, fields.count == c.header.count else {
        throw BatchError("\(path): a row has \(Self.csvFields(line).count) fields, the header \(columns?.header.count ?? 0)")
      }
      let p = c.params.count
      var metrics: [(String, String)] = []
      for (i, name) in c.metrics.enumerated() where !fields[p + 3 + i].isEmpty {
        metrics.append((name, fields[p + 3 + i]))
      }
      let values = Array(fields[1..<(1 + p)])
      var row = ParsedRow(run: Int(fields[0]) ?? -1, params: Array(zip(c.params, values)),
                          seed: Int(fields[p + 1]) ?? 0, status: fields[p + 2], metrics: metrics,
                          error: fields.last.flatMap { $0.isEmpty ? nil : $0 })
      // CSV has only text: a parameter's type is the grid's (the header),
      // a metric is a number only as lifesim writes numbers.
      row.typedParams = values.enumerated().map { i, text in
        typedParam(text, grid: header?.params.first { $0.name == c.params[i] }?.values, storedAsText: nil)
      }
      row.typedMetrics = metrics.map { csvMetric($0.1) }
      return row
    }
    guard let row = try? JSONDecoder().decode(JSONRow.self, from: Data(line.utf8)) else {
      throw BatchError("\(path): a line is not a lifesim JSON result: \(line.prefix(60))")
    }
    // Parameters in the file's order when its header gives it.
    var names = (row.params ?? [:]).keys.sorted()
    if let order = header?.params.map(\.name), Set(order) == Set(names) { names = order }
    let metricNames = (row.metrics ?? [:]).keys.sorted()
    var parsed = ParsedRow(run: row.run, params: names.map { ($0, row.params![$0]!.text) }, seed: row.seed,
                           status: row.status, metrics: metricNames.map { ($0, row.metrics![$0]!.text) }, error: row.error)
    parsed.typedParams = names.map { row.params![$0]! }
    // JSON has no NaN or infinity: null is NaN, "inf" and "-inf" the infinities.
    parsed.typedMetrics = metricNames.map { name -> JSONScalar in
      switch row.metrics![name]! {
      case .null: return .number(.nan)
      case .text("inf"): return .number(.infinity)
      case .text("-inf"): return .number(-.infinity)
      case let v: return v
      }
    }
    return parsed
  }

  /// One field of a CSV line (one line is one record in lifesim's files).
  static func csvFields(_ line: String) -> [String] {
    guard let reader = try? CSVReader(string: line), let fields = reader.next() else { return [line] }
    return fields
  }
}

/// A JSONL result line, for reading.
private struct JSONRow: Decodable {
  var run: Int
  var params: [String: JSONScalar]?
  var seed: Int
  var status: String
  var metrics: [String: JSONScalar]?
  var error: String?
}

/// A row of a result file, as text, with the values' types.
public struct ParsedRow: Sendable {
  public var run: Int
  public var params: [(name: String, value: String)]
  public var seed: Int
  public var status: String
  public var metrics: [(name: String, value: String)]
  public var error: String?
  /// The parameters' values and the metrics' values, in the order of
  /// `params` and `metrics`, typed: as the file keeps them (JSONL, SQLite),
  /// or as the header's grid and lifesim's way of writing numbers tell (CSV).
  /// A number and a string that read alike are not the same value.
  public var typedParams: [JSONScalar] = []
  public var typedMetrics: [JSONScalar] = []

  public init(run: Int, params: [(name: String, value: String)], seed: Int, status: String,
              metrics: [(name: String, value: String)], error: String?) {
    self.run = run
    self.params = params
    self.seed = seed
    self.status = status
    self.metrics = metrics
    self.error = error
    typedParams = params.map { .text($0.value) }
    typedMetrics = metrics.map { csvMetric($0.value) }
  }
}

/// A metric written as text (CSV): a number when it is a decimal number
/// (`12`, `-0.5`, `1.7e308`, `1e999`) or `nan`/`inf` as lifesim writes them,
/// else a label, so that `0x8badf00d` or ` 12` stay labels.
func csvMetric(_ text: String) -> JSONScalar {
  if let x = Double(text), ResultEncoding.number(x) == text || isDecimal(text) { return .number(x) }
  return .text(text)
}

/// Sign, digits, an optional fraction and an optional exponent: nothing else
/// (no hexadecimal, no spaces, no words).
private func isDecimal(_ text: String) -> Bool {
  var u = Substring(text).utf8[...]
  func digits() -> Int {
    var n = 0
    while let c = u.first, c >= 0x30, c <= 0x39 { u = u.dropFirst(); n += 1 }
    return n
  }
  if let c = u.first, c == 0x2B || c == 0x2D { u = u.dropFirst() }
  var n = digits()
  if u.first == 0x2E { u = u.dropFirst(); n += digits() }
  guard n > 0 else { return false }
  if let c = u.first, c == 0x65 || c == 0x45 {
    u = u.dropFirst()
    if let c = u.first, c == 0x2B || c == 0x2D { u = u.dropFirst() }
    guard digits() > 0 else { return false }
  }
  return u.isEmpty
}

/// A parameter's value read as text: the value of the grid (the header's)
/// that is written so, of the kind the file stored when it says (SQLite
/// keeps numbers apart from text; CSV does not). Without a grid, text.
func typedParam(_ text: String, grid: [JSONScalar]?, storedAsText: Bool?) -> JSONScalar {
  let match = grid?.first { v in
    guard v.text == text else { return false }
    guard let storedAsText else { return true }
    if case .number = v { return !storedAsText }
    return storedAsText
  }
  if let match { return match }
  if storedAsText == false, let x = Double(text) { return .number(x) }
  return .text(text)
}

/// Reads a file line by line through a small buffer.
final class LineReader {
  private let file: UnsafeMutablePointer<FILE>?
  private var buffer: [UInt8] = []
  private var start = 0
  private var eof = false
  /// Bytes of the complete lines returned so far.
  private(set) var consumed = 0

  init(path: String) throws {
    guard let f = fopen(path, "rb") else {
      throw BatchError("cannot read \(path): \(String(cString: strerror(errno)))")
    }
    file = f
  }

  deinit {
    if !eof, let file { fclose(file) }
  }

  private var pushed: String?

  /// Makes `line` (the last one read) the next one again.
  func pushBack(_ line: String) {
    pushed = line
    consumed -= line.utf8.count
  }

  func next() -> String? {
    if let line = pushed {
      pushed = nil
      consumed += line.utf8.count
      return line
    }
    while true {
      if let nl = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
        let line = String(decoding: buffer[start...nl], as: UTF8.self)
        consumed += nl - start + 1
        start = nl + 1
        return line
      }
      if eof { return nil }
      buffer.removeFirst(start)
      start = 0
      var chunk = [UInt8](repeating: 0, count: 65_536)
      let n = fread(&chunk, 1, chunk.count, file)
      if n == 0 {
        eof = true
        if let file { fclose(file) }
      } else {
        buffer.append(contentsOf: chunk[0..<n])
      }
    }
  }
}
