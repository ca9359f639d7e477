import LifeSimEngine
import Testing
@testable import LifeSimExplain

/// Sentry's `app.lifecycle` states in its two schemes: before sentry-cocoa
/// 9.9.0 `foreground` is did become active; from 9.9.0 it is will enter
/// foreground, and `active` and `inactive` name the other two.
struct SentryStatesTests {
  static func crumbs(_ states: [String], sdk: (String, String)? = nil) -> String {
    let values = states.map { #"{"type": "navigation", "category": "app.lifecycle", "data": {"state": "\#($0)"}}"# }
      .joined(separator: ",\n")
    let head = sdk.map { #""sdk": {"name": "\#($0.0)", "version": "\#($0.1)"}, "# } ?? ""
    return "{\(head)\"breadcrumbs\": {\"values\": [\n\(values)\n]}}"
  }

  static func notifications(_ log: ParsedLog) -> [LogAtom] { log.events.flatMap { log.symbols[$0.symbol].atoms } }

  /// A launch, a trip to the Home Screen and a return, as sentry-cocoa 9.9 logs them.
  static let newScheme = ["active", "inactive", "background", "foreground", "active"]

  @Test func aLogWithActiveOrInactiveIsTheNewScheme() throws {
    let log = try LogReader.read(Self.crumbs(Self.newScheme))
    #expect(log.sentryStates == .v9_9)
    #expect(log.notes.isEmpty, "\(log.notes)")
    #expect(Self.notifications(log) == [.notification(.didBecomeActive), .notification(.willResignActive),
                                        .notification(.didEnterBackground), .notification(.willEnterForeground),
                                        .notification(.didBecomeActive)])
    // One state of the pair is enough.
    let inactiveOnly = try LogReader.read(Self.crumbs(["inactive", "background", "foreground"]))
    #expect(inactiveOnly.sentryStates == .v9_9 && inactiveOnly.notes.isEmpty)
    #expect(Self.notifications(inactiveOnly).last == .notification(.willEnterForeground))
  }

