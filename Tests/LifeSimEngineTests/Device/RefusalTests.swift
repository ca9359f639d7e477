import Testing
@testable import LifeSimEngine

/// A refused action throws a case with its data, worded in iOS terms only.
struct RefusalTests {
  @Test func refusalsCarryTheirData() throws {
    let (dev, app) = try makeDevice(ios: 17)
    try dev.lock()
    #expect(throws: SimulationError.invalidAction(.action(.lock), .alreadyLocked)) { try dev.lock() }
    try dev.unlock()
    #expect(throws: SimulationError.invalidAction(.action(.unlock), .notLocked)) { try dev.unlock() }
    #expect(throws: SimulationError.invalidAction(.action(.endInterrupt), .noInterruption)) { try dev.endInterrupt() }
    #expect(throws: SimulationError.invalidAction(.action(.endCall), .noAnsweredCall)) { try dev.endCall() }
    _ = app
    #expect(SimulationError.invalidAction(.action(.endCall), .noAnsweredCall).isRefusal)
  }

  @Test func theEnginesWordsNameNoScriptSyntax() {
    let e = SimulationError.invalidAction(.action(.endCall), .noAnsweredCall)
    #expect(e.description == "end_call: no answered call is in progress")
    #expect(!e.description.contains("{") && !e.description.contains("="))
    #expect(Refusal.sceneNotReclaimable(app: "a", scene: 2, state: nil).description.hasSuffix("scene 2 of a is closed"))
  }

  @Test func aModelWithoutALastVersionIsStillSupported() throws {
    let old = try #require(DeviceModel.all.first { $0.lastIOS != nil })
    #expect(!old.stillSupported && !old.runs(ios: old.lastIOS! + 1) && old.runs(ios: old.firstIOS))
    let current = try #require(DeviceModel.all.first { $0.lastIOS == nil })
    #expect(current.stillSupported && current.runs(ios: 26) && !current.runs(ios: current.firstIOS - 1))
  }

  @Test func theNotificationDelegateIsAProfileFact() throws {
    #expect(!(try OSProfile(version: 9)).hasNotificationCenterDelegate)
    #expect(try OSProfile(version: 10).hasNotificationCenterDelegate)
    #expect(try OSProfile(version: 10).facts.contains { $0.name == "notification_center_delegate" })
  }
}
