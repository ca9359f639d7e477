import Testing
@testable import LifeSimEngine

/// What keeps the engine's own work bounded and its state sound whatever a
/// host asks: policies that act, the clock's range, the workload drivers'
/// rates and lengths, checkpoints in long loops, the trace's budget, and
/// text trace lines that no string can forge. Without Lua.
struct EngineLimitsTests {
  // MARK: Policies

  @Test func aBackgroundTimePolicyCannotMoveTheClockOrAct() throws {
    let (dev, app) = try makeDevice(ios: 12)
    let host = RecordingHost()
    dev.host = host
    dev.policy.backgroundTimeFromHost = true
    var refused: [Error] = []
    host.backgroundTime = { _ in
      do { try dev.advance(by: .seconds(100)) } catch { refused.append(error) }
      do { try dev.forceQuit(app) } catch { refused.append(error) }
      do { try dev.launch(app) } catch { refused.append(error) }
      return .seconds(30)
    }
    try dev.launch(app)
    try dev.home()
    #expect(refused.count == 3)
    #expect(refused.first as? SimulationError == .reentrant(.advance, inside: .policy("background_time")))
    #expect(refused.dropFirst().allSatisfy { ($0 as? SimulationError)?.isRefusal == true })
    #expect(dev.now == .zero, "the clock stayed where the Home cascade was")
    #expect(dev[app].state == .suspended || dev[app].state == .background)
    #expect(dev.invariantViolations().isEmpty)
  }

  @Test func aChooseVictimPolicyCannotKillTheForegroundApp() throws {
    let dev = Device(profile: try OSProfile(version: 12), seed: 1, memoryMB: 1000)
    let host = RecordingHost()
    dev.host = host
    var apps: [AppID] = []
    for name in ["a", "b", "c"] {
      let id = try dev.install(AppConfig(bundle: name, footprintMB: 250))
      apps.append(id)
      try dev.launch(id)
      try dev.home()
      try dev.advance(by: .seconds(1))
    }
    let big = try dev.install(AppConfig(bundle: "d", footprintMB: 450))
    dev.policy.victimFromHost = true
    var refused: Error?
    host.victim = { candidates in
      do { try dev.forceQuit(big) } catch { refused = error }
      return candidates[0].app
    }
    try dev.launch(big)
    #expect(refused as? SimulationError == .reentrant(.action(.forceQuit), inside: .policy("choose_victim")))
    #expect(dev[big].state == .active, "the app in front survived its own jetsam")
    #expect(dev.busy == nil)
    #expect(dev.invariantViolations().isEmpty)
  }

  // MARK: The clock's range

