import LifeSimEngine
import Testing
@testable import LifeSimExplain

/// Flutter 3.13+'s `hidden`: the framework's step between `inactive` and
/// `paused`, both ways, which the embedding never reports itself.
struct ExplainFlutterHiddenTests {
  @Test func theFrameworkWalksThroughEveryStateBetween() {
    let (resumed, inactive, hidden, paused, detached) = (1, 2, 3, 4, 0)
    #expect(Flutter.walk(from: resumed, to: inactive) == [inactive])
    #expect(Flutter.walk(from: inactive, to: paused) == [hidden, paused])
    #expect(Flutter.walk(from: paused, to: inactive) == [hidden, inactive])
    #expect(Flutter.walk(from: paused, to: resumed) == [hidden, inactive, resumed])
    #expect(Flutter.walk(from: resumed, to: detached) == [inactive, hidden, paused, detached])
    #expect(Flutter.walk(from: paused, to: paused) == [])
    #expect(Flutter.walk(from: -1, to: paused) == [paused])
  }

  @Test func hiddenLinesAreReadAndALogOfThemIsExplained() throws {
    // A trip to the Home Screen and back, as Flutter 3.13+ reports it.
    let log = try LogReader.read("""
      flutter: AppLifecycleState: AppLifecycleState.resumed
      flutter: AppLifecycleState: AppLifecycleState.inactive
      flutter: AppLifecycleState: AppLifecycleState.hidden
      flutter: AppLifecycleState: AppLifecycleState.paused
      flutter: AppLifecycleState: AppLifecycleState.hidden
      flutter: AppLifecycleState: AppLifecycleState.inactive
      flutter: AppLifecycleState: AppLifecycleState.resumed
      """)
    #expect(log.format == .flutter && log.events.count == 7 && log.ignored == 0)
    #expect(log.flutterWalks)
    var options = ExplainOptions()
    options.alternatives = 0
    let result = try ExplainSearch(log: log, options: options).run()
    let e = try #require(result.explanations.first)
    #expect(e.steps.map { $0.step.name(bundle: options.bundle) } == ["launch com.example.app", "home", "launch com.example.app"])
  }

  @Test func aLogWithoutHiddenIsReadAsBefore() throws {
    let log = try LogReader.read("AppLifecycleState.inactive\nAppLifecycleState.paused\n")
    #expect(!log.flutterWalks)
    var options = ExplainOptions()
    options.alternatives = 0
    #expect(try ExplainSearch(log: log, options: options).run().explanations.first != nil)
  }

  /// `paused` straight after `inactive`, in a log that shows `hidden`, is
  /// no walk of the framework: it puts `hidden` between.
  @Test func pausedWithoutHiddenBeforeItIsNotExplained() throws {
    let log = try LogReader.read("AppLifecycleState.inactive\nAppLifecycleState.paused\nAppLifecycleState.hidden\n")
    var options = ExplainOptions()
    options.alternatives = 0
    let result = try ExplainSearch(log: log, options: options).run()
    #expect(result.explanations.isEmpty && result.reached == 1)
  }
}
