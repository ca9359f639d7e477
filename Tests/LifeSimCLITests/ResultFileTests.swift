import Foundation
import Testing

/// Result files you can trust: every file names the
/// batch that wrote it, merge and --resume refuse another experiment's file,
/// SQLite holds the same rows as CSV, and summaries come as csv, json and
/// markdown with text metrics and failed points.
struct ResultFileTests {
  /// An experiment whose last point always fails, with a text metric, and
  /// parameters named like result and summary columns.
  static let clashing = """
    return lifesim.experiment{
      name = "clash", seeds = 3,
      params = { mean = { 1, 2 }, opens = { 10, 20 } },
      run = function(p, seed)
        if p.mean == 2 and p.opens == 20 then error("this point always fails") end
        local dev = lifesim.device{ ios = 17, trace = false }
        local app = dev:install{ bundle = "a" }
        for _ = 1, p.mean do dev:launch(app) dev:home() end
        return { opens = dev.stats.opens + seed / 10, parity = (seed % 2 == 0) and "even" or "odd" }
      end }
    """

  /// Runs python3 on a program; returns its standard output, or records its error.
  func python(_ program: String, _ arguments: [String]) throws -> String {
    let r = try runTool(["python3", "-c", program] + arguments)
    #expect(r.status == 0, "python3: \(r.stderr)")
    return r.stdout
  }

  /// The rows of a CSV result file and of an SQLite one's `results` view, as
  /// lists of text (numbers written the same way), read by Python's csv and
  /// sqlite3 modules: what a user's script sees.
  static let rows = """
    import csv, sqlite3, sys
    def norm(v):
        if v is None or v == "": return ""
        try:
            x = float(v)
            return repr(int(x)) if x == int(x) else repr(x)
        except ValueError:
            return str(v)
    def show(rows):
        for r in rows: print("|".join(norm(v) for v in r))
    path = sys.argv[1]
    if path.endswith(".csv"):
        with open(path, newline="") as f:
            show(list(csv.reader(line for line in f if not line.startswith("#"))))
    else:
        con = sqlite3.connect(path)
        cur = con.execute("SELECT * FROM results")
        show([[d[0] for d in cur.description]] + list(cur))
    """

  @Test func sqliteHoldsTheSameRowsAsCSVAndMergesAndResumesLikeIt() throws {
    let exp = try script("clash.lua", Self.clashing)
    let csv = tempPath("clash.csv"), db = tempPath("clash.sqlite")
    let a = try lifesim(["batch", exp, "-o", csv, "--quiet"])
    #expect(a.status == 1, "a point fails: \(a.stderr)")
    let b = try lifesim(["batch", exp, "-o", db, "--quiet"])
    #expect(b.status == 1, "\(b.stderr)")
    let fromCSV = try python(Self.rows, [csv]), fromSQLite = try python(Self.rows, [db])
    #expect(fromCSV.split(separator: "\n").count == 13)
    #expect(fromCSV.hasPrefix("run|mean|opens|seed|status|opens|parity|error\n"), "\(fromCSV)")
    // The view names the parameter that shares a metric's name apart; the rows are the same.
    #expect(fromSQLite.hasPrefix("run|mean|param:opens|seed|status|opens|parity|error\n"), "\(fromSQLite)")
    func body(_ s: String) -> String { String(s.drop { $0 != "\n" }) }
    #expect(body(fromSQLite) == body(fromCSV))

    // Shards merged into one database: the same rows again.
    let parts = (0..<3).map { tempPath("clash-part\($0).sqlite") }
    for (i, part) in parts.enumerated() { _ = try lifesim(["batch", exp, "--shard", "\(i)/3", "-o", part, "--quiet"]) }
    let merged = tempPath("clash-merged.sqlite")
    let m = try lifesim(["merge"] + parts + ["-o", merged])
    #expect(m.status == 0, "\(m.stderr)")
    #expect(try python(Self.rows, [merged]) == fromSQLite)
    let gap = try lifesim(["merge", parts[0], parts[2], "-o", tempPath("gap.sqlite")])
    #expect(gap.status == 2)
    #expect(gap.stderr.contains("4 runs are in no part (runs 1, 4, 7, 10)"), "\(gap.stderr)")
    let twice = try lifesim(["merge", parts[0], parts[0], "-o", tempPath("twice.sqlite")])
    #expect(twice.stderr.contains("the parts overlap"), "\(twice.stderr)")

    // A resumed database runs only what it lacks, and says how many it found.
    let resumed = tempPath("clash-resumed.sqlite")
    _ = try lifesim(["batch", exp, "--shard", "0/3", "-o", resumed, "--quiet"])
    let r = try lifesim(["batch", exp, "-o", resumed, "--resume"])
    #expect(r.stderr.contains("resuming: 4 runs were already done, 8 to go"), "\(r.stderr)")
    #expect(try python(Self.rows, [resumed]) == fromSQLite)

    // summary reads every format alike.
    let s1 = try lifesim(["summary", csv, "--format", "json"]), s2 = try lifesim(["summary", db, "--format", "json"])
    #expect(s1.status == 0 && s1.stdout == s2.stdout, "\(s1.stderr)\(s2.stderr)")
    let plot = try lifesim(["plot", db, "--metric", "opens", "--x", "mean", "--series", "opens", "-o", tempPath("clash.svg")])
    #expect(plot.status == 0, "\(plot.stderr)")
  }

