import Foundation
import Testing

/// A screen name from a log that holds a newline or another control
/// character is shown escaped on standard output and in messages, and the
/// script explain writes still runs and asserts the log's own names.
struct ExplainControlCharactersCLITests {
  static let breadcrumbs = #"""
    [{"category": "app.lifecycle", "data": {"state": "foreground"}},
     {"category": "ui.lifecycle", "data": {"screen": "Home\nView"}},
     {"category": "ui.lifecycle", "data": {"screen": "\u001b[2JDetail\u0007"}},
     {"category": "app.lifecycle", "data": {"state": "background"}}
    """#

  static func noRawControls(_ text: String) -> Bool {
    !text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || ($0.value >= 0x7F && $0.value < 0xA0) }
  }

  @Test func aScreenWithControlCharactersIsShownEscapedAndItsScriptAssertsIt() throws {
    let log = try script("explain-control-screens.json", Self.breadcrumbs + "]")
    let out = try script("explain-control-screens.lua", "")
    let r = try lifesim(["explain", log, "-o", out])
    #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
    #expect(Self.noRawControls(r.stdout + r.stderr), "\(r.stdout.debugDescription)")
    #expect(r.stdout.contains(#"push '\x1b[2JDetail\x07': the app pushes a '\x1b[2JDetail\x07' → breadcrumb 3"#), "\(r.stdout)")
    let text = try String(contentsOfFile: out, encoding: .utf8)
    // Every line of the script is a line of Lua: no name ends a comment or a string.
    #expect(Self.noRawControls(text), "\(text.debugDescription)")
    #expect(text.contains(#"root = { class = "'Home\\nView'", from = "code" }"#), "\(text)")
    #expect(text.contains(#"  "ui.lifecycle Home\nView",  -- breadcrumb 2"#), "\(text)")
    let run = try lifesim(["run", out])
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    // The assertion holds the log's names: the script fails without the push.
    let broken = try script("explain-control-screens-broken.lua",
                            text.replacingOccurrences(of: "app:push{", with: "local _ = {"))
    #expect(try lifesim(["run", broken]).status == 1)
  }
}
