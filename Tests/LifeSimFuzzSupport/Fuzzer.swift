import LifeSimEngine

/// One random device, its apps, and a host that acts like app code: the
/// engine's fuzz test checks its invariants after every step, and explain's
/// round trip explains each app's trace.
public final class Fuzzer: DeviceHost {
  var rng: SeededGenerator
  public let device: Device
  public private(set) var apps: [AppID] = []
  /// Per app, the state the trace last recorded (for "a suspended app gets no callback").
  private var lastState: [AppID: AppState] = [:]
  private var checkedUpTo = 1
  private var nextToken = 1

  public init(seed: UInt64) {
    rng = SeededGenerator(seed: seed)
    let versions = OSProfile.supportedVersions
    let version = versions[Int(rng.next() % UInt64(versions.count))]
    var quirks = QuirkSet()
    for q in Quirk.allCases where rng.next() % 4 == 0 { quirks.insert(q) }
    let memory: Int? = [nil, 1000, 2000, 4000][Int(rng.next() % 4)]
    device = try! Device(profile: OSProfile(version: version), seed: seed, debugger: rng.next() % 5 == 0,
                         memoryMB: memory, quirks: quirks)
    device.trapsOnViolation = false
    device.passcode = rng.next() % 2 == 0
    device.host = self
    let creations = Creation.allCases
    for i in 0..<(1 + Int(rng.next() % 4)) {
      let modes = [["audio"], ["fetch", "remote-notification"], []][Int(rng.next() % 3)]
      let root = rng.next() % 4 == 0 ? nil
        : ObjectSpec(className: "Root\(i)", creation: creations[Int(rng.next() % 3)],
                     overridesLoadView: rng.next() % 5 == 0)
      let id = try! device.install(AppConfig(
        bundle: "com.fuzz.app\(i)", scenes: rng.next() % 3 != 0, exitsOnSuspend: rng.next() % 5 == 0,
        backgroundModes: modes, footprintMB: Double(50 + rng.next() % 400), root: root))
      apps.append(id)
      // Handlers for a random subset of callbacks, so the host acts as app code.
      for c in Callback.allCases where rng.next() % 3 == 0 { device.setHandled(c, for: id) }
    }
  }


  /// Runs `steps` random actions; returns the first failure, if any.
  public func run(steps: Int) throws -> String? {
    defer { device.host = nil }  // the device holds its host strongly: break the cycle
    for step in 0..<steps {
      let name: String
      do { name = try act() } catch { return "step \(step): \(error)\n" + recentTrace() }
      let problems = device.invariantViolations() + callbacksToSleepingApps()
      if !problems.isEmpty { return "step \(step) (\(name)): \(problems.joined(separator: "; "))\n" + recentTrace() }
    }
    return nil
  }

  /// The last records, to show how a failure came about.
  private func recentTrace() -> String {
    let from = max(1, device.trace.nextSeq - 40)
    return TraceWriter(format: .text).render(device.trace, since: from)
  }

  /// One random action, drawn as the shared sequences draw it. A refused
  /// action is fine; any other error is a failure.
  private func act() throws -> String {
    let (app, action) = FuzzAction.draw(&rng, apps: apps)
    do {
      try action.take(on: device, app: app)
    } catch let e as SimulationError where e.isRefusal {
      // refused: a legal outcome
    } catch SimulationError.horizonReached {
      // a long advance with timers left: legal
    }
    return action.name
  }

  /// Callback records for an app whose last recorded state is suspended or not running.
  private func callbacksToSleepingApps() -> [String] {
    var found: [String] = []
    for r in device.trace.records.dropFirst(checkedUpTo - 1) {
      guard let app = r.app else { continue }
      if r.kind == .state, let to = r.to { lastState[app] = to }
      if r.kind == .callback, let state = lastState[app], state == .suspended || state == .notRunning {
        found.append("\(r.callback!.selector) delivered to \(device[app].config.bundle) while \(state) (seq \(r.seq))")
      }
    }
    checkedUpTo = device.trace.nextSeq
    return found
  }

  // MARK: - DeviceHost: app code that does random, legal things

  public func handle(_ delivery: Delivery, on device: Device) throws -> HandlerResult {
    let id = delivery.app
    switch rng.next() % 12 {
    case 0: try device.work(SimTime(microseconds: Int64(rng.next() % 3000) * 1000))
    case 1: try device.allocate(Double(rng.next() % 300), app: id)
    case 2: try device.release(Double(rng.next() % 300), app: id)
    case 3: _ = try device.beginBackgroundTask(app: id, name: "t", expiration: token())
    case 4: if let t = device[id].tasks.first { _ = device.endBackgroundTask(app: id, task: t.id) }
    case 5: try device.markDirty(app: id, count: 1)
    case 6: try device.save(app: id, taking: SimTime(microseconds: 100_000))
    case 7: try device.scheduleAppTimer(token(), app: id, after: .seconds(Int64(rng.next() % 60)))
    case 8:
      // App code may push; a transition in progress refuses it.
      do { _ = try device.push(ObjectSpec(className: "Pushed", creation: .code), app: id) } catch let e as SimulationError where e.isRefusal {}
    default: break
    }
    return rng.next() % 10 == 0 ? .bool(false) : .none
  }

  public func observe(_ notification: AppNotification, app: AppID, on device: Device) throws {}
  public func fire(_ token: HostToken, on device: Device, app: AppID?) throws {
    if let app, rng.next() % 2 == 0 { try device.markDirty(app: app, count: 1) }
  }
  public func release(_ token: HostToken, on device: Device) {}
  public func expire(_ token: HostToken, task: Int32, app: AppID, on device: Device) throws {
    if rng.next() % 2 == 0 { _ = device.endBackgroundTask(app: app, task: task) }
  }
  public func backgroundTime(for app: AppID, on device: Device) throws -> SimTime { device.policy.backgroundTime }
  public func chooseVictim(_ candidates: [VictimCandidate], on device: Device) throws -> AppID { candidates[0].app }

  private func token() -> HostToken {
    nextToken += 1
    return HostToken(nextToken)
  }
}
