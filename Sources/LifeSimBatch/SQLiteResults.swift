import Foundation
import GRDB
import LifeSimEngine
import LifeSimLua

// Result files in SQLite, through GRDB: the same rows as a CSV file, in
// tables SQL and pandas read (`pd.read_sql("SELECT * FROM results", con)`).
//
//   batch    one row: the header (experiment, sha256, lifesim, the JSON
//            header, seeds, runs) and the metric names the runs fixed
//   runs     run (primary key), seed, status, error
//   params   run, name, value: one row per parameter of each run
//   metrics  run, name, value: one row per metric of each successful run
//   results  a view with one row per run and one column per parameter and
//            metric, as the CSV file has
//
// Whole numbers that a double holds exactly are INTEGER, other numbers REAL
// (NaN is NULL, read back as nan; the infinities are REAL ±Inf), labels
// TEXT, booleans the TEXT 'true' or 'false'. Each run is committed in its
// own transaction (WAL, synchronous NORMAL): a killed batch keeps every run
// it wrote. A batch that ends (finished, failed or interrupted) checkpoints
// the log and leaves the database in rollback-journal mode, so that no -wal
// or -shm file stays beside it and readers create none.

private func quoted(_ name: String) -> String { "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
private func literal(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "''") + "'" }

private func configuration(readonly: Bool = false) -> Configuration {
  var c = Configuration()
  c.readonly = readonly
  if !readonly {
    c.prepareDatabase { db in
      try db.execute(sql: "PRAGMA journal_mode = WAL")
      try db.execute(sql: "PRAGMA synchronous = NORMAL")
    }
  }
  return c
}

/// A number as SQLite should hold it: INTEGER when it is a whole number
/// that converts exactly (not -0, which an integer would lose), else REAL.
private func databaseNumber(_ x: Double) -> DatabaseValue {
  if x.isNaN { return .null }
  if x == x.rounded(), abs(x) <= 9_007_199_254_740_992, !(x == 0 && x.sign == .minus) {
    return Int64(x).databaseValue
  }
  return x.databaseValue
}

/// Leaves the database in rollback-journal mode (which checkpoints the log
/// and removes -wal and -shm), then closes it.
private func closeCleanly(_ queue: DatabaseQueue) throws {
  try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = DELETE") }
  try queue.close()
}

private func databaseValue(_ v: ParamValue) -> DatabaseValue {
  switch v {
  case .number(let x): return databaseNumber(x)
  case .text(let s): return s.databaseValue
  case .bool(let b): return (b ? "true" : "false").databaseValue
  }
}

private func databaseValue(_ m: MetricValue) -> DatabaseValue {
  switch m {
  case .number(let x): return databaseNumber(x)
  case .text(let s): return s.databaseValue
  }
}

/// A value as result files write it ("nan" for NULL, as CSV writes NaN).
private func text(_ v: DatabaseValue) -> String {
  switch v.storage {
  case .null: return "nan"
  case .int64(let i): return ResultEncoding.number(Double(i))
  case .double(let x): return ResultEncoding.number(x)
  case .string(let s): return s
  case .blob(let d): return String(decoding: d, as: UTF8.self)
  }
}

/// A metric as SQLite keeps it: numbers (NULL is NaN), and text.
private func scalar(_ v: DatabaseValue) -> JSONScalar {
  switch v.storage {
  case .null: return .number(.nan)
  case .int64(let i): return .number(Double(i))
  case .double(let x): return .number(x)
  case .string(let s): return .text(s)
  case .blob(let d): return .text(String(decoding: d, as: UTF8.self))
  }
}

private extension DatabaseValue.Storage {
  var isNumber: Bool {
    switch self {
    case .int64, .double: return true
    default: return false
    }
  }
}

private func wrap<T>(_ path: String, _ body: () throws -> T) throws -> T {
  do { return try body() } catch let e as DatabaseError {
    throw BatchError("\(path): \(e.message ?? "\(e)")")
  }
}

private let schema = """
  CREATE TABLE batch (experiment TEXT NOT NULL, sha256 TEXT NOT NULL, lifesim TEXT NOT NULL,
                      header TEXT NOT NULL, seeds INTEGER NOT NULL, runs INTEGER NOT NULL, metrics TEXT);
  CREATE TABLE runs (run INTEGER PRIMARY KEY, seed INTEGER NOT NULL, status TEXT NOT NULL, error TEXT);
  CREATE TABLE params (run INTEGER NOT NULL REFERENCES runs(run), name TEXT NOT NULL, value,
                       PRIMARY KEY (run, name)) WITHOUT ROWID;
  CREATE TABLE metrics (run INTEGER NOT NULL REFERENCES runs(run), name TEXT NOT NULL, value,
                        PRIMARY KEY (run, name)) WITHOUT ROWID;
  """

