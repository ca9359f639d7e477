import Foundation
import LifeSimEngine
import Testing
@testable import LifeSimExplain

/// What explain writes runs: two screens never share a class, a class name
/// fits what `app:push` takes, a timestamp that is a boolean is refused, and
/// an app with no card in the switcher is not swiped away there.
struct ExplainScriptNamesTests {
  @Test func twoScreensNeverShareAClass() {
    let names = ["X\nY", "X\\nY", "'X\\nY'", "'X\nY'", "X\\\\nY", "'plain", "plain", "a'b", "tab\there", "tab\\there"]
    let classes = names.map(LogReader.shownClass)
    #expect(Set(classes).count == names.count, "\(classes)")
    for c in classes {
      #expect(!LogReader.hasControls(c) && c.utf8.count <= nameMaxBytes, "\(c)")
    }
    // A name with nothing to escape is as logged.
    #expect(LogReader.shownClass("HomeViewController") == "HomeViewController")
    #expect(LogReader.shownClass("X\nY") == "'X\\nY'")
    #expect(LogReader.shownClass("X\\nY") == "'X\\\\nY'")
  }

  /// A class name past the limit is cut to fit, the same way every time,
  /// and two that share the bytes kept still differ.
  @Test func aLongScreenNameIsCutToFitAndStaysApart() {
    let a = String(repeating: "A", count: 5_000), b = String(repeating: "A", count: 4_999) + "B"
    let ca = LogReader.shownClass(a), cb = LogReader.shownClass(b)
    #expect(ca.utf8.count <= nameMaxBytes && cb.utf8.count <= nameMaxBytes)
    #expect(ca != cb && ca == LogReader.shownClass(a))
    #expect(ca.hasSuffix("…' (5000 bytes, #\(ca.suffix(17).prefix(16)))"), "\(ca.suffix(40))")
    // Escapes count: 2,000 newlines are 4,000 bytes escaped.
    let escaped = LogReader.shownClass(String(repeating: "\n", count: 2_100))
    #expect(escaped.utf8.count <= nameMaxBytes && escaped.contains("(2100 bytes, #"))
  }

  @Test func aLongScreenNameIsNotedWhenTheLogIsRead() throws {
    let screen = String(repeating: "S", count: 5_000)
    let log = try LogReader.read("""
      {"breadcrumbs": {"values": [{"category": "app.lifecycle", "data": {"state": "foreground"}},
       {"category": "ui.lifecycle", "data": {"screen": "\(screen)"}}]}}
      """)
    #expect(log.screens == [screen])
    let note = try #require(log.notes.first { $0.contains("longer than a script's may be (4096 bytes)") }, "\(log.notes)")
    #expect(note.hasPrefix("breadcrumb 2: ") && !note.contains(screen), "\(note.prefix(300))")
    #expect(!log.events[1].text.contains(screen))
  }

  @Test(arguments: ["true", "false"])
  func aBooleanTimestampIsRefused(value: String) {
    let text = """
      {"breadcrumbs": {"values": [{"category": "app.lifecycle", "data": {"state": "foreground"}, "timestamp": \(value)},
       {"category": "app.lifecycle", "data": {"state": "background"}, "timestamp": \(value)}]}}
      """
    #expect {
      _ = try LogReader.read(text)
    } throws: { e in
      "\(e)".contains("breadcrumb 1: timestamp \(value) is not a time")
    }
  }

  @Test func numericTimestampsAreStillTimes() throws {
    let log = try LogReader.read("""
      {"breadcrumbs": {"values": [{"category": "app.lifecycle", "data": {"state": "foreground"}, "timestamp": 1},
       {"category": "app.lifecycle", "data": {"state": "background"}, "timestamp": 1.5}]}}
      """)
    #expect(log.events.map(\.time) == [1_000_000, 1_500_000])
  }

  /// A prewarmed app, or one an App Intent ran in the background, has no
  /// card in the switcher until the user opens it; swiped away, it has none.
  @Test func theSwitcherKillIsOfferedOnlyForAnAppWithACard() throws {
    let log = try LogReader.read("applicationDidBecomeActive:\napplicationWillResignActive:\n")
    let search = try ExplainSearch(log: log, options: ExplainOptions())
    let dev = search.device, app = search.app
    #expect(!search.applies(ExplainStep(.kill)), "an app never opened")
    try dev.prewarm(app)
    #expect(dev[app].state.isRunning && !search.applies(ExplainStep(.kill)), "a prewarmed app")
    try dev.launch(app)
    #expect(search.applies(ExplainStep(.kill)), "opened by the user")
    try dev.forceQuit(app)
    #expect(!search.applies(ExplainStep(.kill)), "swiped away")
    let other = try ExplainSearch(log: log, options: ExplainOptions())
    try other.device.runIntent(other.app, name: "Sync", opensApp: false)
    #expect(other.device[other.app].state.isRunning && !other.applies(ExplainStep(.kill)), "an intent run in the background")
  }
}
