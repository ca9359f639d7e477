import Testing
@testable import LifeSimEngine

/// A host whose handlers and scheduled functions are closures, so a test can
/// act at a time of its choosing while a handler works.
private final class ScriptedHost: DeviceHost {
  var onHandle: ((Delivery, Device) throws -> Void)?
  var onObserve: ((AppNotification, Device) throws -> Void)?
  var onFire: [Int: (Device) throws -> Void] = [:]
  var ranAfterKill = false

  func handle(_ d: Delivery, on device: Device) throws -> HandlerResult {
    try onHandle?(d, device)
    return .none
  }
  func observe(_ n: AppNotification, app: AppID, on device: Device) throws { try onObserve?(n, device) }
  func fire(_ token: HostToken, on device: Device, app: AppID?) throws { try onFire[token.rawValue]?(device) }
  func release(_ token: HostToken, on device: Device) {}
  func expire(_ token: HostToken, task: Int32, app: AppID, on device: Device) throws {}
  func backgroundTime(for app: AppID, on device: Device) throws -> SimTime { .seconds(30) }
  func chooseVictim(_ candidates: [VictimCandidate], on device: Device) throws -> AppID { candidates[0].app }
}

/// Reference §3.8: the device does not wait for an app's busy main thread.
struct BusyMainThreadTests {
  private func scene(_ dev: Device) throws -> (AppID, ScriptedHost) {
    let app = try dev.install(AppConfig(bundle: "com.example.notes"))
    let host = ScriptedHost()
    dev.host = host
    return (app, host)
  }

  @Test func aSwipeInsideASaveKillsAtItsTimeAndTheSaveIsLost() throws {
    let dev = Device(profile: try OSProfile(version: 17), seed: 1)
    let (app, host) = try scene(dev)
    dev.setHandled(.sceneDidEnterBackground, for: app)
    host.onHandle = { d, dev in
      guard d.callback == .sceneDidEnterBackground else { return }
      try dev.markDirty(app: app, count: 3)
      try dev.save(app: app, taking: .seconds(8))
      host.ranAfterKill = true
    }
    try dev.launch(app)
    host.onFire[1] = { dev in try dev.home() }
    host.onFire[2] = { dev in try dev.openSwitcher(); try dev.forceQuit(app) }
    dev.schedule(HostToken(1), at: .seconds(10))
    dev.schedule(HostToken(2), at: .seconds(14))
    try dev.run()
    #expect(!host.ranAfterKill)
    let kill = dev.trace.records(kind: .kill)
    #expect(kill.map(\.time) == [.seconds(14)] && kill.map(\.reason) == [.user])
    #expect(kill.first?.detail == "during sceneDidEnterBackground:, 4 s into 8 s of work")
    let loss = dev.trace.records(kind: .dataLoss)
    #expect(loss.map(\.time) == [.seconds(14)] && loss.first?.unsaved == 3)
    #expect(dev[app].state == .notRunning && dev.killedWhileRunning == nil && dev.workFrames.isEmpty)
    // The handler's record carries the time it ran until the kill.
    let worked = dev.trace.records(kind: .callback).last { $0.callback == .sceneDidEnterBackground }
    #expect(worked?.duration == .seconds(4))
  }

