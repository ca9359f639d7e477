import Foundation
import LifeSimEngine
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
  /// Opens the output for `header` and takes its lock (`ResultLock`).
  /// Without `resume`, or when the file does not exist, it starts anew, over
  /// an existing file only with `force` (`prepareNewOutput`). With `resume`,
  /// it refuses a file from another batch and rows it cannot trust, passes
  /// each row already there to `check`, and returns their runs and the
  /// metric names its rows fixed (if any).
  func open(header: ResultHeader, resume: Bool, force: Bool, check: (ParsedRow) throws -> Void) throws
    -> (done: Set<Int>, metrics: [String]?)
  /// Writes one row, the next in run order.
  func write(_ row: ResultRow) throws
  /// Writes what is still held; the output is complete.
  func finish() throws
  /// Closes the output of a batch that stops early (interrupted, or failed):
  /// what is written stays, and `--resume` continues it.
  func close()
  /// The runs the file holds: those it had, and those written since.
  var kept: Int { get }
}

/// Opens the sink for a path's format.
func resultSink(path: String, params: [String], declaredMetrics: [String]?) throws -> ResultSink {
  let format = try ResultFormat(path: path)
  if format == .sqlite { return SQLiteResultSink(path: path, params: params, declaredMetrics: declaredMetrics) }
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
  private var lock: ResultLock?
  private(set) var kept = 0
  private let declaredMetrics: [String]?

  init(path: String, format: ResultFormat, params: [String], declaredMetrics: [String]?) {
    self.path = path
    self.format = format
    self.params = params
    self.declaredMetrics = declaredMetrics
    columns = declaredMetrics.map { ResultColumns(params: params, metrics: $0) }
  }

  var fixesMetrics: Bool { format == .csv }
  var appendsOnly: Bool { true }

  func open(header: ResultHeader, resume: Bool, force: Bool, check: (ParsedRow) throws -> Void) throws
    -> (done: Set<Int>, metrics: [String]?)
  {
    guard resume, fileType(path) != nil else {
      lock = try prepareNewOutput(path, force: force, companions: [])
      writer = try ResultWriter(path: path, append: false)
      if lock == nil { lock = try ResultLock(path) }
      try writer!.write(header.line(for: format))
      return ([], nil)
    }
    guard fileType(path) == S_IFREG || fileType(path) == S_IFLNK else {
      throw BatchError("\(path) is not a regular file: it cannot be a result file to resume")
    }
    lock = try ResultLock(path)
    let reader = try ResultReader(path: path)
    try refuseOtherBatch(reader.header, path: path, header: header)
    var metrics: [String]?
    if let c = reader.columns {
      guard c.params == params else {
        throw BatchError("\(path) has the parameters \(c.params.joined(separator: ", ")), the experiment \(params.joined(separator: ", ")): it is not this experiment's file")
      }
      if let declaredMetrics, !c.metrics.isEmpty, Set(c.metrics) != Set(declaredMetrics) {
        throw BatchError("\(path) has the metric columns \(c.metrics.map(shownName).joined(separator: ", ")), "
                         + "the experiment declares \(declaredMetrics.map(shownName).joined(separator: ", ")): it is not this experiment's file")
      }
      columns = c
      columnsWritten = true
      metrics = c.metrics
    }
    var trust = ResumedRows(path: path, params: params, metrics: format == .csv ? nil : declaredMetrics)
    var number = (reader.header == nil ? 0 : 1) + (reader.columns == nil ? 0 : 1)
    while let line = reader.nextLine() {
      number += 1
      let place = "\(path) line \(number)"
      let row: ParsedRow
      do { row = try reader.parse(line) } catch let e as BatchError { throw BatchError(at: place, e, path: path) }
      if format == .jsonl { try refuseUnknownKeys(line, at: place) }
      try trust.take(row, at: place)
      do { try check(row) } catch let e as BatchError { throw BatchError(at: place, e, path: path) }
    }
    let done = trust.seen
    kept = done.count
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
      kept += 1
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
    kept += 1
  }

  func finish() throws {
    if format == .csv {
      if columns == nil { columns = ResultColumns(params: params, metrics: []) }
      try writeColumns()
      try writeHeld()
    }
    try writer?.close()
    lock?.release()
  }

  func close() {
    // Failed runs held for want of columns are not written: the first
    // successful run names the columns, and --resume runs them again.
    try? writer?.close()
    lock?.release()
  }

  private func writeColumns() throws {
    guard !columnsWritten else { return }
    try writer!.write(ResultEncoding.csvLine(columns!.header))
    columnsWritten = true
  }

  private func writeHeld() throws {
    for h in held { try writer!.write(ResultEncoding.csv(h, columns: columns!)) }
    kept += held.count
    held.removeAll()
  }
}

extension BatchError {
  /// `error` (which names `path`) said of a place in it: "PATH line 7: …".
  init(at place: String, _ error: BatchError, path: String) {
    var text = error.description
    if text.hasPrefix(path + ": ") { text.removeFirst(path.count + 2) }
    self.init("\(place): \(text)")
  }
}

/// The rows a resumed file already holds, checked before any is trusted:
/// each must be a row lifesim wrote (status ok or error, no error on an ok
/// row), once per run, with the experiment's parameters and (when known)
/// its metrics.
struct ResumedRows {
  let path: String
  let params: [String]
  /// The metric names a row may have (nil: any).
  let metrics: [String]?
  private(set) var seen = Set<Int>()

