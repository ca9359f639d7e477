import Testing
@testable import LifeSimEngine

/// A search that takes step after step without time passing would keep the
/// deadlines of every past stretch in the background: `dropVoidDeadlines`
/// drops those no process can meet again, and nothing the device does changes.
struct VoidDeadlinesTests {
  /// An app brought forward and sent back `cycles` times, at one instant,
  /// with a lock and an overlay between (each a new stretch or a return).
  static func cycled(_ cycles: Int, dropping: Bool) throws -> (Device, AppID) {
    let d = Device(profile: try OSProfile(version: 17), seed: 1)
    d.trapsOnViolation = false
    let app = try d.install(AppConfig(bundle: "com.example.app", scenes: false, backgroundModes: ["fetch"]))
    for _ in 0..<cycles {
      try d.launch(app)
      try d.home()
      try d.launch(app)
      try d.interrupt(.notificationCenterPeek)
      try d.lock()
      try d.unlock()
      if dropping { d.dropVoidDeadlines() }
    }
    return (d, app)
  }

  @Test func theDeadlinesOfEndedStretchesGoAndTheDeviceDoesTheSame() throws {
    let (kept, app) = try Self.cycled(30, dropping: false)
    let (dropped, _) = try Self.cycled(30, dropping: true)
    #expect(kept.kernel.pendingCount >= 30, "\(kept.kernel.pendingCount) pending")
    #expect(dropped.kernel.pendingCount <= 4, "\(dropped.kernel.pendingCount) pending")
    #expect(kept.stateFingerprint() == dropped.stateFingerprint())
    // What follows, past every deadline kept and dropped, is the same: a
    // background fetch's window ends and the app is suspended in both.
    for d in [kept, dropped] {
      try d.home()
      try d.advance(by: .seconds(600))
      try d.backgroundFetch(app)
      try d.advance(by: .seconds(600))
      try d.launch(app)
      try d.home()
      try d.advance(by: .seconds(60))
    }
    #expect(kept.trace.records == dropped.trace.records)
    #expect(dropped.trace.records.contains { $0.kind == .state && $0.to == .suspended && $0.time > .seconds(600) })
  }
}