private func createTables(_ db: Database, header: ResultHeader) throws {
  try db.execute(sql: schema)
  try db.execute(sql: "INSERT INTO batch (experiment, sha256, lifesim, header, seeds, runs) VALUES (?, ?, ?, ?, ?, ?)",
                 arguments: [header.experiment, header.sha256, header.lifesim, header.json, header.seeds, header.runs])
}

/// The `results` view: one row per run, the CSV's columns. A parameter named
/// like another column (`seed`, a metric) is `param:NAME` there, as in
/// `summary`, so every column has its own name.
private func createView(_ db: Database, params: [String], metrics: [String]) throws {
  try db.execute(sql: "DROP VIEW IF EXISTS results")
  let taken = Set(["run", "seed", "status", "error"] + metrics)
  var columns = ["r.run AS run"]
  columns += params.map {
    "(SELECT value FROM params WHERE run = r.run AND name = \(literal($0))) AS \(quoted(taken.contains($0) ? "param:" + $0 : $0))"
  }
  columns += ["r.seed AS seed", "r.status AS status"]
  columns += metrics.map { "(SELECT value FROM metrics WHERE run = r.run AND name = \(literal($0))) AS \(quoted($0))" }
  columns.append("r.error AS error")
  try db.execute(sql: "CREATE VIEW results AS SELECT " + columns.joined(separator: ", ") + " FROM runs r ORDER BY r.run")
}

/// A batch's SQLite output.
final class SQLiteResultSink: ResultSink {
  let named: String
  let params: [String]
  private var db: DatabaseQueue?
  private var metrics: [String]?
  /// The declared metrics name the view's columns in their order, as they
  /// name a CSV file's.
  private let declaredMetrics: [String]?
  private var output: ResultOutput?
  private(set) var kept = 0
  var newHeader: ResultHeader?
  var notice: (String) -> Void = { _ in }

  init(path: String, params: [String], declaredMetrics: [String]?) {
    self.named = path
    self.params = params
    self.declaredMetrics = declaredMetrics
  }

  var fixesMetrics: Bool { true }
  var appendsOnly: Bool { false }
  var rowsPath: String { output?.path ?? named }
  var replaces: String? { output?.staged == true ? output!.target : nil }
  private var path: String { rowsPath }

  static let companions = ["-wal", "-shm", "-journal"]

  func open(header: ResultHeader, resume: Bool, force: Bool, check: (ParsedRow) throws -> Void) throws -> OpenedOutput {
    let output = try ResultOutput(named: named, mode: resume ? .resume : .new(force: force), companions: Self.companions,
                                  notice: notice)
    self.output = output
    let path = output.path
    return try wrap(path) {
      let queue = try DatabaseQueue(path: path, configuration: configuration())
      db = queue
      guard output.existing else {
        try queue.write { db in
          try createTables(db, header: header)
          if let declared = declaredMetrics {
            metrics = declared
            try db.execute(sql: "UPDATE batch SET metrics = ?", arguments: [jsonArray(declared)])
          }
          try createView(db, params: params, metrics: declaredMetrics ?? [])
        }
        return OpenedOutput()
      }
      var source = try SQLiteResults(queue: queue, path: path)
      try refuseOtherBatch(source.header, path: path, header: header, warn: notice)
      if let declared = declaredMetrics, let fixed = source.fixedMetrics, Set(fixed) != Set(declared) {
        throw BatchError("\(path) has the metrics \(fixed.map(shownName).joined(separator: ", ")), "
                         + "the experiment declares \(declared.map(shownName).joined(separator: ", ")): it is not this experiment's file")
      }
      var trust = ResumedRows(path: path, params: params, metrics: source.fixedMetrics ?? declaredMetrics)
      while let row = try source.nextRow() {
        let place = "\(path), run \(row.run)"
        try trust.take(row, at: place)
        do { try check(row) } catch let e as BatchError { throw BatchError(at: place, e, path: path) }
      }
      metrics = source.fixedMetrics
      kept = trust.seen.count
      return OpenedOutput(done: trust.seen, metrics: metrics, existing: true, header: source.header)
    }
  }

