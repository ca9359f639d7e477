import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// No result lost, none trusted that cannot be: batch -o refuses to replace
/// a file (or a directory) unless told, a stopped batch says how to go on,
/// --resume locks its file and refuses rows lifesim did not write, names
/// that would break a result file are refused before any run, and SQLite
/// files are closed cleanly with integers kept as integers.
struct ResultSafetyTests {
  /// A fresh folder of this test process for one test's files.
  static func folder(_ name: String) throws -> String {
    let path = tempPath("safety-\(name)")
    try? FileManager.default.removeItem(atPath: path)
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  static let quick = """
    return lifesim.experiment{
      name = "quick", params = { memory_mb = { 1500, 3000 } }, seeds = 3, metrics = { "zeta", "alpha" },
      run = function(p, seed)
        local dev = lifesim.device{ memory_mb = p.memory_mb, trace = false }
        dev:launch(dev:install{ bundle = "a" })
        return { zeta = seed * 2, alpha = p.memory_mb / 7 }
      end,
    }
    """

  /// An experiment whose runs take a while (about 20 ms each), to stop mid-batch.
  static let slow = """
    return lifesim.experiment{
      name = "slowish",
      params = { memory_mb = { 300, 500, 700, 900 } },
      seeds = 40,
      run = function(p, seed)
        local dev = lifesim.device{ memory_mb = p.memory_mb, trace = false }
        for k = 1, 8 do dev:install{ bundle = "app" .. k, footprint_mb = 40 * k } end
        lifesim.workload.user{ switch_every = 30 }:drive(dev, { hours = 3 })
        return { cold = dev.stats.cold_opens, kills = dev.stats.jetsam_kills }
      end,
    }
    """

  @Test(arguments: ["csv", "jsonl", "sqlite"])
  func anExistingFileIsReplacedOnlyWithForceAndADirectoryNever(format: String) throws {
    let dir = try Self.folder("existing-\(format)")
    let exp = try script("quick_existing_\(format).lua", Self.quick)
    let out = dir + "/yesterday.\(format)"
    try "yesterday's 2,400 runs\n".write(toFile: out, atomically: true, encoding: .utf8)
    let r = try lifesim(["batch", exp, "-o", out, "--quiet"])
    #expect(r.status == 2, "\(r.stderr)")
    #expect(r.stderr.contains("\(out) already exists: lifesim batch does not overwrite a file; --resume continues it"), "\(r.stderr)")
    #expect(r.stderr.contains("--force replaces it"), "\(r.stderr)")
    #expect(contents(out) == "yesterday's 2,400 runs\n")
    let f = try lifesim(["batch", exp, "-o", out, "--force", "--quiet"])
    #expect(f.status == 0, "\(f.stderr)")
    #expect(contents(out) != "yesterday's 2,400 runs\n")
    #expect(try lifesim(["summary", out]).stdout.contains("6 runs at 2 points"))

    // A directory named like a result file is never written into or removed, even with --force.
    let folder = dir + "/results.\(format)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try "keep me\n".write(toFile: folder + "/notes.txt", atomically: true, encoding: .utf8)
    for extra in [[], ["--force"]] {
      let d = try lifesim(["batch", exp, "-o", folder, "--quiet"] + extra)
      #expect(d.status == 2, "\(extra): \(d.stderr)")
      #expect(d.stderr.contains("\(folder) is a directory"), "\(d.stderr)")
      #expect(contents(folder + "/notes.txt") == "keep me\n", "the directory and its files stay")
    }
  }

  /// Beside an SQLite database, -wal and -shm are removed only with the
  /// database they belong to, and never when they are not regular files.
  @Test func filesBesideADatabaseAreRemovedOnlyWithIt() throws {
    let dir = try Self.folder("beside")
    let exp = try script("quick_beside.lua", Self.quick)
    let db = dir + "/new.sqlite"
    try "not lifesim's\n".write(toFile: db + "-wal", atomically: true, encoding: .utf8)
    let r = try lifesim(["batch", exp, "-o", db, "--quiet"])
    #expect(r.status == 2, "\(r.stderr)")
    #expect(r.stderr.contains("\(db)-wal exists beside \(db)"), "\(r.stderr)")
    #expect(contents(db + "-wal") == "not lifesim's\n")
    unlink(db + "-wal")
    try FileManager.default.createDirectory(atPath: db + "-shm", withIntermediateDirectories: true)
    try "keep me\n".write(toFile: db + "-shm/notes.txt", atomically: true, encoding: .utf8)
    let d = try lifesim(["batch", exp, "-o", db, "--force", "--quiet"])
    #expect(d.status == 2, "\(d.stderr)")
    #expect(d.stderr.contains("is not a regular file"), "\(d.stderr)")
    #expect(contents(db + "-shm/notes.txt") == "keep me\n")
  }

  /// Waits until `path` holds at least `rows` lines (or, for SQLite, exists
  /// for half a second), at most 20 s.
  static func waitForRows(_ path: String, _ rows: Int) {
    for _ in 0..<2000 {
      if path.hasSuffix(".sqlite") {
        if FileManager.default.fileExists(atPath: path) { usleep(500_000); return }
      } else if contents(path).split(separator: "\n").count >= rows {
        return
      }
      usleep(10_000)
    }
  }

  /// Ctrl-C (or SIGTERM) stops a batch between runs: it says how many runs
  /// are kept and the command that continues, exits 130 (143), and that
  /// command finishes the file as an uninterrupted batch writes it. While it
  /// runs, a second batch on the same file (a --resume) is refused.
  @Test(arguments: [("csv", SIGINT), ("jsonl", SIGTERM), ("sqlite", SIGINT)])
  func aStoppedBatchSaysHowToResumeAndHoldsItsLock(format: String, signal: Int32) throws {
    let dir = try Self.folder("stop-\(format)")
    let exp = try script("slowish_\(format).lua", Self.slow)
    let whole = dir + "/whole.\(format)", stopped = dir + "/stopped.\(format)"
    let w = try lifesim(["batch", exp, "-o", whole, "--quiet"])
    #expect(w.status == 0, "\(w.stderr)")

    let p = Process()
    p.executableURL = binary
    p.arguments = ["batch", exp, "-o", stopped, "--jobs", "2", "--quiet"]
    p.currentDirectoryURL = repoRoot
    let errPath = dir + "/stderr.txt"
    _ = FileManager.default.createFile(atPath: errPath, contents: nil)
    p.standardOutput = FileHandle.nullDevice
    p.standardError = FileHandle(forWritingAtPath: errPath)
    try p.run()
    Self.waitForRows(stopped, 12)
    let second = try lifesim(["batch", exp, "-o", stopped, "--resume", "--quiet"])
    #expect(second.status == 2, "\(second.stderr)")
    #expect(second.stderr.contains("\(stopped) is in use: another lifesim batch is writing it"), "\(second.stderr)")
    kill(p.processIdentifier, signal)
    p.waitUntilExit()
    let said = contents(errPath)
    #expect(p.terminationReason == .exit && p.terminationStatus == 128 + signal, "\(p.terminationReason) \(p.terminationStatus): \(said)")
    let name = signal == SIGINT ? "SIGINT" : "SIGTERM"
    #expect(said.contains("lifesim: stopped by \(name): "), "\(said)")
    #expect(said.contains("runs are kept in \(stopped); this continues the batch: "), "\(said)")
    guard let range = said.range(of: "this continues the batch: ") else { return }
    let command = String(said[range.upperBound...].prefix { $0 != "\n" })
    #expect(command.hasSuffix("--resume"), "\(command)")
    if let kept = said.range(of: #"(\d+) runs are kept"#, options: .regularExpression) {
      let n = Int(said[kept].split(separator: " ")[0]) ?? -1
      #expect(n > 0 && n < 160, "stopped mid-batch: \(n) runs")
    }
    if format == "sqlite" {
      #expect(!FileManager.default.fileExists(atPath: stopped + "-wal") && !FileManager.default.fileExists(atPath: stopped + "-shm"))
    }
    let r = try runTool(["sh", "-c", command], in: repoRoot)
    #expect(r.status == 0, "\(command): \(r.stderr)")
    if format == "sqlite" {
      let a = try lifesim(["summary", whole, "--format", "json"]), b = try lifesim(["summary", stopped, "--format", "json"])
      #expect(a.stdout == b.stdout && a.stdout.contains("\"runs\":160"), "\(a.stdout)")
    } else {
      #expect(contents(stopped) == contents(whole))
    }
  }

  /// --resume keeps only rows lifesim could have written, and names the line
  /// of the first it cannot trust.
  @Test func resumeRefusesRowsItCannotTrust() throws {
    let dir = try Self.folder("trust")
    let exp = try script("quick_trust.lua", Self.quick)
    // A database's rows (its bytes change when SQLite opens it).
    func rows(_ path: String) throws -> String {
      guard path.hasSuffix(".sqlite") else { return contents(path) }
      let dump = "import sqlite3, sys; print(list(sqlite3.connect(sys.argv[1]).execute('SELECT * FROM results')))"
      return try runTool(["python3", "-c", dump, path]).stdout
    }
    func refused(_ path: String, _ text: String) throws {
      let before = try rows(path)
      let r = try lifesim(["batch", exp, "-o", path, "--resume", "--quiet"])
      #expect(r.status == 2, "\(path): \(r.stderr)")
      #expect(r.stderr.contains(text), "\(path): \(r.stderr)")
      #expect(try rows(path) == before && before.count > 100, "a refused resume leaves the rows as they were")
    }
    let csv = dir + "/trust.csv"
    #expect(try lifesim(["batch", exp, "-o", csv, "--shard", "0/1", "--quiet"]).status == 0)
    let good = contents(csv)
    var lines = good.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    // Line 4 is run 1 (after the header and column lines).
    lines[3] = lines[3].replacingOccurrences(of: ",ok,", with: ",maybe,")
    try lines.joined(separator: "\n").write(toFile: csv, atomically: true, encoding: .utf8)
    try refused(csv, "\(csv) line 4: run 1 has the status 'maybe', neither ok nor error; lifesim did not write this row")

    var twice = good.split(separator: "\n").map(String.init)
    twice.insert(twice[3], at: 4)
    try (twice.joined(separator: "\n") + "\n").write(toFile: csv, atomically: true, encoding: .utf8)
    try refused(csv, "\(csv) line 5: run 1 is in the file twice")

    let jsonl = dir + "/trust.jsonl"
    #expect(try lifesim(["batch", exp, "-o", jsonl, "--quiet"]).status == 0)
    var rows = contents(jsonl).split(separator: "\n").map(String.init)
    rows[2] = rows[2].replacingOccurrences(of: "{\"run\":1,", with: "{\"run\":1,\"weight\":2,")
    try (rows.joined(separator: "\n") + "\n").write(toFile: jsonl, atomically: true, encoding: .utf8)
    try refused(jsonl, "\(jsonl) line 3: the row has the field 'weight', which lifesim does not write")
    rows = contents(jsonl).split(separator: "\n").map(String.init)
    rows[2] = rows[2].replacingOccurrences(of: "\"weight\":2,", with: "").replacingOccurrences(of: "\"alpha\":", with: "\"beta\":")
    try (rows.joined(separator: "\n") + "\n").write(toFile: jsonl, atomically: true, encoding: .utf8)
    try refused(jsonl, "\(jsonl) line 3: run 1 has the metric 'beta', not one of 'zeta', 'alpha'")

    let db = dir + "/trust.sqlite"
    #expect(try lifesim(["batch", exp, "-o", db, "--quiet"]).status == 0)
    let edit = try runTool(["python3", "-c", "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute(\"UPDATE runs SET status = 'done' WHERE run = 2\"); c.commit()", db])
    #expect(edit.status == 0, "\(edit.stderr)")
    try refused(db, "\(db), run 2: run 2 has the status 'done', neither ok nor error")
  }

  /// A name that would break the file, or read back as another column, is
  /// refused before any run, naming the experiment's file and line; a run that returns
  /// one fails, and the file stays readable.
  @Test func namesThatWouldBreakTheFileAreRefused() throws {
    let dir = try Self.folder("names")
    for (name, params, metrics, expected) in [
      ("newline_param", "{ [\"a\\nb\"] = { 1, 2 } }", "nil", "the parameter 'a\\nb' holds a control character"),
      ("status_metric", "{ x = { 1, 2 } }", "{ \"status\" }", "the metric 'status' is the name of a column every result file has"),
      ("tab_metric", "{ x = { 1, 2 } }", "{ \"a\\tb\" }", "the metric 'a\\tb' holds a control character"),
    ] {
      let exp = try script("names_\(name).lua", """
        return lifesim.experiment{ name = "\(name)", params = \(params), metrics = \(metrics), seeds = 1,
          run = function(p, seed) return { m = 1 } end }
        """)
      let out = dir + "/\(name).csv"
      let r = try lifesim(["batch", exp, "-o", out, "--quiet"])
      #expect(r.status == 2, "\(name): \(r.stderr)")
      #expect(r.stderr.contains("lifesim: \(exp):1: \(expected)"), "\(name): \(r.stderr)")
      #expect(!FileManager.default.fileExists(atPath: out), "refused before the file is written")
    }
    let returned = try script("names_returned.lua", """
      return lifesim.experiment{ name = "returned", params = { x = { 1, 2 } }, seeds = 1,
        run = function(p, seed) if p.x == 2 then return { ["bad\\nname"] = 1 } end return { m = 1 } end }
      """)
    for format in ["csv", "jsonl", "sqlite"] {
      let out = dir + "/returned.\(format)"
      let r = try lifesim(["batch", returned, "-o", out, "--quiet"])
      #expect(r.status == 1, "\(format): \(r.stderr)")
      #expect(r.stderr.contains("run returned the metric 'bad\\nname', which holds a control character"), "\(format): \(r.stderr)")
      let s = try lifesim(["summary", out])
      #expect(s.status == 0 && s.stdout.contains("2 runs at 2 points, 1 failed"), "\(format): \(s.stdout)\(s.stderr)")
    }
  }

  /// Metric names that vary by run: a table (CSV, SQLite) refuses them the
  /// same way whether the batch is sharded or not; JSONL keeps them both ways.
  @Test func metricNamesThatVaryAreTreatedAlikeShardedOrNot() throws {
    let dir = try Self.folder("varying")
    let exp = try script("varying.lua", """
      return lifesim.experiment{ name = "varying", seeds = 4,
        run = function(p, seed) if seed % 2 == 0 then return { even = seed } end return { odd = seed } end }
      """)
    let message = "runs return different metrics ('even' / 'odd'): a .csv or .sqlite result has one column per metric"
    for format in ["csv", "sqlite"] {
      let whole = try lifesim(["batch", exp, "-o", dir + "/whole.\(format)", "--quiet"])
      #expect(whole.status == 2, "\(format): \(whole.stderr)")
      #expect(whole.stderr.contains(message), "\(format): \(whole.stderr)")
      let parts = (0..<2).map { dir + "/part\($0).\(format)" }
      for (i, part) in parts.enumerated() {
        let s = try lifesim(["batch", exp, "--shard", "\(i)/2", "-o", part, "--quiet"])
        #expect(s.status == 0, "each shard's runs agree among themselves: \(s.stderr)")
      }
      let m = try lifesim(["merge"] + parts + ["-o", dir + "/merged.\(format)"])
      #expect(m.status == 2, "\(format): \(m.stderr)")
      let said = { (s: String) in s.split(separator: "\n").first { $0.contains("different metrics") }.map(String.init) ?? "" }
      #expect(said(m.stderr) == said(whole.stderr), "the same message: \(m.stderr) / \(whole.stderr)")
    }
    let whole = dir + "/whole.jsonl"
    #expect(try lifesim(["batch", exp, "-o", whole, "--quiet"]).status == 0)
    let parts = (0..<2).map { dir + "/part\($0).jsonl" }
    for (i, part) in parts.enumerated() { _ = try lifesim(["batch", exp, "--shard", "\(i)/2", "-o", part, "--quiet"]) }
    #expect(try lifesim(["merge"] + parts + ["-o", dir + "/merged.jsonl"]).status == 0)
    #expect(contents(dir + "/merged.jsonl") == contents(whole))
  }

  /// An SQLite result leaves nothing beside it once lifesim has exited (also
  /// after a reader opened it), keeps whole numbers as INTEGER, and its
  /// `results` view has the CSV's columns in the CSV's order.
  @Test func sqliteIsClosedKeepsIntegersAndTheCSVColumns() throws {
    let dir = try Self.folder("sqlite")
    let exp = try script("quick_sqlite.lua", Self.quick)
    let db = dir + "/quick.sqlite", csv = dir + "/quick.csv"
    #expect(try lifesim(["batch", exp, "-o", db, "--quiet"]).status == 0)
    #expect(try lifesim(["batch", exp, "-o", csv, "--quiet"]).status == 0)
    #expect(try lifesim(["summary", db]).status == 0)
    let parts = (0..<2).map { dir + "/part\($0).sqlite" }
    for (i, part) in parts.enumerated() { _ = try lifesim(["batch", exp, "--shard", "\(i)/2", "-o", part, "--quiet"]) }
    let merged = dir + "/merged.sqlite"
    #expect(try lifesim(["merge"] + parts + ["-o", merged]).status == 0)
    let left = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix("-wal") || $0.hasSuffix("-shm") }
    #expect(left.isEmpty, "\(left)")
    let program = """
      import sqlite3, sys
      c = sqlite3.connect(sys.argv[1])
      print(",".join(d[0] for d in c.execute("SELECT * FROM results").description))
      print(sorted(set(r[0] for r in c.execute("SELECT typeof(value) FROM params"))))
      print(c.execute("SELECT typeof(value), value FROM metrics WHERE run = 0 AND name = 'zeta'").fetchone())
      """
    for path in [db, merged] {
      let r = try runTool(["python3", "-c", program, path])
      #expect(r.status == 0, "\(r.stderr)")
      let csvColumns = contents(csv).split(separator: "\n")[1]
      #expect(r.stdout == "\(csvColumns)\n['integer']\n('integer', 2)\n", "\(path): \(r.stdout)")
    }
    #expect(contents(csv).split(separator: "\n")[1] == "run,memory_mb,seed,status,zeta,alpha,error")
    // The rows read back as the CSV's.
    let a = try lifesim(["summary", db, "--format", "csv"]), b = try lifesim(["summary", csv, "--format", "csv"])
    #expect(a.stdout == b.stdout && !a.stdout.isEmpty, "\(a.stdout)\(a.stderr)")
  }
}
