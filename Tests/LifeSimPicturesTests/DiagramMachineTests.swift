import LifeSimEngine
import Testing
@testable import LifeSimPictures

/// The machines a diagram can be asked for are the registry's.
struct DiagramMachineTests {
  @Test func theMachinesAreTheRegistrys() throws {
    #expect(DiagramMachine.allCases.map(\.name) == MachineRow.drawnNames)
    #expect(DiagramMachine.listed == "process, scene, or vc (a view controller's appearance)")
    #expect(DiagramMachine(rawValue: "toy") == nil)
    let vc = try StateDiagram.make(machine: .vc, ios: 17)
    #expect(vc.edges.count == AppearanceLifecycle.table.transitions.count)
    #expect(vc.title.contains("; while appearing: "))
  }
}