  func write(_ row: ResultRow) throws {
    try wrap(path) {
      try db!.write { db in
        try db.execute(sql: "INSERT INTO runs (run, seed, status, error) VALUES (?, ?, ?, ?)",
                       arguments: [row.run, row.seed, row.status, row.outcome.error.map(ResultEncoding.oneLine)])
        for (name, value) in zip(params, row.params) {
          try db.execute(sql: "INSERT INTO params (run, name, value) VALUES (?, ?, ?)",
                         arguments: [row.run, name, databaseValue(value)])
        }
        for (name, value) in row.outcome.metrics {
          try db.execute(sql: "INSERT INTO metrics (run, name, value) VALUES (?, ?, ?)",
                         arguments: [row.run, name, databaseValue(value)])
        }
        if metrics == nil, row.outcome.error == nil {
          let names = row.outcome.metrics.map(\.name)
          metrics = names
          try db.execute(sql: "UPDATE batch SET metrics = ?", arguments: [jsonArray(names)])
          try createView(db, params: params, metrics: names)
        }
      }
    }
    kept += 1
  }

  func finish() throws {
    try wrap(path) {
      try writeNewHeader()
      if let db { try closeCleanly(db) }
    }
    db = nil
    try output?.commit()
  }

  func close() {
    do { try wrap(path) { try writeNewHeader() } } catch { notice("lifesim: \(error)") }
    if let db { try? closeCleanly(db) }
    db = nil
    output?.release()
  }

  func discard() {
    if let db { try? db.close() }
    db = nil
    output?.discard()
  }

  private func writeNewHeader() throws {
    guard let header = newHeader, let db else { return }
    newHeader = nil
    try db.write { db in try db.execute(sql: "UPDATE batch SET header = ?", arguments: [header.json]) }
  }
}

private func jsonArray(_ names: [String]) -> String {
  "[" + names.map(ResultEncoding.json).joined(separator: ",") + "]"
}

/// An SQLite result file read in run order, a page of runs at a time.
public struct SQLiteResults: ResultSource {
  public let path: String
  public let header: ResultHeader?
  public let paramNames: [String]
  public var metricNames: [String] { fixedMetrics ?? [] }
  public var keepsTypes: Bool { true }
  /// The metric names the runs fixed (nil until a run succeeded).
  let fixedMetrics: [String]?
  private let queue: DatabaseQueue
  private var page: [ParsedRow] = []
  private var nextInPage = 0
  private var lastRun = -1
  private var finished = false

  public init(path: String) throws {
    guard FileManager.default.fileExists(atPath: path) else { throw BatchError("cannot read \(path): no such file") }
    let queue = try wrap(path) { try DatabaseQueue(path: path, configuration: configuration(readonly: true)) }
    try self.init(queue: queue, path: path)
  }

  init(queue: DatabaseQueue, path: String) throws {
    self.queue = queue
    self.path = path
    let batch = try wrap(path) {
      try queue.read { db -> (String, String?)? in
        guard try db.tableExists("batch"), let row = try Row.fetchOne(db, sql: "SELECT header, metrics FROM batch") else {
          return nil
        }
        return (row["header"], row["metrics"])
      }
    }
    guard let batch, let header = ResultHeader(json: batch.0) else {
      throw BatchError("\(path): not a lifesim result database (it has no batch table with a header)")
    }
    self.header = header
    paramNames = header.params.map(\.name)
    fixedMetrics = batch.1.flatMap { try? JSONDecoder().decode([String].self, from: Data($0.utf8)) }
  }

  public mutating func nextRow() throws -> ParsedRow? {
    if nextInPage == page.count {
      guard !finished else { return nil }
      try loadPage()
      if page.isEmpty { return nil }
    }
    defer { nextInPage += 1 }
    return page[nextInPage]
  }

  /// The next 1,000 runs after `lastRun`, with their parameters and metrics.
  private mutating func loadPage() throws {
    let after = lastRun, params = paramNames, order = fixedMetrics ?? []
    var grid: [String: [JSONScalar]] = [:]
    for p in header?.params ?? [] { grid[p.name] = p.values }
    page = try wrap(path) {
      try queue.read { db in
        let runs = try Row.fetchAll(db, sql: "SELECT run, seed, status, error FROM runs WHERE run > ? ORDER BY run LIMIT 1000",
                                    arguments: [after])
        guard let first = runs.first, let last = runs.last else { return [] }
        let lo: Int = first["run"], hi: Int = last["run"]
        var values: [Int: [String: DatabaseValue]] = [:]
        for r in try Row.fetchAll(db, sql: "SELECT run, name, value FROM params WHERE run BETWEEN ? AND ?", arguments: [lo, hi]) {
          values[r["run"], default: [:]][r["name"]] = r["value"] as DatabaseValue
        }
        var metrics: [Int: [(String, DatabaseValue)]] = [:]
        for r in try Row.fetchAll(db, sql: "SELECT run, name, value FROM metrics WHERE run BETWEEN ? AND ? ORDER BY run, name",
                                  arguments: [lo, hi]) {
          metrics[r["run"], default: []].append((r["name"], r["value"] as DatabaseValue))
        }
        return runs.map { r in
          let run: Int = r["run"]
          var ms = metrics[run] ?? []
          if !order.isEmpty { ms.sort { (order.firstIndex(of: $0.0) ?? .max, $0.0) < (order.firstIndex(of: $1.0) ?? .max, $1.0) } }
          let ps = params.map { ($0, values[run]?[$0] ?? DatabaseValue.null) }
          var row = ParsedRow(run: run, params: ps.map { ($0.0, $0.1.isNull ? "" : text($0.1)) }, seed: r["seed"],
                              status: r["status"], metrics: ms.map { (name: $0.0, value: text($0.1)) }, error: r["error"])
          row.typedParams = ps.map { name, v in
            typedParam(text(v), grid: grid[name], storedAsText: !(v.storage.isNumber))
          }
          row.typedMetrics = ms.map { scalar($0.1) }
          return row
        }
      }
    }
    nextInPage = 0
    if let last = page.last { lastRun = last.run } else { finished = true }
  }