  @Test func theClockRefusesToGoPastItsEnd() throws {
    let (dev, _) = try makeDevice(ios: 17)
    let century = try #require(SimTime(seconds: 3.1e9))
    var advances = 0
    var failure: Error?
    while advances < 4000 {
      do { try dev.advance(by: century) } catch { failure = error; break }
      advances += 1
    }
    let error = try #require(failure as? SimulationError)
    guard case .clockRange(.advance, let now, let span) = error else {
      Issue.record("expected clockRange, got \(error)")
      return
    }
    #expect(span == century && now == dev.now)
    #expect(advances > 1000 && dev.now <= .clockEnd)
    // A timer past the end is refused, not set in the past (where it would fire at once).
    #expect(throws: SimulationError.clockRange(.after, now: dev.now, span: century)) {
      try dev.schedule(HostToken(1), after: century)
    }
    #expect(dev.kernel.pendingCount == 0)
    // What is still within the range goes on working.
    let before = dev.now
    try dev.advance(by: .seconds(1))
    #expect(dev.now == before + .seconds(1))
  }

  // MARK: Workload drivers

  @Test func anAbsurdRateOrLengthIsRefusedUpFront() throws {
    let dev = Device(profile: try OSProfile(version: 17), seed: 1)
    let apps = try (1...3).map { try dev.install(AppConfig(bundle: "app\($0)")) }
    var user = UserModel(apps: apps)
    user.switchMean = SimTime(microseconds: 1)
    #expect(throws: SimulationError.self) { try dev.drive(user, for: .seconds(86_400)) }
    #expect(dev.now == .zero && dev.trace.records.isEmpty)
    user.switchMean = .seconds(60)
    #expect(throws: SimulationError.pastHorizon(.drive, span: .seconds(40 * 86_400), horizon: dev.horizon)) {
      try dev.drive(user, for: .seconds(40 * 86_400))
    }
    let rows = [UsageEvent(time: .seconds(40 * 86_400), app: apps[0], kind: .open)]
    #expect(throws: SimulationError.pastHorizon(.replay, span: .seconds(40 * 86_400), horizon: dev.horizon)) {
      try dev.replay(rows)
    }
    #expect(dev.now == .zero)
  }

  /// A host stops a long drive at a checkpoint (as the REPL's Ctrl-C does),
  /// and is told how many steps ran, for its budget.
  @Test func checkpointsLetTheHostStopADrive() throws {
    struct Stop: Error {}
    let dev = Device(profile: try OSProfile(version: 17), seed: 1)
    dev.recordsTrace = false
    let apps = try (1...3).map { try dev.install(AppConfig(bundle: "app\($0)")) }
    var user = UserModel(apps: apps)
    user.switchMean = .seconds(1)
    var steps = 0, calls = 0
    dev.checkpoint = { n in
      steps += n
      calls += 1
      if steps >= 10_000 { throw Stop() }
    }
    #expect(throws: Stop.self) { try dev.drive(user, for: .seconds(29 * 86_400)) }
    #expect(steps >= 10_000 && steps < 10_000 + 2 * Device.checkpointStride)
    #expect(calls == steps / Device.checkpointStride)
    #expect(dev.now < .seconds(86_400), "stopped long before the end of the drive")
    #expect(dev.invariantViolations().isEmpty)
    // The clock's loop has checkpoints too.
    dev.checkpoint = { _ in throw Stop() }
    for i in 0..<(2 * Device.checkpointStride) { dev.schedule(HostToken(i), at: dev.now + .seconds(Int64(i + 1))) }
    #expect(throws: Stop.self) { try dev.advance(by: .seconds(10_000)) }
    #expect(dev.kernel.pendingCount > 0)
  }

  /// A replay's rows are steps too.
  @Test func aReplayHasCheckpoints() throws {
    struct Stop: Error {}
    let dev = Device(profile: try OSProfile(version: 17), seed: 1)
    dev.recordsTrace = false
    let app = try dev.install(AppConfig(bundle: "a"))
    var steps = 0
    dev.checkpoint = { n in
      steps += n
      throw Stop()
    }
    let rows = (0..<1000).flatMap { i in
      [UsageEvent(time: .seconds(Int64(2 * i)), app: app, kind: .open),
       UsageEvent(time: .seconds(Int64(2 * i + 1)), app: nil, kind: .home)]
    }
    #expect(throws: Stop.self) { try dev.replay(rows) }
    #expect(steps == Device.checkpointStride)
    #expect(dev.now < .seconds(Int64(Device.checkpointStride)))
  }

  // MARK: The trace's budget

  @Test func theTraceStopsAtItsBudget() throws {
    let (dev, _) = try makeDevice(ios: 17)
    let budget = MemoryBudget(limit: 1 << 20)
    dev.traceBudget = budget
    var rounds = 0
    var failure: Error?
    while rounds < 1_000_000 {
      do {
        try dev.lock()
        try dev.unlock()
      } catch { failure = error; break }
      rounds += 1
    }
    #expect(failure as? SimulationError == .traceFull(records: dev.trace.records.count, limit: 1 << 20))
    #expect(rounds > 100 && rounds < 100_000)
    #expect(dev.trace.bytesKept > 1 << 20 && dev.trace.bytesKept < (1 << 20) + 16_384)
    #expect(budget.used == dev.trace.bytesKept)
  }

  /// Devices that share a budget count together: two devices cannot keep
  /// twice the limit, and going back to a saved state gives its bytes back.
  @Test func devicesShareTheirBudget() throws {
    let budget = MemoryBudget(limit: 1 << 20)
    let (a, _) = try makeDevice(ios: 17)
    let (b, _) = try makeDevice(ios: 17)
    a.traceBudget = budget
    b.traceBudget = budget
    #expect(budget.used == a.trace.bytesKept + b.trace.bytesKept)
    let saved = a.saveState()
    for _ in 0..<200 { a.log(String(repeating: "a", count: 2000)) }
    #expect(budget.used == a.trace.bytesKept + b.trace.bytesKept)
    a.restoreState(saved)
    #expect(budget.used == a.trace.bytesKept + b.trace.bytesKept)
    for _ in 0..<300 { a.log(String(repeating: "a", count: 2000)) }
    for _ in 0..<300 { b.log(String(repeating: "b", count: 2000)) }
    #expect(throws: SimulationError.traceFull(records: b.trace.records.count, limit: 1 << 20)) { try b.lock() }
    #expect(throws: SimulationError.self) { try a.lock() }
  }

  @Test func theTraceCountsTextAndStreamedRecordsCountNothing() throws {
    let (dev, _) = try makeDevice(ios: 17)
    let before = dev.trace.bytesKept
    dev.log(String(repeating: "x", count: 10_000))
    #expect(dev.trace.bytesKept - before >= 10_000)
  }

  // MARK: Text trace lines

  @Test func noStringWritesALineOfItsOwnIntoTheTextTrace() throws {
    let dev = Device(profile: try OSProfile(version: 17), seed: 1)
    let app = try dev.install(AppConfig(bundle: "com.example\n[t=9.000000] forged"))
    dev.log("one\ntwo\r\u{1B}[2Jthree\\", app: app)
    let text = TraceWriter(format: .text).render(dev.trace)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.isEmpty }
    #expect(lines.count == dev.trace.records.count, "\(text)")
    #expect(text.contains(#"com.example\n[t=9.000000] forged"#))
    #expect(text.contains(#"one\ntwo\r\x1b[2Jthree\\"#))
    #expect(!text.contains("\u{1B}"))
  }

  // MARK: View controllers of a dead process

  @Test func aForceQuitAppsViewControllersAreInNoWindow() throws {
    let dev = Device(profile: try OSProfile(version: 17), seed: 1)
    let app = try dev.install(AppConfig(bundle: "com.example.notes", root: ObjectSpec(className: "Root", creation: .code)))
    try dev.launch(app)
    let detail = try dev.push(ObjectSpec(className: "Detail", creation: .code), app: app)
    let root = try #require(dev.focusWindow(of: app)?.stack.first)
    #expect(dev.viewController(detail).inWindow)
    try dev.openSwitcher()
    try dev.forceQuit(app)
    #expect(dev[app].state == .notRunning)
    for vc in [root, detail] {
      #expect(!dev.viewController(vc).inWindow, "\(dev.viewController(vc).spec.className) still in a window")
    }
    #expect(dev.views.allSatisfy { !$0.inWindow })
  }
}
