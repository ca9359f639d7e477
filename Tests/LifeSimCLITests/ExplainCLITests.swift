import Foundation
import Testing

/// `lifesim explain`: the command, its exit statuses, its script and its determinism.
struct ExplainCLITests {
  static let homeLog = """
    2024-03-01 10:00:00.000 MyApp[12:34] -[AppDelegate applicationDidBecomeActive:]
    2024-03-01 10:00:00.100 MyApp[12:34] loading the feed
    2024-03-01 10:00:04.000 MyApp[12:34] -[AppDelegate applicationWillResignActive:]
    2024-03-01 10:00:04.050 MyApp[12:34] -[AppDelegate applicationDidEnterBackground:]
    2024-03-01 11:30:04.000 MyApp[99:12] -[AppDelegate application:didFinishLaunchingWithOptions:]
    2024-03-01 11:30:04.300 MyApp[99:12] -[AppDelegate applicationDidBecomeActive:]
    """

  @Test func explainsALogWithNumberedStepsAndTheLinesEachAccountsFor() throws {
    let log = try script("explain-home.log", Self.homeLog)
    let r = try lifesim(["explain", log])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.hasPrefix("5 lifecycle lines (text), 1 ignored; iOS 17, an app without scenes\n"))
    // The launch's didFinishLaunching comes before the log's first line.
    #expect(r.stdout.contains("  1. launch com.example.app: the user taps the app's icon → line 1 (after 1 record from before the log)\n"))
    #expect(r.stdout.contains("  2. advance 4: time passes: 4 s → no logged line\n"))
    #expect(r.stdout.contains("→ lines 3–4\n"))
    #expect(r.stdout.contains("  4. advance 5399.95: time passes"))
    #expect(r.stdout.contains("→ lines 5–6\n"))
  }

  @Test func theScriptItWritesPassesUnderRunAndFailsWhenAStepIsTakenOut() throws {
    let log = try script("explain-script.log", Self.homeLog)
    let out = try script("explain-script.lua", "")
    let r = try lifesim(["explain", log, "-o", out])
    #expect(r.status == 0, "\(r.stderr)")
    let run = try lifesim(["run", out])
    #expect(run.status == 0, "\(run.stderr)")
    // Without its last launch the trace no longer shows the log's last two lines.
    var text = try String(contentsOfFile: out, encoding: .utf8)
    let last = try #require(text.range(of: "dev:launch(app)", options: .backwards))
    text.replaceSubrange(last, with: "-- removed")
    let broken = try script("explain-script-broken.lua", text)
    let failed = try lifesim(["run", broken])
    #expect(failed.status == 1, "\(failed.stdout)\(failed.stderr)")
  }

  @Test func anUnexplainableLogExitsOneNamingTheLineTheModelAndThePrefixScript() throws {
    let log = try script("explain-bad.log", """
      sceneWillEnterForeground(_:)
      sceneDidBecomeActive(_:)
      sceneWillResignActive(_:)
      sceneDidEnterBackground(_:)
      sceneDidBecomeActive(_:)
      """)
    let out = try script("explain-bad.lua", "")
    let r = try lifesim(["explain", log, "-o", out])
    #expect(r.status == 1, "\(r.stderr)")
    #expect(r.stdout.contains("first line no sequence reaches: line 5: sceneDidBecomeActive(_:)"))
    #expect(r.stdout.contains("iOS 17 sends sceneWillEnterForeground: before sceneDidBecomeActive: (docs/reference.md §1.4)"))
    // The longest explained prefix, as a script that passes.
    let run = try lifesim(["run", out])
    #expect(run.status == 0, "\(run.stderr)")
  }

  @Test func aLogWithNoLifecycleLinesAnUnknownFormOrABadOptionExitsTwo() throws {
    let none = try script("explain-none.log", "hello\nworld\n")
    let r = try lifesim(["explain", none])
    #expect(r.status == 2 && r.stderr.contains("no lifecycle lines in the log"), "\(r.stderr)")
    let json = try script("explain-json.log", #"{"some": "json"}"#)
    let j = try lifesim(["explain", json])
    #expect(j.status == 2 && j.stderr.contains("unknown log format"), "\(j.stderr)")
    let forced = try lifesim(["explain", try script("explain-forced.log", Self.homeLog), "--format", "flutter"])
    #expect(forced.status == 2 && forced.stderr.contains("read as flutter"), "\(forced.stderr)")
    let badFormat = try lifesim(["explain", none, "--format", "syslog"])
    #expect(badFormat.status == 2)
    let badIOS = try lifesim(["explain", none, "--ios", "3"])
    #expect(badIOS.status == 2 && badIOS.stderr.contains("--ios 3"), "\(badIOS.stderr)")
  }

  @Test func theScriptNeverReplacesTheLog() throws {
    let log = try script("explain-self.log", Self.homeLog)
    let r = try lifesim(["explain", log, "-o", log])
    #expect(r.status == 2 && r.stderr.contains("does not write over its input"), "\(r.stderr)")
    #expect(try String(contentsOfFile: log, encoding: .utf8) == Self.homeLog)
  }

  @Test func theSameLogGivesTheSameBytes() throws {
    let log = try script("explain-same.log", "applicationDidBecomeActive:\napplicationWillResignActive:\napplicationDidEnterBackground:\n")
    let out = try script("explain-same.lua", "")
    let r1 = try lifesim(["explain", log, "-o", out])
    let first = try Data(contentsOf: URL(fileURLWithPath: out))
    let r2 = try lifesim(["explain", log, "-o", out])
    #expect(r1.status == 0 && r1.stdout == r2.stdout && r1.stderr == r2.stderr)
    #expect(r1.stdout.contains("alternative 2:"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == first)
  }
}