  @Test func whatTheAppIsToldWaitsAndArrivesInOrder() throws {
    let dev = Device(profile: try OSProfile(version: 12), seed: 1)
    let app = try dev.install(AppConfig(bundle: "com.example.notes"))
    let host = ScriptedHost()
    dev.host = host
    dev.setHandled(.didBecomeActive, for: app)
    var states: [String] = []
    host.onHandle = { d, dev in
      if d.callback == .didBecomeActive && dev.now == .zero { try dev.work(.seconds(4)) }
    }
    host.onFire[1] = { dev in
      try dev.home()
      states.append("\(dev[app].state)/\(dev.systemState(app))")
    }
    dev.schedule(HostToken(1), at: .seconds(1))
    try dev.launch(app)
    #expect(states == ["active/background"])
    // Home is recorded at t=1; the app's callbacks come at t=4, in order.
    #expect(dev.trace.records(kind: .action).map(\.time) == [.zero, .seconds(1)])
    let late = dev.trace.records(kind: .callback).filter { $0.time == .seconds(4) }.compactMap(\.callback)
    #expect(late == [.willResignActive, .didEnterBackground])
    let wait = dev.trace.records(kind: .wait)
    #expect(wait.count == 1 && wait.first?.time == .seconds(4))
    #expect(wait.first?.detail == "leaving the screen, asked at t=1, waited 3 s for the main thread")
    #expect(dev[app].state == .suspended && dev.waiting.isEmpty)
  }

  @Test func aLateSceneUpdateCountsItsWatchdogFromTheTimeAsked() throws {
    let dev = Device(profile: try OSProfile(version: 12), seed: 1)
    let app = try dev.install(AppConfig(bundle: "com.example.notes"))
    let host = ScriptedHost()
    dev.host = host
    dev.setHandled(.didBecomeActive, for: app)
    // A timer's handler has no watchdog of its own: it works from t=1.
    host.onHandle = { d, dev in
      if d.callback == .didBecomeActive { try dev.scheduleAppTimer(HostToken(7), app: app, after: .seconds(1)) }
    }
    host.onFire[7] = { dev in try dev.work(.seconds(60)) }
    host.onFire[1] = { dev in try dev.home() }
    dev.schedule(HostToken(1), at: .seconds(5))
    try dev.launch(app)
    try dev.run()
    // Home at t=5 asks for a scene update: 10 s later the busy app dies.
    let kill = dev.trace.records(kind: .kill)
    #expect(kill.map(\.time) == [.seconds(15)] && kill.map(\.reason) == [.watchdog])
    #expect(kill.first?.detail == "scene-update")
    #expect(dev.trace.records(kind: .callback).filter { $0.time > .zero }.isEmpty)
  }

  @Test func nestedHandlersOfTheKilledAppUnwindTogether() throws {
    let dev = Device(profile: try OSProfile(version: 12), seed: 1)
    let app = try dev.install(AppConfig(bundle: "com.example.notes", footprintMB: 100))
    let host = ScriptedHost()
    dev.host = host
    dev.setHandled(.didEnterBackground, for: app)
    dev.setHandled(.didReceiveMemoryWarning, for: app)
    var outerReturned = false
    host.onHandle = { d, dev in
      if d.callback == .didEnterBackground {
        _ = try dev.beginBackgroundTask(app: app, name: "save", expiration: nil)
        try dev.work(.seconds(10))
        outerReturned = true
      }
    }
    host.onFire[1] = { dev in try dev.memoryWarning() }
    host.onFire[2] = { dev in try dev.forceQuit(app) }
    try dev.launch(app)
    dev.schedule(HostToken(1), at: .seconds(2))
    dev.schedule(HostToken(2), at: .seconds(3))
    try dev.home()
    #expect(!outerReturned)
    // The memory warning waited for the main thread, and died with the process.
    #expect(dev.trace.records(kind: .callback).filter { $0.callback == .didReceiveMemoryWarning }.isEmpty)
    #expect(dev.trace.records(kind: .kill).map(\.time) == [.seconds(3)])
    #expect(dev.waiting.isEmpty && dev.workFrames.isEmpty && dev.busy == nil)
    #expect(dev.invariantViolations().isEmpty)
  }

