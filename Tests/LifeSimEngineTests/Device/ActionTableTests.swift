import Testing
@testable import LifeSimEngine

/// The action table: one row per action gives its trace word, its operation
/// and the search's steps, and a row runs what its name says.
struct ActionTableTests {
  @Test func rowsAreInCaseOrderAndNamesAreUnique() {
    #expect(ActionRow.table.map(\.action) == DeviceAction.allCases)
    let names = ActionRow.table.map(\.name)
    #expect(Set(names).count == names.count)
    for a in DeviceAction.allCases {
      #expect(a.description == a.row.name)
      #expect(Operation.action(a).description == a.row.name)
    }
    #expect(Set(Operation.allCases.map(\.description)).count == Operation.allCases.count)
  }

  @Test func theSearchStepsComeFromTheTableInTheirOldOrder() {
    let steps = ActionRow.exploreSteps.map { $0.perApp ? "\($0.name) APP" : $0.name }
    #expect(steps == ["launch APP", "home", "lock", "unlock", "call", "end_interrupt", "switcher", "kill APP",
                      "memory_warning", "memory_pressure", "background_fetch APP",
                      "run_task APP", "expire_task APP", "cancel_task APP"])
  }

  /// The search's `end_interrupt` and `end_call` run what the script methods of
  /// those names run: dismissing an interruption, and ending an answered call.
  @Test func aStepRunsTheActionOfItsName() throws {
    let (dev, app) = try makeDevice(ios: 12)
    try dev.launch(app)
    try #require(ActionRow.stepping("call")).step(on: dev, app: nil)
    #expect(dev.interruption == .call)
    try #require(ActionRow.stepping("end_interrupt")).step(on: dev, app: nil)
    #expect(dev.interruption == nil && dev[app].state == .active)
    // No call was answered: end_call is refused, as dev:end_call() is.
    #expect(throws: SimulationError.invalidAction(.action(.endCall), .noAnsweredCall)) {
      try #require(ActionRow.stepping("end_call")).step(on: dev, app: nil)
    }
    try dev.interrupt(.call)
    try dev.endInterrupt(accept: true)
    #expect(dev[app].state != .active)
    try #require(ActionRow.stepping("end_call")).step(on: dev, app: nil)
    #expect(dev[app].state == .active)
    #expect(ActionRow.stepping("kill").map { $0.action } == .forceQuit)
    #expect(ActionRow.stepping("interrupt") == nil)  // it reads a kind: the search's step is `call`
    #expect(ActionRow.stepping("open_url") == nil)
  }
}
