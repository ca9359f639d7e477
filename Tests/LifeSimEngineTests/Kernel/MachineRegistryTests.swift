import Testing
@testable import LifeSimEngine

/// One row per state machine: coverage, the search's report and diagrams
/// read every machine from it.
struct MachineRegistryTests {
  @Test func theRowsAreTheTables() {
    #expect(MachineRow.all.map(\.machine) == Machine.allCases)
    // Each machine by name, not the list: a new machine adds a row, not a
    // line here.
    #expect(Machine.processAppDelegate.row.edges.count == AppLifecycle.appDelegate.transitions.count)
    #expect(Machine.processScene.row.edges.count == AppLifecycle.scene.transitions.count)
    #expect(Machine.scene.row.edges.count == SceneLifecycle.table.transitions.count)
    #expect(Machine.appearance.row.edges.count == AppearanceLifecycle.table.transitions.count)
    for row in MachineRow.all {
      #expect(row.edges.allSatisfy { row.states.indices.contains($0.from) && row.states.indices.contains($0.to) })
    }
    // Each word once, in table order; the two process machines share theirs.
    #expect(MachineRow.drawnNames == MachineRow.all.map(\.drawnAs).reduce(into: []) { if !$0.contains($1) { $0.append($1) } })
    #expect(MachineRow.drawnNames.prefix(3) == ["process", "scene", "vc"])
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
