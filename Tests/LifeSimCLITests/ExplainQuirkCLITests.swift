import Foundation
import LifeSimEngine
import Testing

/// `lifesim explain --quirk NAME`: the device explain simulates has the
/// quirk; without one, a log the model does not explain is tried with each
/// quirk alone, and standard error says which explain it.
struct ExplainQuirkCLITests {
  /// A background fetch's launch that gets applicationDidEnterBackground:
  /// (Apple's article, reference §8.1), then the user opens the app.
  static let log = """
    application:didFinishLaunchingWithOptions:
    applicationDidEnterBackground:
    application:performFetchWithCompletionHandler:
    applicationWillEnterForeground:
    applicationDidBecomeActive:

    """

  static func logPath() throws -> String {
    let path = tempPath("explain-quirk.log")
    try log.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  @Test func theQuirkGivenExplainsTheLogAndTheScriptReplaysIt() throws {
    let script = tempPath("explain-quirk.lua")
    try? FileManager.default.removeItem(atPath: script)
    let r = try lifesim(["explain", try Self.logPath(), "--quirk", "background_launch_enters_background", "-o", script])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("1. background_fetch com.example.app"), "\(r.stdout)")
    #expect(r.stdout.hasPrefix("5 lifecycle lines (text), 0 ignored; iOS 17, an app without scenes, quirk background_launch_enters_background\n"),
            "\(r.stdout)")
    let text = try String(contentsOfFile: script, encoding: .utf8)
    #expect(text.contains("quirks = { background_launch_enters_background = true }"), "\(text)")
    let run = try lifesim(["run", script])
    #expect(run.status == 0, "\(run.stderr)")
  }

  @Test func withoutTheQuirkStandardErrorSaysWhichQuirkExplainsIt() throws {
    let r = try lifesim(["explain", try Self.logPath()])
    #expect(r.status == 1, "\(r.stderr)")
    #expect(r.stderr.contains("lifesim explain: with --quirk background_launch_enters_background the log is explained: "
                              + "a documented variant of iOS, not lifesim's default (docs/reference.md §8.1: "), "\(r.stderr)")
    #expect(!r.stderr.contains("--quirk prewarm_skips_launch_methods the log"), "\(r.stderr)")
  }

  @Test func aLogNothingExplainsSaysWhatWasTriedAndWhatIsNotModelled() throws {
    let path = tempPath("explain-nothing.log")
    try """
      applicationDidBecomeActive:
      applicationDidBecomeActive:
      applicationWillTerminate:
      applicationDidEnterBackground:

      """.write(toFile: path, atomically: true, encoding: .utf8)
    let r = try lifesim(["explain", path])
    #expect(r.status == 1)
    #expect(r.stdout.contains("first line no sequence reaches: line 3: applicationWillTerminate:"), "\(r.stdout)")
    for note in ["nor is it explained with the app's own code in a step (passing its memory limit, blocking past its watchdog, beginning a background task, working while what the system tells it waits)",
                 "nor with any one quirk (tried background_launch_enters_background, prewarm_skips_launch_methods)",
                 "what explain does not model may be why: "] {
      #expect(r.stderr.contains("lifesim explain: " + note), "\(r.stderr)")
    }
  }

  @Test func anUnknownQuirkIsRefusedWithTheKnownNames() throws {
    let r = try lifesim(["explain", try Self.logPath(), "--quirk", "background_launch"])
    #expect(r.status == 2)
    #expect(r.stderr.contains("unknown quirk 'background_launch'; known quirks: "
                              + Quirk.allCases.map(\.description).joined(separator: ", ")), "\(r.stderr)")
  }

  @Test func quirksAreRepeatable() throws {
    let script = tempPath("explain-quirks.lua")
    try? FileManager.default.removeItem(atPath: script)
    let r = try lifesim(["explain", try Self.logPath(), "--quirk", "background_launch_enters_background",
                         "--quirk", "prewarm_skips_launch_methods", "-o", script])
    #expect(r.status == 0, "\(r.stderr)")
    let text = try String(contentsOfFile: script, encoding: .utf8)
    #expect(text.contains("quirks = { background_launch_enters_background = true, prewarm_skips_launch_methods = true }"), "\(text)")
    #expect(try lifesim(["run", script]).status == 0)
  }
}
