import Testing
@testable import LifeSimEngine

/// `MemoryMonitor.reduce` as a pure function: the monitor, a step of a check
/// and the memory in use give the new level and the effects.
struct MemoryReduceTests {
  let policy: Policy
  let normal: Double, warning: Double, critical: Double

  init() throws {
    policy = Policy(profile: try OSProfile(version: 17))
    normal = policy.memoryWarningAt * 1000 - 1
    warning = policy.memoryWarningAt * 1000
    critical = policy.jetsamAt * 1000 + 1
  }

  @Test func aCheckDueKillsProcessesOverTheirLimitFirstAndOnlyWithAMemoryModel() {
    var m = MemoryMonitor(ramMB: 1000, model: nil)
    _ = m.requestCheck()
    #expect(m.reduce(.checkDue(overLimit: true), usedMB: critical, policy: policy) == [.killOverLimit, .then(.check)])
    #expect(!m.checkScheduled && m.level == .normal)
    var none = MemoryMonitor(ramMB: nil, model: nil)
    #expect(none.reduce(.checkDue(overLimit: true), usedMB: 1e9, policy: policy) == [])
    #expect(none.reduce(.checkDue(overLimit: false), usedMB: 1e9, policy: policy) == [])
  }

  @Test func aCheckDueWithNoProcessOverItsLimitIsTheCheckItself() {
    for used in [normal, warning, critical] {
      for start in [MemoryLevel.normal, .warning, .critical] {
        var due = MemoryMonitor(ramMB: 1000, model: nil), checked = due
        due.level = start
        checked.level = start
        _ = due.requestCheck()
        #expect(due.reduce(.checkDue(overLimit: false), usedMB: used, policy: policy)
                == checked.reduce(.check, usedMB: used, policy: policy))
        #expect(due.level == checked.level && !due.checkScheduled)
      }
    }
    var m = MemoryMonitor(ramMB: 1000, model: nil)
    #expect(m.reduce(.checkDue(overLimit: false), usedMB: warning, policy: policy)
            == [.recordLevel(.warning), .warnEveryApp, .then(.lookAgain)])
  }

  @Test func aRiseIsRecordedAndWarnsEveryAppBeforeLookingAgain() {
    var m = MemoryMonitor(ramMB: 1000, model: nil)
    #expect(m.reduce(.check, usedMB: warning, policy: policy) == [.recordLevel(.warning), .warnEveryApp, .then(.lookAgain)])
    #expect(m.level == .warning)
    // Not critical: nothing more, the level stays recorded.
    #expect(m.reduce(.lookAgain, usedMB: warning, policy: policy) == [])
  }

  @Test func aFallIsRecordedWithNoWarning() {
    var m = MemoryMonitor(ramMB: 1000, model: nil)
    m.level = .critical
    #expect(m.reduce(.check, usedMB: normal, policy: policy) == [.recordLevel(.normal), .then(.lookAgain)])
    #expect(m.reduce(.lookAgain, usedMB: normal, policy: policy) == [])
  }

  @Test func anUnchangedLevelNeitherRecordsNorWarns() {
    var m = MemoryMonitor(ramMB: 1000, model: nil)
    #expect(m.reduce(.check, usedMB: normal, policy: policy) == [])
    m.level = .critical
    // Still critical: straight to jetsam.
    #expect(m.reduce(.check, usedMB: critical, policy: policy) == [.jetsam])
  }

  @Test func jetsamGoesOnWhileCriticalThenRecordsWhereItEnded() {
    var m = MemoryMonitor(ramMB: 1000, model: nil)
    #expect(m.reduce(.check, usedMB: critical, policy: policy) == [.recordLevel(.critical), .warnEveryApp, .then(.lookAgain)])
    #expect(m.reduce(.lookAgain, usedMB: critical, policy: policy) == [.jetsam])
    #expect(m.reduce(.lookAgain, usedMB: critical - 2, policy: policy) == [.recordLevel(.warning)])
    #expect(m.level == .warning)
  }

  @Test func withNothingLeftToKillTheLevelStaysCritical() {
    var m = MemoryMonitor(ramMB: 1000, model: nil)
    m.level = .critical
    #expect(m.reduce(.noVictim, usedMB: critical, policy: policy) == [])
    #expect(m.level == .critical)
  }
}