  /// Joins shards' databases into one, in run order, with the checks of the
  /// text merge: one batch, no run twice, and (unless `allowPartial`) no run
  /// missing from the grid.
  static func merge(_ parts: [String], into output: String, allowPartial: Bool, warn: (String) -> Void) throws {
    let sources = try parts.map { try SQLiteResults(path: $0) }
    guard sources.first?.header != nil else { throw BatchError("merge needs at least one part") }
    let header = try mergedHeader(sources.map { ($0.path, $0.header) }, warn: warn)!
    let metricLists = sources.compactMap(\.fixedMetrics).filter { !$0.isEmpty }
    if let first = metricLists.first, let other = metricLists.first(where: { Set($0) != Set(first) }) {
      throw varyingMetricsError(first, other)
    }
    // `output` is the merge's own new file (`ResultOutput`), empty and locked.
    let queue = try wrap(output) { try DatabaseQueue(path: output, configuration: configuration()) }
    try wrap(output) {
      try queue.write { db in
        try createTables(db, header: header)
        let metrics = metricLists.first
        if let metrics { try db.execute(sql: "UPDATE batch SET metrics = ?", arguments: [jsonArray(metrics)]) }
        try createView(db, params: header.params.map(\.name), metrics: metrics ?? [])
      }
      for part in parts {
        try queue.writeWithoutTransaction { db in
          try db.execute(sql: "ATTACH DATABASE ? AS part", arguments: [part])
          defer { try? db.execute(sql: "DETACH DATABASE part") }
          if let run = try Int.fetchOne(db, sql: "SELECT run FROM part.runs WHERE run IN (SELECT run FROM main.runs) ORDER BY run LIMIT 1") {
            throw BatchError("run \(run) is in \(part) and in an earlier part: the parts overlap")
          }
          try db.inTransaction {
            try db.execute(sql: "INSERT INTO main.runs SELECT * FROM part.runs ORDER BY run")
            try db.execute(sql: "INSERT INTO main.params SELECT * FROM part.params ORDER BY run, name")
            try db.execute(sql: "INSERT INTO main.metrics SELECT * FROM part.metrics ORDER BY run, name")
            return .commit
          }
        }
      }
      let present = try queue.read { db in try Int.fetchAll(db, sql: "SELECT run FROM runs ORDER BY run") }
      let missing = missingRuns(present, total: header.runs)
      if !missing.isEmpty && !allowPartial {
        try? queue.close()
        throw missingError(missing)
      }
      try closeCleanly(queue)
    }
  }
}

/// The runs of 0..<total not in `present` (sorted), as ranges.
func missingRuns(_ present: [Int], total: Int?) -> [ClosedRange<Int>] {
  var missing: [ClosedRange<Int>] = []
  var next = 0
  for run in present {
    if run > next { missing.append(next...(run - 1)) }
    next = run + 1
  }
  if let total, total > next { missing.append(next...(total - 1)) }
  return missing
}

/// The error for runs in no part, naming them.
func missingError(_ missing: [ClosedRange<Int>]) -> BatchError {
  let count = missing.reduce(0) { $0 + $1.count }
  let list = missing.prefix(10).map { $0.count == 1 ? "\($0.lowerBound)" : "\($0.lowerBound)–\($0.upperBound)" }
  return BatchError("\(count) run\(count == 1 ? " is" : "s are") in no part (runs \(list.joined(separator: ", "))"
                    + (missing.count > 10 ? ", …" : "") + "): a shard is missing or unfinished; "
                    + "--allow-partial merges what there is")
}
