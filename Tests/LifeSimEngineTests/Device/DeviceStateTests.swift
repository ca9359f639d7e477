import Testing
@testable import LifeSimEngine

/// `Device.saveState` / `restoreState` (`lifesim explore` goes back to states
/// with them): a restored device is the device it was, and the saved state
/// holds every stored property that changes.
struct DeviceStateTests {
  @Test func everyStoredPropertyIsTheStateOrLeftOutOnPurpose() throws {
    let dev = try Device(profile: OSProfile(version: 12), seed: 1)
    let names = Set(Mirror(reflecting: dev).children.compactMap(\.label))
    let known = DeviceState.unsavedProperties.union(["state"])
    // A new stored property of Device must go in DeviceState (with an
    // accessor of its name on Device), or in the list of what a state leaves out.
    #expect(names.subtracting(known).isEmpty, "not classified: \(names.subtracting(known).sorted())")
    #expect(known.subtracting(names).isEmpty, "no longer stored: \(known.subtracting(names).sorted())")
  }

  @Test func aRestoredDeviceGoesOnAsItWouldHave() throws {
    let dev = try Device(profile: OSProfile(version: 12), seed: 7)
    let notes = try dev.install(AppConfig(bundle: "com.example.notes", footprintMB: 300))
    let mail = try dev.install(AppConfig(bundle: "com.example.mail", footprintMB: 400))
    try dev.launch(notes)
    try dev.home()
    let saved = dev.saveState()
    let print = dev.stateFingerprint()
    let records = dev.trace.records.count

    // One way on: a second app, a lock, time, memory pressure.
    func onward() throws -> ([UInt8], [String]) {
      try dev.launch(mail)
      try dev.lock()
      try dev.advance(by: .seconds(60))
      try dev.memoryPressure()
      return (dev.stateFingerprint(), dev.trace.records.dropFirst(records).map { "\($0.time) \($0.kind) \($0.detail ?? "")" })
    }
    let first = try onward()
    #expect(dev.stateFingerprint() != print)

    dev.restoreState(saved)
    #expect(dev.stateFingerprint() == print)
    #expect(dev.trace.records.count == records)
    #expect(dev[notes].state == .suspended && dev.frontmost == nil && !dev.isLocked)
    // The same steps again give the same state and the same records.
    let second = try onward()
    #expect(first.0 == second.0)
    #expect(first.1 == second.1)
  }
}
