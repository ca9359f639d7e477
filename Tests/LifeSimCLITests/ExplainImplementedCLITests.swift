import Foundation
import Testing

/// A callback UIKit sends only to an app that implements it, in a log: the
/// app explained implements it, in the search and in the script it writes.
struct ExplainImplementedCLITests {
  /// A scene app launched and sent Home: UIKit asks the scene for its
  /// restoration activity only when its delegate implements the method.
  static let log = """
    scene(_:willConnectTo:options:)
    sceneWillEnterForeground(_:)
    sceneDidBecomeActive(_:)
    sceneWillResignActive(_:)
    sceneDidEnterBackground(_:)
    stateRestorationActivity(for:)
    """

  @Test func aCallbackSentOnlyWhenImplementedIsExplainedAndTheScriptImplementsIt() throws {
    let log = try script("explain-restoration.log", Self.log)
    let out = try script("explain-restoration.lua", "")
    let r = try lifesim(["explain", log, "-o", out])
    #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
    #expect(r.stdout.contains("  2. home: the user goes to the Home Screen → lines 4–6\n"), "\(r.stdout)")
    let text = try String(contentsOfFile: out, encoding: .utf8)
    #expect(text.contains("app:on(\"stateRestorationActivityForScene:\", function() end)"))
    let run = try lifesim(["run", out])
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
  }
}
