import LifeSimEngine
import Testing
@testable import LifeSimPictures

/// The machines a diagram can be asked for are the registry's.
struct DiagramMachineTests {
  @Test func theMachinesAreTheRegistrys() throws {
    #expect(DiagramMachine.allCases.map(\.name) == MachineRow.drawnNames)
    // The words with their notes, the last after "or": read from the rows.
    #expect(DiagramMachine.listed.hasPrefix("process, scene, "))
    #expect(DiagramMachine.listed.contains("vc (a view controller's appearance)"))
    #expect(DiagramMachine.listed.contains(", or "))
    #expect(DiagramMachine(rawValue: "no such machine") == nil)
    let vc = try StateDiagram.make(machine: .vc, ios: 17)
    #expect(vc.edges.count == AppearanceLifecycle.table.transitions.count)
    #expect(vc.title.contains("; while appearing: "))
  }
}
