import Testing
@testable import LifeSimEngine

/// Each machine's row finds the machine's instances on a device, the search's
/// fingerprint writes their states through the rows, and the engine walks
/// the registry's own tables.
struct MachineInstancesTests {
  static func states(_ machine: Machine, _ dev: Device) -> [UInt8] {
    var out: [UInt8] = []
    machine.row.forEachState(dev) { out.append($0) }
    return out
  }

  /// An app of each model, both launched, the first in the background; a
  /// view controller pushed over the second's root.
  static func device() throws -> (Device, AppID, AppID) {
    let dev = try Device(profile: OSProfile(version: 17), seed: 1)
    let root = ObjectSpec(className: "Root", creation: .code)
    let old = try dev.install(AppConfig(bundle: "com.example.old", scenes: false, root: root))
    let new = try dev.install(AppConfig(bundle: "com.example.new", root: root))
    try dev.launch(old)
    try dev.home()
    try dev.launch(new)
    _ = try dev.push(ObjectSpec(className: "Detail", creation: .code), app: new)
    return (dev, old, new)
  }

  @Test func eachRowFindsItsMachinesInstances() throws {
    let (dev, old, new) = try Self.device()
    #expect(Self.states(.processAppDelegate, dev) == [dev[old].state.rawValue])
    #expect(Self.states(.processScene, dev) == [dev[new].state.rawValue])
    #expect(Self.states(.scene, dev) == dev[new].scenes.map(\.state.rawValue))
    #expect(!dev[new].scenes.isEmpty)
    let live = dev.viewControllers.filter { $0.appearance != .deallocated }
    #expect(Self.states(.appearance, dev) == live.map(\.appearance.rawValue))
    #expect(live.count >= 3, "two roots and the pushed one")
  }

  @Test func theFingerprintWritesEachMachinesStatesThroughItsRow() throws {
    let (dev, _, new) = try Self.device()
    var expected: [UInt8] = []
    for machine in Machine.allCases { expected += Self.states(machine, dev) + [0xFF] }
    #expect(Array(dev.stateFingerprint().prefix(expected.count)) == expected)
    // A scene's state, changed alone, is a different state.
    let before = dev.stateFingerprint()
    dev[new].scenes[0].state = .background
    #expect(dev.stateFingerprint() != before)
  }

  @Test func theWalkTakesTheRegistrysTables() {
    let machines = Machines()
    #expect(machines.rows.map(\.name) == Machine.allCases.map(\.row.name))
    #expect(machines.appDelegate.name == Machine.processAppDelegate.row.name)
    #expect(machines.scene.name == Machine.processScene.row.name)
    #expect(machines.sceneMachine.name == Machine.scene.row.name)
    #expect(machines.appearance.name == Machine.appearance.row.name)
    #expect(machines.appearance.transitions.count == Machine.appearance.row.edges.count)
  }
}