  @Test func anotherAppsCallbacksAndTimersRunDuringTheWork() throws {
    let dev = Device(profile: try OSProfile(version: 12), seed: 1)
    let a = try dev.install(AppConfig(bundle: "a"))
    let b = try dev.install(AppConfig(bundle: "b"))
    let host = ScriptedHost()
    dev.host = host
    dev.setHandled(.didEnterBackground, for: a)
    dev.setHandled(.didBecomeActive, for: b)
    var seen: [String] = []
    host.onHandle = { d, dev in
      if d.app == a && d.callback == .didEnterBackground {
        _ = try dev.beginBackgroundTask(app: a, name: "upload", expiration: nil)
        try dev.work(.seconds(6))
        seen.append("a done at \(dev.now.shortDescription)")
      } else if d.app == b {
        seen.append("b active at \(dev.now.shortDescription)")
      }
    }
    host.onFire[1] = { dev in try dev.launch(b) }
    try dev.launch(a)
    dev.schedule(HostToken(1), at: .seconds(3))
    try dev.home()  // a works from t=0 to t=6; b comes forward at t=3
    #expect(seen == ["b active at 3", "a done at 6"])
    #expect(dev.now == .seconds(6))
    #expect(dev.trace.records(kind: .wait).isEmpty && dev.heldByWork == 0)
  }

  @Test func theRestOfAScreenChangeDoesNotWaitForAHandler() throws {
    let dev = Device(profile: try OSProfile(version: 12), seed: 1)
    let a = try dev.install(AppConfig(bundle: "a"))
    let b = try dev.install(AppConfig(bundle: "b"))
    let host = ScriptedHost()
    dev.host = host
    dev.setHandled(.didEnterBackground, for: a)
    dev.setHandled(.didBecomeActive, for: b)
    var seen: [String] = []
    host.onHandle = { d, dev in
      if d.app == a { try dev.work(.seconds(3)); seen.append("a done at \(dev.now.shortDescription)") }
      if d.app == b { seen.append("b active at \(dev.now.shortDescription)") }
    }
    try dev.launch(a)
    try dev.launch(b)  // a leaves the screen and works 3 s there; b comes forward meanwhile
    #expect(seen == ["b active at 0", "a done at 3"])
    #expect(dev[b].state == .active && dev[a].state == .suspended && dev.frontmost == b)
    #expect(dev.screenChanges.isEmpty && dev.invariantViolations().isEmpty)
  }

