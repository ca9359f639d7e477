import Testing
@testable import LifeSimExplain

/// An event as Sentry's web API returns it (`GET .../events/{id}/`) keeps its
/// breadcrumbs in `entries`, as `{"type": "breadcrumbs", "data": {"values": [...]}}`,
/// beside entries of other types; the SDK's own payload keeps them in
/// `breadcrumbs.values`. Both are read alike.
struct SentryAPIEventTests {
  static let crumbs = """
    {"type": "navigation", "category": "app.lifecycle", "timestamp": "2025-02-08T10:00:00.000Z", "data": {"state": "foreground"}},
    {"type": "default", "category": "http", "timestamp": "2025-02-08T10:00:01.000Z", "data": null, "message": "GET /feed"},
    {"type": "navigation", "category": "app.lifecycle", "timestamp": "2025-02-08T10:05:00.000Z", "data": {"state": "background"}}
    """

  static let payload = #"{"sdk": {"name": "sentry.cocoa", "version": "8.36.0"}, "breadcrumbs": {"values": [\#(crumbs)]}}"#
  static let api = #"""
    {"eventID": "9999aaaaca8b46d797c23c6077c6ff01", "platform": "cocoa",
     "sdk": {"name": "sentry.cocoa", "version": "8.36.0"},
     "entries": [
       {"type": "exception", "data": {"values": [{"type": "NSInvalidArgumentException"}]}},
       {"type": "breadcrumbs", "data": {"values": [\#(crumbs)]}}
     ]}
    """#

  @Test func anAPIEventsBreadcrumbsEntryIsReadAsTheSDKsPayloadIs() throws {
    #expect(try LogReader.detect(Self.api) == .sentry)
    let fromAPI = try LogReader.read(Self.api)
    let fromPayload = try LogReader.read(Self.payload)
    let names = fromAPI.events.map { fromAPI.symbols[$0.symbol].name }
    #expect(names == ["app.lifecycle foreground", "app.lifecycle background"])
    #expect(names == fromPayload.events.map { fromPayload.symbols[$0.symbol].name })
    #expect(fromAPI.events.map(\.line) == fromPayload.events.map(\.line))
    #expect(fromAPI.events.map(\.time) == fromPayload.events.map(\.time))
    #expect(fromAPI.sentryStates == .legacy && fromAPI.ignored == 1)
  }

  @Test func everyBreadcrumbsEntryIsReadInTurn() throws {
    let split = #"""
      {"entries": [
        {"type": "breadcrumbs", "data": {"values": [{"category": "app.lifecycle", "data": {"state": "foreground"}}]}},
        {"type": "message", "data": {"formatted": "x"}},
        {"type": "breadcrumbs", "data": {"values": [{"category": "app.lifecycle", "data": {"state": "background"}}]}}
      ]}
      """#
    let log = try LogReader.read(split)
    #expect(log.events.map { log.symbols[$0.symbol].name } == ["app.lifecycle foreground", "app.lifecycle background"])
  }

  @Test func aListOfEventsIsRefusedWithWhatToGive() {
    #expect {
      try LogReader.read("[\(Self.api), \(Self.payload)]")
    } throws: { error in
      "\(error)" == "a list of 2 Sentry events, not of breadcrumbs: explain reads the breadcrumbs of one event; give it one event"
    }
  }

  @Test func anAPIEventWithoutABreadcrumbsEntryIsNoLog() {
    let none = #"{"entries": [{"type": "exception", "data": {"values": []}}]}"#
    #expect(throws: LogReadError.self) { try LogReader.read(none) }
  }
}
