import Testing
@testable import LifeSimEngine

/// The user's memory actions through `MemoryMonitor.reduce`: a simulated
/// warning and memory pressure from outside the apps.
struct MemoryActionReduceTests {
  let policy: Policy

  init() throws {
    policy = Policy(profile: try OSProfile(version: 17))
  }

  @Test func aSimulatedWarningWarnsEveryAppAndLeavesTheLevel() {
    var m = MemoryMonitor(ramMB: 1000, model: nil)
    #expect(m.reduce(.simulatedWarning, usedMB: 0, policy: policy) == [.warnEveryApp])
    #expect(m.level == .normal)
    // With no memory model too: the warning is the user's, not the monitor's.
    var none = MemoryMonitor(ramMB: nil, model: nil)
    #expect(none.reduce(.simulatedWarning, usedMB: 0, policy: policy) == [.warnEveryApp])
  }

  @Test func pressureKillsBelowTheForegroundBandOneVictimAtATime() {
    var m = MemoryMonitor(ramMB: 1000, model: nil)
    #expect(m.reduce(.pressure, usedMB: 0, policy: policy) == [.killBelow(.foreground, reason: .vmPageShortage)])
    #expect(m.level == .normal && !m.checkScheduled)
  }
}
