import LifeSimEngine
import Testing
@testable import LifeSimExplain

/// Sentry's `ui.lifecycle` breadcrumbs: the screens a log names are view
/// controllers of the app explained, and the search pushes and presents them.
struct ExplainScreensTests {
  /// A launch on Home, Detail pushed, a trip to the background and back (no
  /// viewDidAppear: on the return), then Detail popped: Home appears again.
  static let breadcrumbs = """
    {"breadcrumbs": {"values": [
      {"category": "app.lifecycle", "data": {"state": "foreground"}, "type": "navigation"},
      {"category": "ui.lifecycle", "data": {"screen": "HomeViewController"}, "type": "navigation"},
      {"category": "ui.lifecycle", "data": {"screen": "DetailViewController"}, "type": "navigation"},
      {"category": "app.lifecycle", "data": {"state": "background"}, "type": "navigation"},
      {"category": "app.lifecycle", "data": {"state": "foreground"}, "type": "navigation"},
      {"category": "ui.lifecycle", "data": {"screen": "HomeViewController"}, "type": "navigation"}
    ]}}
    """

  @Test func uiLifecycleBreadcrumbsAreReadAsViewDidAppearOfTheirScreen() throws {
    let log = try LogReader.read(Self.breadcrumbs)
    #expect(log.format == .sentry)
    #expect(log.ignored == 0)
    #expect(log.screens == ["HomeViewController", "DetailViewController"])
    #expect(log.events.map { log.symbols[$0.symbol].name } == [
      "app.lifecycle foreground", "ui.lifecycle HomeViewController", "ui.lifecycle DetailViewController",
      "app.lifecycle background", "app.lifecycle foreground", "ui.lifecycle HomeViewController",
    ])
    #expect(log.symbols[log.events[1].symbol].atoms == [.screen("HomeViewController")])
  }

  @Test func theScreensAreViewControllersTheSearchPushesAndPops() throws {
    let log = try LogReader.read(Self.breadcrumbs)
    var options = ExplainOptions()
    options.alternatives = 0
    let search = try ExplainSearch(log: log, options: options)
    let result = search.run()
    let e = try #require(result.explanations.first, "\(ExplainReport(log: log, options: options, result: result).text)")
    let names = e.steps.map { $0.step.name(bundle: options.bundle) }
    // Home appears again after the return from the background only in a new
    // process, whose root it is: the app was killed in the background.
    #expect(names == ["launch com.example.app", "push DetailViewController", "kill com.example.app", "launch com.example.app"],
            "\(names)")
    // The root is the first screen named; its steps are those of a log that names screens only.
    #expect(search.device.apps[0].config.root?.className == "HomeViewController")
    #expect(ExplainAlphabet.actions(screens: []).allSatisfy {
      switch $0.kind { case .push, .pop, .present, .dismiss: return false; default: return true }
    })
    let script = ExplainReport(log: log, options: options, result: result).script(e, source: "crumbs.json", command: "lifesim explain")
    #expect(script.contains("root = { class = \"HomeViewController\", from = \"code\" }"))
    #expect(script.contains("app:push{ class = \"DetailViewController\", from = \"code\" }"))
  }

  /// UIKit sends no viewDidAppear: on a return from the background: a log
  /// that shows one there is explained by a new process (whose root appears)
  /// or a screen change, never by a plain return.
  @Test func aScreenAppearsOnAReturnFromTheBackgroundOnlyByAScreenChange() throws {
    func explain(_ crumbs: [String]) throws -> [String] {
      let json = "[" + crumbs.map { c in
        c.hasPrefix("ui ") ? #"{"category": "ui.lifecycle", "data": {"screen": "\#(c.dropFirst(3))"}}"#
          : #"{"category": "app.lifecycle", "data": {"state": "\#(c)"}}"#
      }.joined(separator: ",") + "]"
      var options = ExplainOptions()
      options.alternatives = 0
      let log = try LogReader.read(json)
      let e = try #require(try ExplainSearch(log: log, options: options).run().explanations.first)
      return e.steps.map { $0.step.name(bundle: options.bundle) }
    }
    // A plain return: no screen appears.
    let plain = try explain(["foreground", "ui Home", "background", "foreground"])
    #expect(plain == ["launch com.example.app", "home", "launch com.example.app"], "\(plain)")
    // A screen that appears on the return takes a new process.
    let shown = try explain(["foreground", "ui Home", "background", "foreground", "ui Home"])
    #expect(shown == ["launch com.example.app", "kill com.example.app", "launch com.example.app"], "\(shown)")
  }
}
