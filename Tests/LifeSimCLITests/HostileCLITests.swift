import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Command lines and result files a hostile or careless user gives: every one
/// ends with exit 0, 1 or 2 and a message, never a signal or a hang, and no
/// file is written that the user did not name for it.
/// Whether the lifesim binary was built with a sanitizer, whose shadow memory
/// no address-space limit (ulimit -v) leaves room for.
let binaryIsSanitized: Bool = {
  let r = try? runTool(["grep", "-c", "__asan_init\\|__tsan_init", binary.path])
  return (r.map { Int($0.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0 } ?? 0) > 0
}()

struct HostileCLITests {
  /// A fresh folder of its own for a test.
  static func folder(_ name: String) throws -> String {
    let dir = FileManager.default.temporaryDirectory
      .appendingPathComponent("lifesim-hostile-\(getpid())-\(name)").path
    try? FileManager.default.removeItem(atPath: dir)
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    return dir
  }

  static func write(_ path: String, _ text: String) throws {
    try text.write(toFile: path, atomically: false, encoding: .utf8)
  }

  /// `lifesim ARGS` through /bin/sh with a prefix (`ulimit -v N;`, a redirection), at most `timeout` seconds.
  static func shell(_ prefix: String, _ args: [String], suffix: String = "", timeout: Double = 60) throws -> Result {
    let quoted = ([binary.path] + args).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
    return try runTool(["/bin/sh", "-c", prefix + " exec " + quoted.joined(separator: " ") + " " + suffix],
                       in: repoRoot, timeout: timeout)
  }

  // MARK: - NaN and infinity in metrics

  /// A run that returns 0/0 and ±math.huge: the batch writes them, and its
  /// summary (and `summary`, `plot`) count them apart from the statistics.
  @Test(arguments: ["csv", "jsonl", "sqlite"])
  func nonFiniteMetricsAreCountedAndLeftOutOfMeans(format: String) throws {
    let dir = try Self.folder("nan-\(format)")
    let exp = dir + "/ratio.lua"
    try Self.write(exp, """
      return lifesim.experiment{ name = "ratio", params = { x = { 1, 2 } }, seeds = 3,
        run = function(p, seed)
          local opens = 0
          return { ratio = (seed == 1 and p.x == 1) and 0.5 or 0 / opens, big = math.huge, neg = -math.huge, ok = seed }
        end }
      """)
    let out = dir + "/r." + format
    let batch = try lifesim(["batch", exp, "-o", out])
    #expect(batch.status == 0, "\(batch.stderr)")
    #expect(batch.stdout.contains("non-finite"), "\(batch.stdout)")
    #expect(batch.stdout.contains("3 inf"), "\(batch.stdout)")
    #expect(batch.stdout.contains("3 -inf"), "\(batch.stdout)")
    #expect(batch.stdout.contains("2 nan"), "\(batch.stdout)")

    // The same again from the file: NaN and each infinity read back as themselves.
    let summary = try lifesim(["summary", out])
    #expect(summary.status == 0, "\(summary.stderr)")
    #expect(summary.stdout == batch.stdout.replacingOccurrences(of: "ratio: ", with: "\(out): "), "\(summary.stdout)")
    let csv = try lifesim(["summary", out, "--format", "csv"])
    #expect(csv.status == 0, "\(csv.stderr)")
    #expect(csv.stdout.contains("1,big,3,0,0,,,,,,,,,\n1,big,3,0,,,,,,,,,inf,3\n"), "\(csv.stdout)")
    // x = 1: one finite ratio (0.5) and two NaN.
    #expect(csv.stdout.contains("1,ratio,3,0,1,0.5,0,,,,0.5,0.5,,\n1,ratio,3,0,,,,,,,,,nan,2\n"), "\(csv.stdout)")
    let json = try lifesim(["summary", out, "--format", "json"])
    #expect(json.status == 0, "\(json.stderr)")
    #expect(json.stdout.contains(#""big":{"n":0,"mean":null,"sd":null,"ci95":null,"ci_method":null,"p50":null,"p95":null,"nan":0,"inf":3,"-inf":0}"#),
            "\(json.stdout)")
    #expect((try? JSONSerialization.jsonObject(with: Data(json.stdout.utf8))) != nil, "\(json.stdout)")
    let md = try lifesim(["summary", out, "--format", "markdown"])
    #expect(md.status == 0 && md.stdout.contains("non-finite"), "\(md.stdout)\(md.stderr)")

    let svg = dir + "/ratio.svg"
    let plot = try lifesim(["plot", out, "--metric", "ratio", "-o", svg])
    #expect(plot.status == 0, "\(plot.stderr)")
    #expect(contents(svg).contains("5 non-finite values (nan, inf) left out"), "\(contents(svg))")
    let none = try lifesim(["plot", out, "--metric", "big", "-o", dir + "/big.svg"])
    #expect(none.status == 2, "\(none.stderr)")
    #expect(none.stderr.contains("only non-finite values"), "\(none.stderr)")
  }

  /// Result cells holding nan, inf, a number past the Double range, text,
  /// and values near the largest Double: summary and plot read them all.
  @Test func hostileCellsInAResultFile() throws {
    let dir = try Self.folder("cells")
    let file = dir + "/cells.csv"
    try Self.write(file, """
      run,x,seed,status,m,huge,error
      0,1,1,ok,1,1.7e308,
      1,1,2,ok,nan,-1.7e308,
      2,1,3,ok,3,1.7e308,
      3,2,1,ok,inf,1.7976931348623157e308,
      4,2,2,ok,1e999,1.7976931348623157e308,
      5,2,3,ok,text,-1.7976931348623157e308,

      """)
    for format in ["text", "csv", "json", "markdown"] {
      let r = try lifesim(["summary", file, "--format", format])
      #expect(r.status == 0, "\(format): \(r.stderr)")
    }
    // A column that holds a label is a column of labels ("text" among m's
    // values): counted, not averaged; plot refuses it with a message.
    let text = try lifesim(["summary", file])
    #expect(text.stdout.contains("m (labels)"), "\(text.stdout)")
    #expect(text.stdout.contains("inf: 1, 1e999: 1, text: 1"), "\(text.stdout)")
    let labels = try lifesim(["plot", file, "--metric", "m", "-o", dir + "/m.svg"])
    #expect(labels.status == 2 && labels.stderr.contains("'m'"), "\(labels.stderr)")
    let svg = dir + "/huge.svg"
    let r = try lifesim(["plot", file, "--metric", "huge", "-o", svg])
    #expect(r.status == 0, "huge: \(r.stderr)")
    let lint = try runTool(["xmllint", "--noout", svg])
    #expect(lint.status == 0, "huge: \(lint.stderr)")
  }

  // MARK: - Integer options

  @Test func countsFromTheCommandLineAreCheckedBeforeArithmetic() throws {
    let dir = try Self.folder("counts")
    let exp = dir + "/one.lua"
    try Self.write(exp, """
      return lifesim.experiment{ name = "one", params = { x = { 1, 2, 3 } }, run = function(p, seed) return { v = seed } end }
      """)
    let cases: [([String], String)] = [
      (["batch", exp, "--seeds", "9223372036854775807", "-o", dir + "/a.csv"], "--seeds must be between 1 and 1000000000"),
      (["batch", exp, "--seeds", "4611686018427387904", "-o", dir + "/a.csv"], "--seeds must be between 1 and 1000000000"),
      (["batch", exp, "--jobs", "9223372036854775807", "-o", dir + "/a.csv"], "--jobs must be between 1 and 1024"),
      (["explore", exp, "--random", "9223372036854775807"], "--random must be between 1 and 1000000000"),
      (["bench", "--repeat", "9223372036854775807"], "--repeat must be at most 1000"),
      (["bench", "--seeds", "9223372036854775807"], "--seeds 100000000"),
    ]
    for (args, message) in cases {
      let r = try lifesim(args)
      #expect(r.status == 2, "\(args): \(r.status) \(r.stderr)")
      #expect(r.stderr.contains(message), "\(args): \(r.stderr)")
    }
    // Times that no microsecond count holds.
    let trace = dir + "/t.jsonl"
    #expect(try lifesim(["run", "Scripts/tour.lua", "--format", "jsonl", "-o", trace]).status == 0)
    for args in [["--from", "nan"], ["--to", "inf"], ["--from", "1e308"]] {
      let r = try lifesim(["timeline", trace, "-o", dir + "/t.svg"] + args)
      #expect(r.status == 2, "\(args): \(r.status) \(r.stderr)")
      #expect(r.stderr.contains("must be a time between 0 and 9e12 seconds"), "\(args): \(r.stderr)")
    }
    // A Slurm array index whose offset overflows.
    let slurm = try lifesim(["batch", exp, "-o", dir + "/s.csv"],
                            env: ["SLURM_ARRAY_TASK_ID": "-9223372036854775808", "SLURM_ARRAY_TASK_MIN": "1",
                                  "SLURM_ARRAY_TASK_COUNT": "2"])
    #expect(slurm.status == 2, "\(slurm.stderr)")
    #expect(slurm.stderr.contains("out of range"), "\(slurm.stderr)")
    // The most seeds there may be, in a shard of two runs: the runs are
    // handed out without a list of the billion.
    let most = dir + "/most.csv"
    let r = try lifesim(["batch", exp, "--seeds", "1000000000", "--shard", "1/1500000000", "-o", most, "--quiet"])
    #expect(r.status == 0, "\(r.stderr)")
    let rows = contents(most).split(separator: "\n").filter { $0.first?.isNumber ?? false }
    #expect(rows.map { String($0.prefix { $0 != "," }) } == ["1", "1500000001"], "\(contents(most))")
  }

  // MARK: - Worker threads

  /// Two hundred workers asked for under a 1.5 GB address space, which
  /// their 16 MB stacks alone would pass twice over: --jobs is capped (and
  /// stderr says so), and every run is written. (Under 1 GB the capped
  /// workers' own states came near the limit: a reload of the experiment
  /// was sometimes refused its memory.)
  @Test(.enabled(if: !binaryIsSanitized, "a sanitizer reserves more address space than the limit"))
  func manyJobsUnderAnAddressSpaceLimit() throws {
    let dir = try Self.folder("jobs")
    let exp = dir + "/many.lua"
    try Self.write(exp, """
      return lifesim.experiment{ name = "many", params = { x = { 1, 2 } }, seeds = 150,
        run = function(p, seed) return { v = p.x * seed } end }
      """)
    let out = dir + "/many.csv"
    let r = try Self.shell("ulimit -v 1500000;", ["batch", exp, "-j", "200", "-o", out, "--quiet"], timeout: 120)
    #expect(r.status == 0, "\(r.status): \(r.stderr)")
    #expect(r.stderr.contains("--jobs 200 capped at"), "\(r.stderr)")
    #expect(contents(out).split(separator: "\n").count == 302, "\(contents(out).prefix(500))")
  }

  /// A worker thread the system refuses to start is reported, and the batch
  /// never waits for it: under address-space limits from too small to start
  /// any worker to enough for both, every batch ends (none hangs), and some
  /// limit shows the refusal (no worker: an error; one of two: a note, and
  /// the runs are made). Near the smallest limits Swift's own allocations may
  /// fail and end the process (memory, not threads); what is tested here is
  /// that nothing waits for a thread that does not exist.
  @Test(.enabled(if: !binaryIsSanitized, "a sanitizer reserves more address space than any limit here"))
  func aRefusedWorkerThreadIsNotWaitedFor() throws {
    let dir = try Self.folder("refused")
    let exp = dir + "/tiny.lua"
    try Self.write(exp, """
      return lifesim.experiment{ name = "tiny", params = { x = { 1, 2 } }, seeds = 4,
        run = function(p, seed) return { v = p.x * seed } end }
      """)
    var refusals: [String] = []
    for kilobytes in stride(from: 80_000, through: 160_000, by: 5_000) {
      // Without the runtime's crash backtracer: a process that runs out of
      // address space while it reports a crash can hang in it, which would
      // read as the batch waiting for a thread.
      let r = try Self.shell("ulimit -v \(kilobytes); SWIFT_BACKTRACE=enable=no",
                             ["batch", exp, "-j", "2", "-o", dir + "/t\(kilobytes).csv", "--quiet"], timeout: 30)
      #expect(!r.stderr.contains("[runTool: killed after"), "\(kilobytes) kB: the batch hung")
      if r.stderr.contains("cannot start a worker thread") {
        #expect(r.status == 2, "\(kilobytes) kB: \(r.stderr)")
        refusals.append("none")
      }
      if r.stderr.contains("started 1 of 2 worker threads") {
        // The one worker runs every run, unless the little memory left fails it.
        if r.status == 0 { #expect(contents(dir + "/t\(kilobytes).csv").split(separator: "\n").count == 10, "\(kilobytes) kB") }
        refusals.append("one")
      }
    }
    #expect(!refusals.isEmpty, "no limit between 80 and 160 MB refused a worker thread")
  }

  // MARK: - Folder walks

  @Test func aLinkToTheParentFolderIsNotFollowed() throws {
    let dir = try Self.folder("walk")
    try FileManager.default.createDirectory(atPath: dir + "/sub", withIntermediateDirectories: true)
    try Self.write(dir + "/sub/a_test.lua", "assert(1 + 1 == 2)\n")
    #expect(symlink("..", dir + "/sub/up") == 0)
    #expect(symlink(".", dir + "/sub/here") == 0)
    let r = try runTool([binary.path, "test", dir], in: repoRoot, timeout: 60)
    #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
    #expect(r.stdout.hasSuffix("1 passed, 0 failed\n"), "\(r.stdout)")
    #expect(r.stderr.contains("a symbolic link to a folder"), "\(r.stderr)")
  }

  // MARK: - Output over the input

  @Test func noOutputReplacesAnInput() throws {
    let dir = try Self.folder("over")
    let source = """
      local dev = lifesim.device{ ios = 17 }
      local app = dev:install{ bundle = "com.example.a" }
      dev:launch(app)
      lifesim.test("t", function() assert(true) end)
      """
    let s = dir + "/s.lua"
    try Self.write(s, source)
    #expect(symlink(s, dir + "/link.lua") == 0)
    let cases: [[String]] = [
      ["run", s, "-o", s],
      ["run", s, "-o", dir + "/./s.lua"],
      ["run", s, "-o", dir + "/link.lua"],
      ["run", dir + "/link.lua", "--timeline", s],
      ["explore", s, "-o", s, "--depth", "1", "--quiet"],
      ["test", s, "--junit-xml", s],
      ["test", dir, "--junit-xml", dir + "/link.lua"],
    ]
    for args in cases {
      let r = try lifesim(args)
      #expect(r.status == 2, "\(args): \(r.status) \(r.stderr)")
      #expect(r.stderr.contains("lifesim does not write over its input"), "\(args): \(r.stderr)")
      #expect(contents(s) == source, "\(args) replaced the script")
    }
    // The REPL's :save, over the script the session ran.
    let repl = try Self.shell("printf ':save %s\\n' '\(dir)/./s.lua' |", ["repl", s])
    #expect(repl.stderr.contains("it is the session's script"), "\(repl.stdout)\(repl.stderr)")
    #expect(contents(s) == source, ":save replaced the script")
    // Two outputs of one command naming one file.
    let both = try lifesim(["run", s, "-o", dir + "/out.txt", "--timeline", dir + "/./out.txt"])
    #expect(both.status == 2 && both.stderr.contains("name the same file"), "\(both.stderr)")

    // The inputs of the result tools.
    let exp = dir + "/e.lua"
    try Self.write(exp, """
      return lifesim.experiment{ name = "e", params = { x = { 1, 2 } }, seeds = 2, run = function(p, seed) return { v = p.x + seed } end }
      """)
    let results = dir + "/e.csv"
    #expect(try lifesim(["batch", exp, "-o", results, "--quiet"]).status == 0)
    let saved = contents(results)
    let trace = dir + "/t.jsonl"
    #expect(try lifesim(["run", s, "--format", "jsonl", "-o", trace]).status == 0)
    let traceText = contents(trace)
    for args in [["plot", results, "--metric", "v", "-o", results],
                 ["batch", exp, "-o", results, "--plot", "v", "--plot-output", dir + "/./e.csv", "--quiet"],
                 ["timeline", trace, "-o", trace]] {
      let r = try lifesim(args)
      #expect(r.status == 2, "\(args): \(r.status) \(r.stderr)")
      #expect(r.stderr.contains("lifesim does not write over its input") || r.stderr.contains("name the same file"),
              "\(args): \(r.stderr)")
    }
    #expect(contents(results) == saved)
    #expect(contents(trace) == traceText)
  }

  // MARK: - Failed writes

  @Test func aFailedWriteIsAnError() throws {
    let dir = try Self.folder("full")
    let t = dir + "/t_test.lua"
    try Self.write(t, "lifesim.test(\"t\", function() assert(true) end)\n")
    let s = dir + "/s.lua"
    try Self.write(s, "local dev = lifesim.device{ ios = 17 }\ndev:launch(dev:install{ bundle = \"com.example.a\" })\n")
    let full = dir + "/full.csv"
    #expect(symlink("/dev/full", full) == 0)
    let exp = dir + "/e.lua"
    try Self.write(exp, """
      return lifesim.experiment{ name = "e", params = { x = { 1, 2 } }, seeds = 2, run = function(p, seed) return { v = p.x + seed } end }
      """)
    let cases: [[String]] = [
      ["test", t, "--junit-xml", "/dev/full"],
      ["diagram", "-o", "/dev/full"],
      ["explore", "Scripts/explore/forgotten_task.lua", "--depth", "5", "--quiet", "-o", "/dev/full"],
      ["batch", exp, "-o", full, "--quiet", "--force"],  // full.csv exists: a link to /dev/full
      ["run", s, "--stream", "-o", "/dev/full"],
      ["run", s, "-o", "/dev/full"],
      ["run", s, "--timeline", "/dev/full"],
    ]
    for args in cases {
      let r = try lifesim(args)
      #expect(r.status == 2, "\(args): \(r.status) \(r.stderr)")
      #expect(r.stderr.contains("No space left on device"), "\(args): \(r.stderr)")
      #expect(!r.stderr.contains("wrote /dev/full"), "\(args): \(r.stderr)")
    }
    // Standard output that cannot be written.
    let r = try Self.shell("", ["diagram"], suffix: "> /dev/full")
    #expect(r.status == 2, "\(r.status) \(r.stderr)")
    #expect(r.stderr.contains("cannot write standard output"), "\(r.stderr)")
  }

  // MARK: - NUL bytes in output

  @Test func nulBytesDoNotCutOutput() throws {
    let dir = try Self.folder("nul")
    let exp = dir + "/nul.lua"
    // A NUL in a name a result file keeps is refused (NameRefusalTests); in
    // the experiment's name, which the summary prints, it is shown.
    try Self.write(exp, #"""
      return lifesim.experiment{ name = "n\0l", params = { x = { 1, 2 } }, seeds = 2,
        run = function(p, seed) return { m = seed, zzz = p.x } end }
      """#)
    let out = dir + "/nul.csv"
    let batch = try lifesim(["batch", exp, "-o", out])
    #expect(batch.status == 0, "\(batch.stderr)")
    #expect(batch.stdout.contains("n\\0l"), "\(batch.stdout)")
    #expect(batch.stdout.contains("\nzzz\n"), "every table after the NUL is printed: \(batch.stdout)")
    let failing = dir + "/fails.lua"
    try Self.write(failing, #"error("before\0after")"#)
    let r = try lifesim(["run", failing])
    #expect(r.status == 2)
    #expect(r.stderr.contains("before\\0after"), "\(r.stderr)")
    let test = try lifesim(["test", failing])
    #expect(test.stdout.contains("before\\0after"), "\(test.stdout)")
  }

  // MARK: - Characters XML forbids

  @Test func junitAndSVGStayWellFormed() throws {
    let dir = try Self.folder("xml")
    let t = dir + "/x_test.lua"
    try Self.write(t, #"""
      lifesim.test("name \u{FFFE} and \u{FFFF} and \x01", function() error("message \u{FFFF}\x0b end") end)
      lifesim.test("fine \u{FFFE}", function() assert(true) end)
      """#)
    let xml = dir + "/report.xml"
    let r = try lifesim(["test", t, "--junit-xml", xml])
    #expect(r.status == 2, "\(r.stdout)\(r.stderr)")
    let lint = try runTool(["xmllint", "--noout", xml])
    #expect(lint.status == 0, "xmllint: \(lint.stderr)\n\(contents(xml))")

    let exp = dir + "/e.lua"
    try Self.write(exp, #"""
      return lifesim.experiment{ name = "e", params = { x = { 1, 2 }, mode = { "a\u{FFFE}", "b\u{FFFF}" } }, seeds = 2,
        run = function(p, seed) return { ["v\u{FFFF}"] = p.x + seed } end }
      """#)
    let results = dir + "/e.csv"
    #expect(try lifesim(["batch", exp, "-o", results, "--quiet"]).status == 0)
    let svg = dir + "/e.svg"
    let plot = try lifesim(["plot", results, "--metric", "v\u{FFFF}", "-o", svg, "--title", "t\u{FFFE}"])
    #expect(plot.status == 0, "\(plot.stderr)")
    let lintSVG = try runTool(["xmllint", "--noout", svg])
    #expect(lintSVG.status == 0, "xmllint: \(lintSVG.stderr)")
  }
}
