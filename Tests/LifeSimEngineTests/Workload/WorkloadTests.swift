import LifeSimEngine
import Testing

/// The simulated user and usage replay, without Lua.
struct WorkloadTests {
  func device(seed: UInt64, memoryMB: Int = 1200, trace: Bool = true) throws -> (Device, [AppID]) {
    let dev = Device(profile: try OSProfile(version: 17), seed: seed, memoryMB: memoryMB)
    dev.recordsTrace = trace
    let apps = try (1...10).map { try dev.install(AppConfig(bundle: "app\($0)", footprintMB: Double(40 * $0))) }
    return (dev, apps)
  }

  @Test func driveIsDeterministicAndTheTraceDoesNotChangeIt() throws {
    var user = UserModel(apps: [])
    user.zipfExponent = 1.1
    user.switchMean = .seconds(120)
    user.sessionMean = .seconds(900)
    user.notificationsPerHour = 2
    user.quitsPerHour = 1
    let (a, appsA) = try device(seed: 3)
    let (b, appsB) = try device(seed: 3, trace: false)
    let (c, appsC) = try device(seed: 4)
    user.apps = appsA
    let sa = try a.drive(user, for: .seconds(86_400))
    user.apps = appsB
    let sb = try b.drive(user, for: .seconds(86_400))
    user.apps = appsC
    let sc = try c.drive(user, for: .seconds(86_400))
    #expect(sa == sb)
    #expect(a.stats == b.stats)
    #expect(a.stats != c.stats || sa != sc)
    #expect(b.trace.records.isEmpty)
    #expect(a.now == .seconds(86_400) && b.now == .seconds(86_400))
    #expect(sa.locks > 10 && sa.quits > 5 && sa.notifications > 10)
    #expect(a.stats.coldOpens > 0 && a.stats.coldOpens < a.stats.opens)
    #expect(a.stats.kills(.user) == sa.quits)
  }

  @Test func popularityFollowsZipf() throws {
    let (dev, apps) = try device(seed: 1, memoryMB: 100_000)
    var user = UserModel(apps: apps)
    user.zipfExponent = 1.0
    user.switchMean = .seconds(30)
    try dev.drive(user, for: .seconds(2 * 86_400))
    var opens = [Int](repeating: 0, count: apps.count)
    for r in dev.trace.records(kind: .action) where r.app != nil { opens[Int(r.app!.index)] += 1 }
    // Switches never pick the app on screen, so ranks are compressed a little,
    // but the order holds: rank 1 well above rank 2 above rank 10.
    #expect(opens[0] > opens[1] && opens[1] > opens[9])
    #expect(Double(opens[0]) > 2 * Double(opens[9]))
  }

  @Test func jetsamKillsAreCountedWithTheTraceOff() throws {
    let (dev, apps) = try device(seed: 5, memoryMB: 600, trace: false)
    try dev.drive(UserModel(apps: apps), for: .seconds(6 * 3600))
    #expect(dev.stats.jetsamKills > 0)
    #expect(dev.stats.kills(.vmPageShortage) == dev.stats.jetsamKills - dev.stats.kills(.perProcessLimit))
  }

  @Test func replayRunsEachEventAtItsTime() throws {
    let (dev, apps) = try device(seed: 1)
    try dev.advance(by: .seconds(10))
    try dev.replay([
      UsageEvent(time: .seconds(5), app: apps[0], kind: .open),
      UsageEvent(time: .seconds(20), app: nil, kind: .lock),
      UsageEvent(time: .seconds(30), app: apps[1], kind: .notification),
      UsageEvent(time: .seconds(40), app: apps[1], kind: .quit),
    ])
    #expect(dev.now == .seconds(50))
    let actions = dev.trace.records(kind: .action).map { $0.time.seconds }
    #expect(actions == [15, 30, 40, 40, 50])  // open, lock, unlock + open, quit
    #expect(dev.stats.opens == 2 && dev.stats.kills(.user) == 1)
    #expect(throws: SimulationError.self) {
      try dev.replay([UsageEvent(time: .seconds(1), app: nil, kind: .open)])
    }
  }

  @Test func anEmptyUserIsRefused() throws {
    let (dev, _) = try device(seed: 1)
    #expect(throws: SimulationError.self) { try dev.drive(UserModel(apps: []), for: .seconds(10)) }
  }
}