  @Test func filesNameTheirBatchAndOtherExperimentsAreRefused() throws {
    let exp = try script("named.lua", Self.clashing)
    // Same grid and seeds, another file: another hash.
    let edited = try script("named_edited.lua", Self.clashing.replacingOccurrences(of: "seed / 10", with: "seed / 100"))
    for format in ["csv", "jsonl", "sqlite"] {
      let out = tempPath("named.\(format)")
      _ = try lifesim(["batch", exp, "--shard", "0/2", "-o", out, "--quiet"])
      let r = try lifesim(["batch", edited, "-o", out, "--resume", "--quiet"])
      #expect(r.status == 2, "\(format): \(r.stderr)")
      #expect(r.stderr.contains("was written by a different experiment"), "\(format): \(r.stderr)")
      #expect(r.stderr.contains("experiment file sha256"), "\(format): \(r.stderr)")
      let other = tempPath("named-other.\(format)")
      _ = try lifesim(["batch", edited, "--shard", "1/2", "-o", other, "--quiet"])
      let m = try lifesim(["merge", out, other, "-o", tempPath("named-merged.\(format)")])
      #expect(m.status == 2, "\(format): \(m.stderr)")
      #expect(m.stderr.contains("different experiment"), "\(format): \(m.stderr)")
    }
    // The header is the file's first line, and sha256sum agrees with it.
    let csv = tempPath("named.csv")
    let first = contents(csv).prefix { $0 != "\n" }
    let digest = try python("import hashlib, sys; print(hashlib.sha256(open(sys.argv[1], 'rb').read()).hexdigest())", [exp])
    #expect(first.hasPrefix("# lifesim {\"experiment\":\"clash\",\"sha256\":\"\(digest.trimmingCharacters(in: .whitespacesAndNewlines))\",\"lifesim\":\"0.1.0\""),
            "\(first)")
  }

  @Test func summariesAsCSVJSONAndMarkdownShowLabelsAndFailedPoints() throws {
    let exp = try script("summarised.lua", Self.clashing)
    let out = tempPath("summarised.csv")
    _ = try lifesim(["batch", exp, "-o", out, "--quiet"])
    let text = try lifesim(["summary", out]).stdout
    #expect(text.contains("12 runs at 4 points, 3 failed"))
    #expect(text.contains("parity (labels)"))
    #expect(text.contains("odd: 2, even: 1"))
    // The point whose runs all failed keeps its row, with its failures.
    #expect(text.split(separator: "\n").contains { $0.hasPrefix("2          20 ") && $0.contains(" 3 0 ") }, "\(text)")

    let csv = try lifesim(["summary", out, "--format", "csv"]).stdout
    let lines = csv.split(separator: "\n", omittingEmptySubsequences: false)
    // A parameter named like a summary column gets its own name: no clash.
    // One table (pandas reads it with one read_csv): statistics rows, then value counts.
    #expect(lines[0] == "param:mean,opens,metric,runs,failed,n,mean,sd,ci_low,ci_high,ci_method,p50,p95,value,count", "\(csv)")
    #expect(lines.contains("2,20,opens,3,3,0,,,,,,,,,"), "\(csv)")
    #expect(lines.contains("1,10,parity,3,0,,,,,,,,,odd,2"), "\(csv)")
    #expect(!lines.dropLast().contains(""), "no blank line between two tables: \(csv)")
    #expect(!text.contains("failed mean failed"), "a parameter named like a column is renamed in text too: \(text)")
    #expect(text.contains("param:mean"), "\(text)")

    let json = try lifesim(["summary", out, "--format", "json"]).stdout
    let checked = try python("""
      import json, sys
      s = json.load(sys.stdin)
      failed = [p for p in s["points"] if p["failed"] == 3][0]
      print(s["header"]["experiment"], s["runs"], s["failed"], failed["params"], failed["metrics"],
            s["points"][0]["metrics"]["parity"]["counts"], s["points"][0]["metrics"]["opens"]["n"])
      """.replacingOccurrences(of: "sys.stdin", with: "open(sys.argv[1])"), [try script("summary.json", json)])
    #expect(checked == "clash 12 3 {'mean': 2, 'opens': 20} {} {'odd': 2, 'even': 1} 3\n", "\(checked)")

    let md = try lifesim(["summary", out, "--format", "markdown"]).stdout
    #expect(md.contains("### opens"))
    #expect(md.contains("| param:mean | opens | failed | n | mean | sd | 95% CI | p50 | p95 |"), "\(md)")
    #expect(md.contains("| 2 | 20 | 3 | 0 | – | – | – | – | – |"))
    #expect(md.contains("### parity (labels)"))
  }
}
