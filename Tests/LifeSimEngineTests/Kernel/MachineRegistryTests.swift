import Testing
@testable import LifeSimEngine

/// One row per state machine: coverage, the search's report and diagrams
/// read every machine from it.
struct MachineRegistryTests {
  @Test func theRowsAreTheTables() {
    #expect(MachineRow.all.map(\.machine) == Machine.allCases)
    #expect(MachineRow.all.map(\.edges.count) == [AppLifecycle.appDelegate.transitions.count,
                                                  AppLifecycle.scene.transitions.count,
                                                  SceneLifecycle.table.transitions.count,
                                                  AppearanceLifecycle.table.transitions.count])
    #expect(MachineRow.drawnNames == ["process", "scene", "vc"])
    let t = AppLifecycle.appDelegate.transitions[0]
    #expect(Machine.processAppDelegate.row.label(0) == "\(t.from) --\(t.event)--> \(t.to)")
  }

  @Test func coverageCountsEveryMachineOfTheRegistry() throws {
    let (dev, app) = try makeDevice(ios: 12)
    let before = dev.coverage
    #expect(Machine.allCases.map { before[$0].count } == MachineRow.all.map(\.edges.count))
    try dev.launch(app)
    let taken = dev.coverage.since(before)
    #expect(taken[.processAppDelegate].reduce(0, +) > 0)
    #expect(taken[.processScene].reduce(0, +) == 0)
    var sum = Coverage()
    sum.add(taken)
    sum.add(taken)
    #expect(sum[.processAppDelegate] == taken[.processAppDelegate].map { $0 * 2 })
  }
}
