import LifeSimEngine
import Testing
@testable import LifeSimExplain

/// A step named as an action of the action table (`DeviceAction`) runs that
/// action: its script calls the table's method. A declined call is
/// `end_interrupt`, as explore names it: the table's `end_call` is an
/// answered call that ends, which no step takes.
struct ExplainStepNamesTests {
  @Test func aStepNamedForAnActionCallsThatAction() throws {
    let steps = ExplainAlphabet.actions(on: try OSProfile(version: 26), screens: ["HomeViewController"], windows: true,
                                        notify: true, tasks: true)
    #expect(steps.count > 20)
    var checked = 0
    for step in steps {
      let name = String(step.name(bundle: "com.example.app").split(separator: " ")[0])
      guard let row = ActionRow.table.first(where: { $0.name == name }) else { continue }
      checked += 1
      #expect(step.lua.contains(":\(row.method)(") || step.lua.contains(":\(row.method){"),
              "step \(name) writes \(step.lua), not the table's \(row.method)")
    }
    #expect(checked > 15)
    #expect(ExplainStep(.endCall).name(bundle: "app") == "end_interrupt")
  }
}