  init(path: String, params: [String], metrics: [String]?) {
    self.path = path
    self.params = params
    self.metrics = metrics
  }

  mutating func take(_ row: ParsedRow, at place: String) throws {
    let doubt = "; lifesim did not write this row, so --resume does not trust the file (remove the row, or write to another file)"
    guard row.run >= 0 else { throw BatchError("\(place): the row has no run number" + doubt) }
    guard row.status == "ok" || row.status == "error" else {
      throw BatchError("\(place): run \(row.run) has the status \(shownName(row.status)), neither ok nor error" + doubt)
    }
    if row.status == "ok" && row.error != nil {
      throw BatchError("\(place): run \(row.run) has the status ok and an error" + doubt)
    }
    guard !seen.contains(row.run) else {
      throw BatchError("\(place): run \(row.run) is in the file twice" + doubt)
    }
    let names = row.params.map(\.name)
    guard names.count == params.count, Set(names) == Set(params) else {
      throw BatchError("\(place): run \(row.run) has the parameters \(names.map(shownName).joined(separator: ", ")), "
                       + "the experiment \(params.map(shownName).joined(separator: ", "))" + doubt)
    }
    if let metrics, let unknown = row.metrics.first(where: { !metrics.contains($0.name) }) {
      throw BatchError("\(place): run \(row.run) has the metric \(shownName(unknown.name)), not one of "
                       + "\(metrics.map(shownName).joined(separator: ", "))" + doubt)
    }
    seen.insert(row.run)
  }
}

/// A JSONL row with a field lifesim does not write is not one of its rows.
private func refuseUnknownKeys(_ line: String, at place: String) throws {
  guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return }
  let known: Set<String> = ["run", "params", "seed", "status", "metrics", "error"]
  if let key = object.keys.sorted().first(where: { !known.contains($0) }) {
    throw BatchError("\(place): the row has the field \(shownName(key)), which lifesim does not write; "
                     + "--resume does not trust the file (remove the row, or write to another file)")
  }
}

/// The type of the file at `path` (S_IFREG, S_IFDIR, S_IFLNK…) without
/// following a symbolic link, or nil when there is none.
func fileType(_ path: String) -> mode_t? {
  var st = stat()
  guard lstat(path, &st) == 0 else { return nil }
  return st.st_mode & S_IFMT
}

/// Makes way for a new result file at `path`: nothing there, or (with
/// `force`) a file to replace (for SQLite, a regular one), whose lock it takes first so that a
/// file another batch is writing is not replaced under it. Files beside it
/// (`companions`: an SQLite database's -wal and -shm) are removed only when
/// they belong to a database being replaced, and only if they are regular
/// files; lifesim never deletes a directory. Returns the lock taken, if any.
func prepareNewOutput(_ path: String, force: Bool, companions: [String]) throws -> ResultLock? {
  var lock: ResultLock?
  if let type = fileType(path) {
    var target = stat()
    let regular = type == S_IFREG || (type == S_IFLNK && stat(path, &target) == 0 && target.st_mode & S_IFMT == S_IFREG)
    if type == S_IFDIR || (type == S_IFLNK && target.st_mode & S_IFMT == S_IFDIR) {
      throw BatchError("\(path) is a directory: give -o the name of a result file (lifesim does not write into or remove a directory)")
    }
    // A device or a pipe (not a regular file) is written, never removed:
    // only a text format, whose writer opens it as it is.
    guard regular || companions.isEmpty else {
      throw BatchError("\(path) is not a regular file: an SQLite result is written only where there is none, or over a regular file with --force")
    }
    guard force else {
      throw BatchError("\(path) already exists: lifesim batch does not overwrite a file; --resume continues it (if this "
                       + "experiment wrote it), --force replaces it, or give -o another name")
    }
    lock = try ResultLock(path)
  }
  for suffix in companions {
    let beside = path + suffix
    guard let type = fileType(beside) else { continue }
    guard type == S_IFREG, force else {
      throw BatchError("\(beside) exists beside \(path)\(type == S_IFREG ? "" : " and is not a regular file"): "
                       + "SQLite would read it as part of the new database; "
                       + (type == S_IFREG ? "--force removes it with the old database, or give -o another name" : "give -o another name"))
    }
  }
  if lock != nil || force {
    for suffix in companions where fileType(path + suffix) == S_IFREG { unlink(path + suffix) }
  }
  return lock
}

/// The lock of a result file while a batch writes it: an exclusive `flock`
/// on the file itself, released when the batch closes the file (or the
/// process ends, however it ends), so no lock file is left behind. A second
/// batch on the same file (a second --resume) is refused, not let in to
/// write its runs twice.
final class ResultLock {
  private var fd: Int32

  init(_ path: String) throws {
    fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw BatchError("cannot open \(path): \(String(cString: strerror(errno)))") }
    guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
      let e = errno
      close(fd)
      fd = -1
      if e == EWOULDBLOCK {
        throw BatchError("\(path) is in use: another lifesim batch is writing it (it holds the file's lock); "
                         + "wait for that batch to end before resuming it, or write to another file")
      }
      throw BatchError("cannot lock \(path): \(String(cString: strerror(e)))")
    }
  }

  func release() {
    if fd >= 0 { close(fd) }
    fd = -1
  }

  deinit { release() }
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
