import LifeSimEngine
import Testing
@testable import LifeSimExplain

/// When the first line no sequence reaches is of a kind no step ever sent on
/// the device chosen, the answer says so (another device may send it),
/// rather than what the model sends before it.
struct ExplainNeverSentTests {
  func explain(_ text: String, scenes: Bool? = nil) throws -> ExplainResult {
    var options = ExplainOptions()
    options.scenes = scenes
    return try ExplainSearch(log: try LogReader.read(text), options: options).run()
  }

  @Test func aSceneAppsDelegateNeverGetsDidBecomeActive() throws {
    let r = try explain("application(_:didFinishLaunchingWithOptions:)\napplicationDidBecomeActive(_:)\n", scenes: true)
    #expect(r.explanations.isEmpty)
    #expect(r.reached == 1)
    #expect(r.neverSent)
  }

  @Test func aKindSentElsewhereIsNotNeverSent() throws {
    // The enter-background notification twice: iOS 7 sends it, but not twice
    // in a row (Scripts/explain/kill_backgrounds_twice_ios7.log).
    var options = ExplainOptions()
    options.ios = 7
    let log = try LogReader.read("""
      UIApplicationDidBecomeActiveNotification
      UIApplicationWillResignActiveNotification
      UIApplicationDidEnterBackgroundNotification
      UIApplicationDidEnterBackgroundNotification
      """)
    let r = try ExplainSearch(log: log, options: options).run()
    #expect(r.explanations.isEmpty)
    #expect(r.reached == 3)
    #expect(!r.neverSent)
  }
}