  @Test func aComebackWhileTheAppStillWorksLeavesItInFront() throws {
    let dev = Device(profile: try OSProfile(version: 12), seed: 1)
    let app = try dev.install(AppConfig(bundle: "com.example.notes"))
    let host = ScriptedHost()
    dev.host = host
    dev.setHandled(.didEnterBackground, for: app)
    host.onHandle = { d, dev in if d.callback == .didEnterBackground { try dev.work(.seconds(4)) } }
    host.onFire[1] = { dev in try dev.launch(app) }
    try dev.launch(app)
    dev.schedule(HostToken(1), at: .seconds(2))
    let m = dev.mark()
    try dev.home()
    #expect(dev[app].state == .active && dev.frontmost == app)
    #expect(dev.callbacks(since: m) == ["applicationWillResignActive:", "applicationDidEnterBackground:",
                                        "applicationWillEnterForeground:", "applicationDidBecomeActive:"])
    // Never suspended in between: the user's tap waited for it.
    #expect(!dev.trace.records(kind: .state, since: m).contains { $0.toName == "suspended" })
  }

  @Test func aWorkloadsUserActsAtItsTimeWhileAHandlerWorks() throws {
    let dev = Device(profile: try OSProfile(version: 12), seed: 5, memoryMB: 100_000)
    let apps = try (1...3).map { try dev.install(AppConfig(bundle: "app\($0)")) }
    let host = ScriptedHost()
    dev.host = host
    // Every app works 8 s as it becomes active: the user's next act, drawn
    // a few seconds later, is due inside that work.
    for app in apps { dev.setHandled(.didBecomeActive, for: app) }
    host.onHandle = { d, dev in if d.callback == .didBecomeActive { try dev.work(.seconds(8)) } }
    var user = UserModel(apps: apps)
    user.switchMean = .seconds(5)
    try dev.drive(user, for: .seconds(600))
    // The user's acts are events: one due while a handler works comes at
    // its time, inside the work, and none waits for the handler.
    let working = dev.trace.records(kind: .callback).filter { $0.callback == .didBecomeActive && $0.duration != nil }
    let during = dev.trace.records(kind: .action).filter { a in
      working.contains { w in w.time < a.time && a.time < w.time + w.duration! }
    }
    #expect(!working.isEmpty && !during.isEmpty, "\(working.count) working handlers, \(during.count) actions during them")
    #expect(!dev.trace.records(kind: .wait).contains { $0.detail?.contains("the user's action due at") == true })
    // The drive leaves nothing behind, and the user stops at its end (the
    // work running then may go past it).
    #expect(dev.scriptDue == nil && dev.userDriver == nil)
    #expect(!dev.kernel.containsPending { if case .user = $0.action { true } else { false } })
    #expect(dev.trace.records(kind: .action).allSatisfy { $0.time < .seconds(600) })
  }

  /// A workload's act made of two actions (Home, then the icon): when a
  /// handler of the first works, the second comes at once, during the work,
  /// as the user's tap does on a device (§3.8); acts stay in order.
  @Test func aWorkloadsActTakesItsNextActionWhileAHandlerWorks() throws {
    let dev = Device(profile: try OSProfile(version: 12), seed: 5, memoryMB: 100_000)
    let apps = try (1...3).map { try dev.install(AppConfig(bundle: "app\($0)")) }
    let host = ScriptedHost()
    dev.host = host
    for app in apps { dev.setHandled(.didEnterBackground, for: app) }
    host.onHandle = { d, dev in if d.callback == .didEnterBackground { try dev.work(.seconds(3)) } }
    var user = UserModel(apps: apps)
    user.switchMean = .seconds(60)
    try dev.drive(user, for: .seconds(600))
    let actions = dev.trace.records(kind: .action)
    let pairs = zip(actions, actions.dropFirst()).filter { $0.0.action == .home && $0.1.action == .launch }
    #expect(!pairs.isEmpty && pairs.allSatisfy { $0.0.time == $0.1.time }, "\(pairs.map { ($0.0.time, $0.1.time) })")
    #expect(!dev.trace.records(kind: .wait).contains { $0.detail?.contains("the user's action due at") == true })
    // The acts come in the order drawn: the trace's actions never go back in time.
    #expect(zip(actions, actions.dropFirst()).allSatisfy { $0.0.time <= $0.1.time })
  }

  /// A drive that locks and unlocks while handlers work long: every act's
  /// actions are taken before the next act begins, so none meets a phone
  /// the act after it locked.
  @Test func aDriveWithSessionsKeepsEachActWholeWhileHandlersWork() throws {
    let dev = Device(profile: try OSProfile(version: 12), seed: 1, debugger: true)
    let apps = try ["a", "b"].map { try dev.install(AppConfig(bundle: $0)) }
    let host = ScriptedHost()
    dev.host = host
    for app in apps { dev.setHandled(.willResignActive, for: app) }
    host.onHandle = { d, dev in if d.callback == .willResignActive { try dev.work(.seconds(60)) } }
    var user = UserModel(apps: apps)
    user.switchMean = .seconds(10)
    user.sessionMean = .seconds(20)
    user.idleMean = .seconds(300)
    let summary = try dev.drive(user, for: .seconds(3600))
    #expect(summary.locks > 0 && summary.switches > 0)
  }

  /// The notification that wakes the user opens its app once, though the
  /// unlock's handlers work: the next notification is drawn before the act
  /// after the wake.
  @Test func aWakingNotificationOpensItsAppOnceWhileTheUnlockWorks() throws {
    func notifications(work: SimTime) throws -> Int {
      let dev = Device(profile: try OSProfile(version: 12), seed: 4, debugger: true)
      let apps = try (1...3).map { try dev.install(AppConfig(bundle: "app\($0)")) }
      let host = ScriptedHost()
      dev.host = host
      for app in apps { dev.setHandled(.willEnterForeground, for: app) }
      host.onHandle = { d, dev in if d.callback == .willEnterForeground { try dev.work(work) } }
      var user = UserModel(apps: apps)
      user.switchMean = .seconds(600)
      user.sessionMean = .seconds(30)
      user.idleMean = .seconds(3600)
      user.notificationsPerHour = 60
      return try dev.drive(user, for: .seconds(7200)).notifications
    }
    let still = try notifications(work: .zero), working = try notifications(work: .seconds(1))
    #expect(still > 20 && working * 10 <= still * 13, "\(working) notifications with work, \(still) without")
  }

  /// §3.1: a return to the foreground is one scene update: the work of
  /// every handler before the app becomes active counts against one
  /// watchdog, which bites though no handler alone reaches its limit.
  @Test func aComebacksWatchdogWatchesEveryHandlerBeforeActivation() throws {
    let dev = Device(profile: try OSProfile(version: 12), seed: 1)
    let app = try dev.install(AppConfig(bundle: "com.example.notes"))
    let host = ScriptedHost()
    dev.host = host
    dev.setHandled(.willEnterForeground, for: app)
    dev.setHandled(.didBecomeActive, for: app)
    let each = SimTime(microseconds: dev.policy.watchdogSceneUpdate.microseconds * 6 / 10)
    host.onHandle = { d, dev in
      if d.callback == .willEnterForeground || d.callback == .didBecomeActive { try dev.work(each) }
    }
    try dev.launch(app)  // a launch: its own watchdog, longer than the work
    try dev.home()
    try dev.advance(by: .seconds(20))
    let comeback = dev.now
    try dev.launch(app)
    let kill = dev.trace.records(kind: .kill)
    #expect(kill.map(\.reason) == [.watchdog] && kill.first?.detail?.contains("scene-update") == true, "\(kill.map(\.detail))")
    #expect(kill.first.map { $0.time - comeback } == dev.policy.watchdogSceneUpdate)
    #expect(dev.watchdogs.armed == nil)
  }

  /// An app that comes back and becomes active leaves no watchdog armed:
  /// work after the comeback is not judged by it.
  @Test func aComebacksWatchdogEndsAtActivation() throws {
    let dev = Device(profile: try OSProfile(version: 12), seed: 1)
    let app = try dev.install(AppConfig(bundle: "com.example.notes"))
    try dev.launch(app)
    try dev.home()
    try dev.advance(by: .seconds(20))
    try dev.launch(app)
    #expect(dev.watchdogs.armed == nil && dev.trace.records(kind: .kill).isEmpty)
  }

  /// §3.1: an observer of a transition's notification runs inside the
  /// transition, so the transition's watchdog watches its work as it does
  /// the callback's.
  @Test func anObserversWorkIsWatchedByItsTransitionsWatchdog() throws {
    let dev = Device(profile: try OSProfile(version: 12), seed: 1)
    let app = try dev.install(AppConfig(bundle: "com.example.notes"))
    let host = ScriptedHost()
    dev.host = host
    dev.setObserved(.willEnterForeground, for: app)
    host.onObserve = { n, dev in if n == .willEnterForeground { try dev.work(.seconds(300)) } }
    try dev.launch(app)
    try dev.home()
    try dev.advance(by: .seconds(20))
    try dev.launch(app)
    let kill = dev.trace.records(kind: .kill)
    #expect(kill.map(\.reason) == [.watchdog] && kill.first?.detail?.contains("scene-update") == true, "\(kill.map(\.detail))")
    #expect(kill.first.map { $0.time - .seconds(20) } == dev.policy.watchdogSceneUpdate)
  }
}
