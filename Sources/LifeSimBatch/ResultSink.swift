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
  /// Opens the output for `header` (`ResultOutput`, which takes its lock).
  /// Without `resume`, or when the file does not exist, it starts anew, over
  /// an existing file only with `force`. With `resume`, it refuses a file
  /// from another batch and rows it cannot trust, passes each row already
  /// there to `check`, and returns their runs, the metric names its rows
  /// fixed (if any) and the header the file had.
  func open(header: ResultHeader, resume: Bool, force: Bool, check: (ParsedRow) throws -> Void) throws -> OpenedOutput
  /// Writes one row, the next in run order.
  func write(_ row: ResultRow) throws
  /// The header the file gets when it is finished or closed (the files the
  /// runs read added to it), if it changes.
  var newHeader: ResultHeader? { get set }
  /// Writes what is still held; the output is complete (and replaces the
  /// file it was named for, when it was written beside it).
  func finish() throws
  /// Closes the output of a batch that stops early (interrupted, or failed):
  /// what is written stays, and `--resume` continues it.
  func close()
  /// Closes the output and removes what this batch made of it: the batch's
  /// runs cannot be kept (they read the output), and an earlier file stays.
  func discard()
  /// The runs the file holds: those it had, and those written since.
  var kept: Int { get }
  /// The file that holds the rows (an unfinished file while a replacement is
  /// made), and the file it replaces when finished, if it is another.
  var rowsPath: String { get }
  var replaces: String? { get }
  /// Where the sink says what the user should know.
  var notice: (String) -> Void { get set }
}

/// What opening an output found.
struct OpenedOutput {
  /// The runs it already held, and the metric names they fixed (CSV, SQLite).
  var done: Set<Int> = []
  var metrics: [String]?
  /// Whether the file held rows before (a file resumed).
  var existing = false
  /// The header of the file resumed (nil when new, or from before header lines).
  var header: ResultHeader?
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
  let named: String
  let format: ResultFormat
  let params: [String]
  private var writer: ResultWriter?
  private var columns: ResultColumns?
  private var columnsWritten = false
  /// CSV rows of failed runs that come before the first successful one,
  /// whose metrics name the columns.
  private var held: [ResultRow] = []
  private var output: ResultOutput?
  private(set) var kept = 0
  private let declaredMetrics: [String]?
  var newHeader: ResultHeader?
  var notice: (String) -> Void = { _ in }

  init(path: String, format: ResultFormat, params: [String], declaredMetrics: [String]?) {
    self.named = path
    self.format = format
    self.params = params
    self.declaredMetrics = declaredMetrics
    columns = declaredMetrics.map { ResultColumns(params: params, metrics: $0) }
  }

  var fixesMetrics: Bool { format == .csv }
  var appendsOnly: Bool { true }
  var rowsPath: String { output?.path ?? named }
  var replaces: String? { output?.staged == true ? output!.target : nil }

  func open(header: ResultHeader, resume: Bool, force: Bool, check: (ParsedRow) throws -> Void) throws -> OpenedOutput {
    let output = try ResultOutput(named: named, mode: resume ? .resume : .new(force: force), companions: [], notice: notice)
    self.output = output
    let path = output.path
    guard output.existing else {
      writer = try ResultWriter(path: path, append: false)
      try writer!.write(header.line(for: format))
      return OpenedOutput()
    }
    let reader = try ResultReader(path: path)
    try refuseOtherBatch(reader.header, path: path, header: header, warn: notice)
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
    var found = reader.header
    if reader.header == nil && keep == 0 {
      try writer!.write(header.line(for: format))
      found = header
    }
    return OpenedOutput(done: done, metrics: format == .csv ? metrics : nil, existing: true, header: found)
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
    try writeNewHeader()
    try output?.commit()
  }

  func close() {
    // Failed runs held for want of columns are not written: the first
    // successful run names the columns, and --resume runs them again.
    try? writer?.close()
    do { try writeNewHeader() } catch { notice("lifesim: \(error)") }
    output?.release()
  }

  func discard() {
    try? writer?.close()
    output?.discard()
  }

