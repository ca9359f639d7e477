import LifeSimEngine
import Testing
@testable import LifeSimExplain

/// Each way a search stops without an explanation names the flag that
/// would change the outcome.
struct ExplainStopMessageTests {
  static func failure(_ text: String, _ set: (inout ExplainOptions) -> Void) throws -> (ExplainResult, String) {
    let log = try LogReader.read(text)
    var options = ExplainOptions()
    set(&options)
    let result = try ExplainSearch(log: log, options: options).run()
    return (result, ExplainReport(log: log, options: options, result: result).text)
  }

  @Test func aSearchOutOfStatesNamesTheFewestUnloggedStepsThatCouldDo() throws {
    let (result, text) = try Self.failure(ExplainSpeedTests.fiftyLines) { $0.maxStates = 40 }
    #expect(result.stop == .maxStates(40), "\(text)")
    #expect(text.contains("(a larger --max-states searches further; --max-unlogged 0, for a log that shows every step, "
                          + "searches far fewer states than --max-unlogged 3)"), "\(text)")
    let timed = ExplainSpeedTests.fiftyLines.split(separator: "\n").enumerated()
      .map { "10:00:\($0.offset < 10 ? "0" : "")\($0.offset).000 \($0.element)" }.joined(separator: "\n")
    let (_, timedText) = try Self.failure(timed) { $0.maxStates = 40 }
    #expect(timedText.contains("--max-unlogged 1, for a log that shows every step but the waits between its lines"), "\(timedText)")
    let (_, fewest) = try Self.failure(ExplainSpeedTests.fiftyLines) { $0.maxStates = 40; $0.maxUnlogged = 0 }
    #expect(fewest.contains("(a larger --max-states searches further)\n"), "\(fewest)")
  }

  @Test func noUnloggedStepOnATimedLogSaysAWaitIsOne() throws {
    let (result, text) = try Self.failure("""
      10:00:00.000 application:didFinishLaunchingWithOptions:
      10:00:00.100 applicationDidBecomeActive:
      10:00:30.000 applicationWillResignActive:
      """) { $0.maxUnlogged = 0 }
    #expect(result.stop == .maxUnlogged(0), "\(text)")
    #expect(text.contains("(a larger --max-unlogged searches further; a wait between two timed lines is such a step)"), "\(text)")
  }

  @Test func anExhaustedSearchNamesTheDeviceOptions() throws {
    let log = try LogReader.read("applicationDidBecomeActive:\n")
    var result = ExplainResult()
    result.stop = .exhausted
    let text = ExplainReport(log: log, options: ExplainOptions(), result: result).text
    #expect(text.contains("no sequence of steps explains the log on iOS 17, an app without scenes (every sequence was tried; "
                          + "--ios, --model and --scenes or --no-scenes choose another device)"), "\(text)")
  }
}
