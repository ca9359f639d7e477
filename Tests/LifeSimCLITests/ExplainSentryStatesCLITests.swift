import Foundation
import Testing

/// `lifesim explain --sentry-states`: what a log's `app.lifecycle` foreground
/// means, said when the log does not tell, and named by the option.
struct ExplainSentryStatesCLITests {
  static let ambiguous = """
    [{"category": "app.lifecycle", "data": {"state": "foreground"}},
     {"category": "app.lifecycle", "data": {"state": "background"}},
     {"category": "app.lifecycle", "data": {"state": "foreground"}}]
    """

  @Test func anAmbiguousLogIsReadAsTheOldSchemeWithOneLineOnStandardError() throws {
    let log = try script("sentry-ambiguous.json", Self.ambiguous)
    let guess = try lifesim(["explain", log])
    #expect(guess.status == 0, "\(guess.stdout)\(guess.stderr)")
    let notes = guess.stderr.split(separator: "\n").filter { $0.contains("--sentry-states") }
    #expect(notes == ["lifesim explain: \(log): app.lifecycle foreground with no active or inactive state and no SDK version: "
                      + "read as sentry-cocoa before 9.9.0 (foreground: did become active); --sentry-states 9.9 reads it "
                      + "as will enter foreground"], "\(guess.stderr)")
    // Named, the same answer and nothing said.
    let legacy = try lifesim(["explain", log, "--sentry-states", "legacy"])
    #expect(legacy.stdout == guess.stdout)
    #expect(!legacy.stderr.contains("sentry-cocoa"), "\(legacy.stderr)")
    // The other scheme: a launch cannot show will enter foreground, so a step comes before it.
    let new = try lifesim(["explain", log, "--sentry-states", "9.9"])
    #expect(new.status == 0, "\(new.stdout)\(new.stderr)")
    #expect(new.stdout != guess.stdout)
    #expect(new.stdout.contains("explained in 4 steps:"), "\(new.stdout)")
    #expect(!new.stderr.contains("sentry-cocoa"), "\(new.stderr)")
  }

  @Test func theNewSchemesScriptPassesUnderRun() throws {
    let log = try script("sentry-new.json", """
      {"sdk": {"name": "sentry.cocoa", "version": "9.9.0"}, "breadcrumbs": {"values": [
       {"category": "app.lifecycle", "data": {"state": "active"}},
       {"category": "app.lifecycle", "data": {"state": "inactive"}},
       {"category": "app.lifecycle", "data": {"state": "background"}},
       {"category": "app.lifecycle", "data": {"state": "foreground"}},
       {"category": "app.lifecycle", "data": {"state": "active"}}]}}
      """)
    let out = try script("sentry-new.lua", "")
    let r = try lifesim(["explain", log, "-o", out])
    #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
    #expect(r.stdout.contains("launch com.example.app: the user taps the app's icon → breadcrumbs 4–5"), "\(r.stdout)")
    let text = try String(contentsOfFile: out, encoding: .utf8)
    #expect(text.contains(#"["UIApplicationWillEnterForegroundNotification"] = "app.lifecycle foreground""#), "\(text)")
    #expect(text.contains(#"["UIApplicationDidBecomeActiveNotification"] = "app.lifecycle active""#), "\(text)")
    #expect(try lifesim(["run", out]).status == 0)
  }

  @Test func theOptionIsRefusedForALogWithoutBreadcrumbs() throws {
    let text = try script("sentry-states-text.log", "applicationDidBecomeActive:\n")
    let named = try lifesim(["explain", text, "--format", "text", "--sentry-states", "9.9"])
    #expect(named.status == 2 && named.stderr.contains("--sentry-states reads Sentry breadcrumbs; --format text has none"),
            "\(named.stderr)")
    let found = try lifesim(["explain", text, "--sentry-states", "legacy"])
    #expect(found.status == 2 && found.stderr.contains("--sentry-states reads Sentry breadcrumbs; the log was read as text"),
            "\(found.stderr)")
    let bad = try lifesim(["explain", text, "--sentry-states", "2026"])
    #expect(bad.status == 2, "\(bad.status) \(bad.stderr)")
    #expect(bad.stderr.contains("legacy") && bad.stderr.contains("9.9"), "\(bad.stderr)")
  }

  @Test func theHelpNamesTheOption() throws {
    let r = try lifesim(["explain", "--help"])
    #expect(r.stdout.contains("--sentry-states <scheme>") && r.stdout.contains("sentry-cocoa before 9.9.0"), "\(r.stdout)")
  }
}
