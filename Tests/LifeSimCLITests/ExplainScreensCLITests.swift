import Foundation
import Testing

/// `lifesim explain` on Sentry breadcrumbs with `ui.lifecycle` screens: the
/// script it writes makes the screens view controllers and passes under run.
struct ExplainScreensCLITests {
  @Test func theScriptOfALogWithScreensPassesAndFailsWithoutItsPush() throws {
    let log = try script("explain-screens.json", """
      [{"category": "app.lifecycle", "data": {"state": "foreground"}},
       {"category": "ui.lifecycle", "data": {"screen": "HomeViewController"}},
       {"category": "ui.lifecycle", "data": {"screen": "DetailViewController"}},
       {"category": "app.lifecycle", "data": {"state": "background"}}]
      """)
    let out = try script("explain-screens.lua", "")
    let r = try lifesim(["explain", log, "-o", out])
    #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
    #expect(r.stdout.contains("push DetailViewController: the app pushes a DetailViewController → breadcrumb 3"), "\(r.stdout)")
    #expect(try lifesim(["run", out]).status == 0)
    let text = try String(contentsOfFile: out, encoding: .utf8)
    #expect(text.contains(#"root = { class = "HomeViewController", from = "code" }"#))
    let broken = try script("explain-screens-broken.lua",
                            text.replacingOccurrences(of: #"app:push{ class = "DetailViewController", from = "code" }"#, with: "-- removed"))
    #expect(try lifesim(["run", broken]).status == 1)
  }
}