  /// Writes `newHeader` over the file's first line: the file is copied
  /// beside itself with the new line, locked, and renamed over it.
  private func writeNewHeader() throws {
    guard let header = newHeader, let output else { return }
    newHeader = nil
    let from = output.path
    try output.replaceContents { to in
      try copyReplacingFirstLine(from: from, to: to, with: header.line(for: format))
    }
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

/// The lock of a result file while a command writes it: an exclusive
/// `flock` on the file itself, released when the command closes the file (or
/// the process ends, however it ends), so no lock file is left behind. A
/// second batch on the same file (a second --resume), or a merge into it, is
/// refused, not let in to write its runs twice or to replace it.
final class ResultLock {
  private var fd: Int32

  init(_ path: String) throws {
    fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard fd >= 0 else { throw BatchError("cannot open \(path): \(String(cString: strerror(errno)))") }
    try take(path)
  }

  /// Locks a file just made (`fd` is then the lock's, closed with it).
  init(fd: Int32, path: String) throws {
    self.fd = fd
    try take(path)
  }

  private func take(_ path: String) throws {
    guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
      let e = errno
      close(fd)
      fd = -1
      if e == EWOULDBLOCK {
        throw BatchError("\(path) is in use: another lifesim batch is writing it (or a merge; it holds the file's lock); "
                         + "wait for it to end before resuming or replacing the file, or write to another file")
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

/// Copies a text file whose first line is a header, with `line` in its place.
func copyReplacingFirstLine(from: String, to: String, with line: String) throws {
  guard let input = fopen(from, "rb") else { throw BatchError("cannot read \(from): \(String(cString: strerror(errno)))") }
  defer { fclose(input) }
  guard let out = fopen(to, "wb") else { throw BatchError("cannot write \(to): \(String(cString: strerror(errno)))") }
  var ok = true
  var first = line
  ok = first.withUTF8 { fwrite($0.baseAddress, 1, $0.count, out) == $0.count }
  var skipping = true
  var chunk = [UInt8](repeating: 0, count: 1 << 16)
  while ok {
    let n = fread(&chunk, 1, chunk.count, input)
    if n == 0 { break }
    var start = 0
    if skipping {
      guard let nl = chunk[0..<n].firstIndex(of: UInt8(ascii: "\n")) else { continue }
      skipping = false
      start = nl + 1
    }
    ok = chunk[start..<n].withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, out) == $0.count }
  }
  let failed = !ok || ferror(input) != 0 || fflush(out) != 0 || fsync(fileno(out)) != 0
  let reason = String(cString: strerror(errno))
  if fclose(out) != 0 || failed { throw BatchError("cannot write \(to): \(reason)") }
}

/// Refuses to go on with a file another batch wrote, and says (through
/// `warn`) what a file from an older lifesim does not let it check.
func refuseOtherBatch(_ found: ResultHeader?, path: String, header: ResultHeader, warn: (String) -> Void = { _ in }) throws {
  guard let found else { return }  // a file from before header lines: the rows are checked one by one
  guard found.sameBatch(as: header) else {
    if found.experiment == header.experiment && found.sha256 == header.sha256 && found.params == header.params
        && found.seeds != header.seeds && found.options == header.options && found.files == header.files {
      // The one difference a resume can mend by itself.
      throw BatchError("\(path) was written with --seeds \(found.seeds), not \(header.seeds): run with --seeds "
                       + "\(found.seeds) to continue it, or write to another file")
    }
    if found.sameExperiment(as: header) {
      throw BatchError("\(path) was written by the same experiment with other options or files: "
                       + "\(found.difference(from: header)); resume it as it was written (the same options and files), "
                       + "or write to another file")
    }
    throw BatchError("\(path) was written by a different experiment: \(found.summary), not \(header.summary) "
                     + "(\(found.difference(from: header))); write to another file, or delete it to start again")
  }
  if let missing = found.unrecorded(comparedWith: header) {
    warn("lifesim: warning: \(path) does not record \(missing) (an older lifesim wrote it): --resume cannot check "
         + "that its runs used the same; start a new file if they may differ")
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
  /// Whether the file keeps a metric's type (JSONL, SQLite), or only its text (CSV).
  var keepsTypes: Bool { get }
}

extension ResultReader: ResultSource {
  public var keepsTypes: Bool { format != .csv }
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
