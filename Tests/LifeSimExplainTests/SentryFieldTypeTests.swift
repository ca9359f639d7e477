import Testing
@testable import LifeSimExplain

/// A Sentry field the answer or a note shows that is a JSON number (or any
/// other value) where a string belongs is shown as it is, and said: never
/// an empty string in silence.
struct SentryFieldTypeTests {
  static func event(sdk: String) -> String {
    #"{"sdk":\#(sdk),"breadcrumbs":{"values":[{"category":"app.lifecycle","data":{"state":"foreground"}}]}}"#
  }

  @Test func anSDKVersionThatIsANumberIsShown() throws {
    let log = try LogReader.read(Self.event(sdk: #"{"name":"sentry.cocoa","version":9}"#))
    #expect(log.sentryStates == .legacy)
    #expect(log.notes.count == 1)
    #expect(log.notes.first?.contains("and sentry.cocoa version 9, not a string: read as sentry-cocoa before 9.9.0") == true,
            "\(log.notes)")
    #expect(log.notes.first?.contains(#""""#) == false, "\(log.notes)")
  }

  @Test func anSDKNameThatIsNoStringAndAMissingVersionAreShown() throws {
    let named = try LogReader.read(Self.event(sdk: #"{"name":7,"version":"9.9.0"}"#))
    #expect(named.notes.first?.contains("and SDK name 7, not a string: read as") == true, "\(named.notes)")
    let unversioned = try LogReader.read(Self.event(sdk: #"{"name":"sentry.cocoa"}"#))
    #expect(unversioned.notes.first?.contains("and sentry.cocoa with no version: read as") == true, "\(unversioned.notes)")
  }

  @Test func aLifecycleFieldThatIsNoStringIsReadPastAndSaid() throws {
    let log = try LogReader.read("""
      [{"category":"app.lifecycle","data":{"state":"foreground"}},
       {"category":"ui.lifecycle","data":{"screen":42}},
       {"category":"ui.lifecycle","data":{"screen":true}},
       {"category":"app.lifecycle","data":{"state":1}},
       {"category":"device.event","data":{"action":null}}]
      """)
    #expect(log.events.count == 1 && log.ignored == 4)
    #expect(log.notes.contains("breadcrumb 2: ui.lifecycle data.screen is 42, not a string: read past (and 1 more breadcrumb like it)"),
            "\(log.notes)")
    #expect(log.notes.contains("breadcrumb 4: app.lifecycle data.state is 1, not a string: read past"), "\(log.notes)")
    #expect(log.notes.contains("breadcrumb 5: device.event data.action is null, not a string: read past"), "\(log.notes)")
  }
}