  @Test func theNewSchemeIsExplainedWithWillEnterForegroundBeforeDidBecomeActive() throws {
    func explain(_ states: [String]) throws -> ExplainResult {
      let log = try LogReader.read(Self.crumbs(states))
      var options = ExplainOptions()
      options.alternatives = 0
      return try ExplainSearch(log: log, options: options).run()
    }
    let result = try explain(Self.newScheme)
    let e = try #require(result.explanations.first)
    #expect(e.steps.map { $0.step.name(bundle: "com.example.app") }
            == ["launch com.example.app", "home", "launch com.example.app"])
    // The return is one step that shows both: will enter foreground, then did become active.
    #expect(e.steps[2].events == 3..<5)
    // The other order on the return is no return UIKit makes.
    let swapped = try explain(["active", "inactive", "background", "active", "foreground"])
    #expect(swapped.explanations.isEmpty)
  }

  @Test func theOldSchemeIsReadAsBefore() throws {
    let log = try LogReader.read(Self.crumbs(["foreground", "background", "foreground"], sdk: ("sentry.cocoa", "8.36.0")))
    #expect(log.sentryStates == .legacy)
    #expect(log.notes.isEmpty, "\(log.notes)")
    #expect(log.events.map { log.symbols[$0.symbol].name }
            == ["app.lifecycle foreground", "app.lifecycle background", "app.lifecycle foreground"])
    #expect(Self.notifications(log) == [.notification(.didBecomeActive), .notification(.didEnterBackground),
                                        .notification(.didBecomeActive)])
  }

  @Test func foregroundWithNeitherActiveNorAVersionIsReadAsTheOldSchemeAndSaid() throws {
    let log = try LogReader.read(Self.crumbs(["foreground", "background"]))
    #expect(log.sentryStates == .legacy)
    #expect(Self.notifications(log).first == .notification(.didBecomeActive))
    #expect(log.notes.count == 1)
    let note = try #require(log.notes.first)
    #expect(!note.contains("\n"))
    #expect(note.contains("no SDK version") && note.contains("read as sentry-cocoa before 9.9.0")
            && note.contains("--sentry-states 9.9"), "\(note)")
    // JSON lines carry no SDK either.
    let lines = try LogReader.read(#"{"category": "app.lifecycle", "data": {"state": "foreground"}}"#)
    #expect(lines.notes.count == 1 && lines.sentryStates == .legacy)
    // A hybrid SDK names itself and gives its own version: no sentry-cocoa version to go by.
    let hybrid = try LogReader.read(Self.crumbs(["foreground"], sdk: ("sentry.cocoa.react-native", "9.9.0")))
    #expect(hybrid.sentryStates == .legacy)
    #expect(hybrid.notes.first?.contains("SDK sentry.cocoa.react-native, not sentry.cocoa") == true, "\(hybrid.notes)")
    let unread = try LogReader.read(Self.crumbs(["foreground"], sdk: ("sentry.cocoa", "next")))
    #expect(unread.notes.first?.contains(#"sentry.cocoa version "next" not read"#) == true, "\(unread.notes)")
    // Both schemes agree on background: nothing to say.
    let background = try LogReader.read(Self.crumbs(["background"]))
    #expect(background.notes.isEmpty && Self.notifications(background) == [.notification(.didEnterBackground)])
  }

  @Test func theSchemeNamedIsTheSchemeRead() throws {
    let forcedNew = try LogReader.read(Self.crumbs(["foreground", "background"]), sentryStates: .v9_9)
    #expect(forcedNew.sentryStates == .v9_9 && forcedNew.notes.isEmpty, "\(forcedNew.notes)")
    #expect(Self.notifications(forcedNew).first == .notification(.willEnterForeground))
    // Over the event's own version too.
    let overVersion = try LogReader.read(Self.crumbs(["foreground"], sdk: ("sentry.cocoa", "9.9.0")), sentryStates: .legacy)
    #expect(Self.notifications(overVersion) == [.notification(.didBecomeActive)] && overVersion.notes.isEmpty)
    // The legacy scheme has no active or inactive: read past, and said.
    let forcedOld = try LogReader.read(Self.crumbs(Self.newScheme), sentryStates: .legacy)
    #expect(forcedOld.ignored == 3)
    #expect(Self.notifications(forcedOld) == [.notification(.didEnterBackground), .notification(.didBecomeActive)])
    #expect(forcedOld.notes == ["app.lifecycle active and inactive read past: --sentry-states legacy reads "
                                + "sentry-cocoa before 9.9.0, which wrote no such state"])
  }

  @Test func theEventsSentryCocoaVersionDecides() throws {
    for (version, scheme) in [("9.9.0", SentryStates.v9_9), ("9.10.2", .v9_9), ("10.0.0-beta.1", .v9_9),
                              ("9.8.0", .legacy), ("8.36.0", .legacy), ("9.9", .v9_9)] {
      #expect(SentryStates.of(version: version) == scheme, "\(version)")
      let log = try LogReader.read(Self.crumbs(["foreground", "background"], sdk: ("sentry.cocoa", version)))
      #expect(log.sentryStates == scheme && log.notes.isEmpty, "\(version): \(log.notes)")
      #expect(Self.notifications(log).first == .notification(scheme == .legacy ? .didBecomeActive : .willEnterForeground))
    }
    for bad in ["", "9", "v9.9.0", "nine.nine"] { #expect(SentryStates.of(version: bad) == nil, "\(bad)") }
    // The states outrank the version: only the 9.9 scheme writes active.
    let log = try LogReader.read(Self.crumbs(["active", "foreground"], sdk: ("sentry.cocoa", "8.0.0")))
    #expect(log.sentryStates == .v9_9)
  }

  @Test func aLogWithoutLifecycleStatesHasNoScheme() throws {
    let log = try LogReader.read(#"[{"category": "device.event", "data": {"action": "LOW_MEMORY"}}]"#)
    #expect(log.sentryStates == nil && log.notes.isEmpty)
  }
}
