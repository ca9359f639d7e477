import LifeSimEngine
import Testing
@testable import LifeSimExplain

/// A search that a bound stopped is never reported as one that tried every
/// sequence: the wider search, each quirk tried alone, and the alternatives
/// of an answer say when `--max-states` cut them, and name the flag.
struct ExplainBoundsNamedTests {
  static func answer(_ log: String, maxStates: Int, alternatives: Int = 0) throws -> ExplainAnswer {
    var options = ExplainOptions()
    options.alternatives = alternatives
    options.maxStates = maxStates
    return try ExplainSearch.answer(log: try LogReader.read(log), options: options)
  }

  /// Three windows of a scene app: the ordinary steps cannot open a second,
  /// and the wider search, which can, needs more than 2,500 states.
  static let windows = """
    scene(_:willConnectTo:options:)
    sceneDidBecomeActive(_:)
    scene(_:willConnectTo:options:)
    sceneDidEnterBackground(_:)
    sceneDidBecomeActive(_:)
    scene(_:willConnectTo:options:)
    sceneDidEnterBackground(_:)
    sceneDidBecomeActive(_:)
    sceneDidDisconnect(_:)
    sceneDidEnterBackground(_:)
    sceneDidDisconnect(_:)
    scene(_:willConnectTo:options:)
    sceneDidBecomeActive(_:)
    """

  @Test func aWiderSearchStoppedByTheBoundSaysSoAndTriesNoQuirk() throws {
    let a = try Self.answer(Self.windows, maxStates: 2_500)
    let w = try #require(a.widened)
    #expect(w.stop == .maxStates(2_500) && a.quirksTried.isEmpty)
    let notes = ExplainReport.notes(a)
    #expect(notes.contains { $0.contains("stopped at --max-states 2500") && $0.contains("no quirk was tried")
                             && $0.hasSuffix("a larger --max-states searches further") }, "\(notes)")
    #expect(!notes.contains { $0.hasPrefix("nor is it explained") || $0.hasPrefix("what explain does not model") }, "\(notes)")
    // With room, the wider steps explain it.
    #expect(try Self.answer(Self.windows, maxStates: 5_000).result.explanations.isEmpty == false)
  }

  /// Background, then active, five times, with no foreground in between:
  /// what a background launch that enters the background sends, which one
  /// quirk explains given room, and a search cut at 9,000 states cannot tell.
  static let backgroundLaunches = "application(_:didFinishLaunchingWithOptions:)\n"
    + String(repeating: "applicationDidEnterBackground(_:)\napplicationDidBecomeActive(_:)\n", count: 5)

  @Test func aQuirkWhoseSearchTheBoundStoppedIsNotCountedAsTried() throws {
    let a = try Self.answer(Self.backgroundLaunches, maxStates: 9_000)
    #expect(a.quirksCut == [.backgroundLaunchEntersBackground] && a.quirksExplaining.isEmpty)
    let notes = ExplainReport.notes(a)
    #expect(notes.contains { $0.hasPrefix("with --quirk background_launch_enters_background the search stopped at its bound")
                             && $0.hasSuffix("a larger --max-states searches further") }, "\(notes)")
    #expect(!notes.contains { $0.contains("tried background_launch_enters_background") }, "\(notes)")
    #expect(!notes.contains { $0.hasPrefix("what explain does not model") }, "\(notes)")
  }

  @Test func alternativesCutByTheBoundAreSaid() throws {
    let log = """
      application(_:didFinishLaunchingWithOptions:)
      applicationDidBecomeActive(_:)
      applicationWillResignActive(_:)
      applicationDidEnterBackground(_:)
      """
    let cut = try Self.answer(log, maxStates: 18, alternatives: 3)
    #expect(cut.result.alternativesCutAtStates == 18)
    let text = ExplainReport(log: try LogReader.read(log), answer: cut).text
    #expect(text.contains("other explanations of the same length may be left out: the search stopped at --max-states 18 "
                          + "(a larger --max-states finds them)\n"), "\(text)")
    let all = try Self.answer(log, maxStates: 200_000, alternatives: 3)
    #expect(all.result.alternativesCutAtStates == nil && all.result.explanations.count > cut.result.explanations.count)
  }
}

/// A quirk given that can change nothing explain shows (a scene quirk for an
/// app without scenes) is said, not ignored in silence.
struct ExplainIdleQuirkTests {
  @Test func aQuirkThatCannotApplyIsSaid() throws {
    let log = try LogReader.read("applicationDidBecomeActive:\napplicationDidEnterBackground:\n")
    var options = ExplainOptions()
    options.alternatives = 0
    options.scenes = false
    options.quirks = QuirkSet([.disconnectOnBackground, .backgroundLaunchEntersBackground])
    let a = try ExplainSearch.answer(log: log, options: options)
    #expect(a.quirksIdle == [.disconnectOnBackground])
    let notes = ExplainReport.notes(a)
    #expect(notes.first?.hasPrefix("--quirk disconnect_on_background changes nothing explain can show on iOS 17 "
                                   + "for an app without scenes and this log: ") == true, "\(notes)")
    #expect(!notes.contains { $0.contains("--quirk background_launch_enters_background changes nothing") })
  }
}
