import Foundation
import LifeSimLua

/// Where a batch writes its rows: a CSV or JSONL file (`TextResultSink`) or
/// an SQLite database (`SQLiteResultSink`). The runner hands it rows in run
/// order; each is durable when `write` returns (a line flushed, a
/// transaction committed), so a killed batch loses only runs not yet handed.
protocol ResultSink: AnyObject {
  /// Whether every successful row must carry the same metrics (a table's
  /// columns): true for CSV and SQLite, false for JSONL.
  var fixesMetrics: Bool { get }
  /// Whether rows can only be appended, so a resumed batch must add runs
  /// after every run already there (true for CSV and JSONL; an SQLite view
  /// orders by run).
  var appendsOnly: Bool { get }
  /// Opens the output for `header`. Without `resume`, or when the file does
  /// not exist, it starts anew. With `resume`, it refuses a file from another
  /// batch, passes each row already there to `check`, and returns their runs
  /// and the metric names its rows fixed (if any).
  func open(header: ResultHeader, resume: Bool, check: (ParsedRow) throws -> Void) throws
    -> (done: Set<Int>, metrics: [String]?)
  /// Writes one row, the next in run order.
  func write(_ row: ResultRow) throws
  /// Writes what is still held; the output is complete.
  func finish() throws
}

/// Opens the sink for a path's format.
func resultSink(path: String, params: [String], declaredMetrics: [String]?) throws -> ResultSink {
  let format = try ResultFormat(path: path)
  if format == .sqlite { return SQLiteResultSink(path: path, params: params) }
  return TextResultSink(path: path, format: format, params: params, declaredMetrics: declaredMetrics)
}

/// A CSV or JSONL result file: the header line, then (CSV) the column line,
/// then one line per run, each flushed as it is written.
final class TextResultSink: ResultSink {
  let path: String
  let format: ResultFormat
  let params: [String]
  private var writer: ResultWriter?
  private var columns: ResultColumns?
  private var columnsWritten = false
  /// CSV rows of failed runs that come before the first successful one,
  /// whose metrics name the columns.
  private var held: [ResultRow] = []

  init(path: String, format: ResultFormat, params: [String], declaredMetrics: [String]?) {
    self.path = path
    self.format = format
    self.params = params
    columns = declaredMetrics.map { ResultColumns(params: params, metrics: $0) }
  }

  var fixesMetrics: Bool { format == .csv }
  var appendsOnly: Bool { true }

  func open(header: ResultHeader, resume: Bool, check: (ParsedRow) throws -> Void) throws
    -> (done: Set<Int>, metrics: [String]?)
  {
    guard resume, FileManager.default.fileExists(atPath: path) else {
      writer = try ResultWriter(path: path, append: false)
      try writer!.write(header.line(for: format))
      return ([], nil)
    }
    let reader = try ResultReader(path: path)
    try refuseOtherBatch(reader.header, path: path, header: header)
    var metrics: [String]?
    if let c = reader.columns {
      guard c.params == params else {
        throw BatchError("\(path) has the parameters \(c.params.joined(separator: ", ")), the experiment \(params.joined(separator: ", ")): it is not this experiment's file")
      }
      columns = c
      columnsWritten = true
      metrics = c.metrics
    }
    var done = Set<Int>()
    while let line = reader.nextLine() {
      let row = try reader.parse(line)
      try check(row)
      done.insert(row.run)
    }
    let keep = reader.completeBytes
    // Drop a partial last line, left by a batch killed mid-write.
    if truncate(path, __off_t(keep)) != 0 {
      throw BatchError("cannot truncate \(path): \(String(cString: strerror(errno)))")
    }
    writer = try ResultWriter(path: path, append: true)
    if reader.header == nil && keep == 0 { try writer!.write(header.line(for: format)) }
    return (done, format == .csv ? metrics : nil)
  }

  func write(_ row: ResultRow) throws {
    if format == .jsonl {
      try writer!.write(ResultEncoding.jsonl(row, params: params))
      return
    }
    if columns == nil {
      guard row.outcome.error == nil else {
        held.append(row)
        return
      }
      columns = ResultColumns(params: params, metrics: row.outcome.metrics.map(\.name))
    }
    try writeColumns()
    try writeHeld()
    try writer!.write(ResultEncoding.csv(row, columns: columns!))
  }

  func finish() throws {
    if format == .csv {
      if columns == nil { columns = ResultColumns(params: params, metrics: []) }
      try writeColumns()
      try writeHeld()
    }
    try writer?.close()
  }

  private func writeColumns() throws {
    guard !columnsWritten else { return }
    try writer!.write(ResultEncoding.csvLine(columns!.header))
    columnsWritten = true
  }

  private func writeHeld() throws {
    for h in held { try writer!.write(ResultEncoding.csv(h, columns: columns!)) }
    held.removeAll()
  }
}

/// Refuses to go on with a file another batch wrote.
func refuseOtherBatch(_ found: ResultHeader?, path: String, header: ResultHeader) throws {
  guard let found else { return }  // a file from before header lines: the rows are checked one by one
  guard found.sameBatch(as: header) else {
    throw BatchError("\(path) was written by a different experiment: \(found.summary), not \(header.summary) "
                     + "(\(found.difference(from: header))); write to another file, or delete it to start again")
  }
}

/// Rows of a result file in run order, whatever its format: what `summary`,
/// `plot` and a SQLite `merge` read.
public protocol ResultSource {
  var path: String { get }
  /// The batch that wrote it (nil in files from before header lines).
  var header: ResultHeader? { get }
  /// The parameter names in file order, and the metric names known before
  /// reading rows (CSV columns, SQLite); either may be empty.
  var paramNames: [String] { get }
  var metricNames: [String] { get }
  /// The next row, or nil at the end.
  mutating func nextRow() throws -> ParsedRow?
}

extension ResultReader: ResultSource {
  public var paramNames: [String] { columns?.params ?? header?.params.map(\.name) ?? [] }
  public var metricNames: [String] { columns?.metrics ?? [] }
  public mutating func nextRow() throws -> ParsedRow? {
    guard let line = nextLine() else { return nil }
    return try parse(line)
  }
}

/// Opens a result file of any format for reading.
public func openResults(_ path: String) throws -> any ResultSource {
  if try ResultFormat(path: path) == .sqlite { return try SQLiteResults(path: path) }
  return try ResultReader(path: path)
}
