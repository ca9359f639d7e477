import Testing
@testable import LifeSimEngine

/// A host whose launch and expiration handlers are Swift closures.
private final class TaskHost: DeviceHost {
  var onLaunch: ((BGTaskRun, Device) throws -> Void)?
  var onExpire: ((BGTaskRun, Device) throws -> Void)?
  var delay: ((BGTaskRequest, Device) -> SimTime?)?
  var ended: [Int32] = []

  func handle(_ d: Delivery, on device: Device) throws -> HandlerResult { .none }
  func observe(_ n: AppNotification, app: AppID, on device: Device) throws {}
  func fire(_ token: HostToken, on device: Device, app: AppID?) throws {}
  func release(_ token: HostToken, on device: Device) {}
  func expire(_ token: HostToken, task: Int32, app: AppID, on device: Device) throws {}
  func backgroundTime(for app: AppID, on device: Device) throws -> SimTime { .seconds(30) }
  func chooseVictim(_ candidates: [VictimCandidate], on device: Device) throws -> AppID { candidates[0].app }
  func launchTask(_ run: BGTaskRun, app: AppID, on device: Device) throws { try onLaunch?(run, device) }
  func expireTask(_ run: BGTaskRun, app: AppID, on device: Device) throws -> Bool {
    guard let onExpire else { return false }
    try onExpire(run, device)
    return true
  }
  var delayFails = false
  func taskDelay(_ request: BGTaskRequest, app: AppID, on device: Device) throws -> SimTime? {
    if delayFails { throw SimulationError.policyFailed(policy: "task_scheduler", message: "down") }
    return delay.map { $0(request, device) } ?? .zero
  }
  func taskEnded(_ run: BGTaskRun, app: AppID, on device: Device) { ended.append(run.number) }
}

/// BGTaskBook's checks, with no device (reference §3.5).
struct BGTaskBookTests {
  private let refresh = BGTaskRequest(identifier: "r", kind: .refresh, earliest: .zero)

  /// A wildcard entry matches a continued task's identifier only, and only
  /// where continued tasks exist (iOS 26).
  @Test func aWildcardMatchesContinuedIdentifiersOnly() {
    var book = BGTaskBook(permitted: ["com.x.*"])
    #expect(book.register("com.x.sync", launching: false, everyLaunch: false, wildcards: false) == .notDeclared("com.x.sync"))
    #expect(book.register("com.x.", launching: false, everyLaunch: false) == .notDeclared("com.x."))
    #expect(book.register("com.x.sync", launching: false, everyLaunch: false) == nil)
    #expect(book.check(BGTaskRequest(identifier: "com.x.sync", kind: .refresh, earliest: .zero), modes: ["fetch"])
            == .identifierNotPermitted("com.x.sync"))
    #expect(book.check(BGTaskRequest(identifier: "com.x.sync", kind: .continued, earliest: .zero), modes: []) == nil)
  }

  @Test func registrationNeedsADeclaredIdentifierOnceAndDuringLaunch() {
    var book = BGTaskBook(permitted: ["r", "p"])
    #expect(book.register("x", launching: true, everyLaunch: true) == .notDeclared("x"))
    #expect(book.register("r", launching: false, everyLaunch: false) == .registeredLate("r"))
    #expect(book.register("r", launching: true, everyLaunch: true) == nil)
    #expect(book.register("r", launching: true, everyLaunch: false) == .registeredTwice("r"))
    #expect(book.register("p", launching: true, everyLaunch: false) == nil)
    _ = book.processEnded()
    #expect(book.registered == ["r"])  // the process's own registration went with it
  }

  @Test func submitChecksInIOSsOrderAndReplacesByIdentifier() {
    var book = BGTaskBook(permitted: ["r", "r2", "p"])
    #expect(book.submit(BGTaskRequest(identifier: "x", kind: .refresh, earliest: .zero), modes: ["fetch"]) == .identifierNotPermitted("x"))
    #expect(book.submit(refresh, modes: []) == .modeMissing(.refresh))
    #expect(book.submit(refresh, modes: ["fetch"]) == .noHandler("r"))
    _ = book.register("r", launching: true, everyLaunch: true)
    _ = book.register("r2", launching: true, everyLaunch: true)
    #expect(book.submit(refresh, modes: ["fetch"]) == nil)
    var later = refresh
    later.earliest = .seconds(60)
    #expect(book.submit(later, modes: ["fetch"]) == nil)
    #expect(book.pending == [later])
    #expect(book.submit(BGTaskRequest(identifier: "r2", kind: .refresh, earliest: .zero), modes: ["fetch"]) == .tooMany(.refresh))
    #expect(book.violations().isEmpty)
  }

  @Test func aRequestThatReplacesOneOfAnotherKindCountsInItsOwnKind() {
    var book = BGTaskBook(permitted: ["r", "p"])
    _ = book.register("r", launching: true, everyLaunch: true)
    _ = book.register("p", launching: true, everyLaunch: true)
    #expect(book.submit(refresh, modes: ["fetch", "processing"]) == nil)
    #expect(book.submit(BGTaskRequest(identifier: "p", kind: .processing, earliest: .zero), modes: ["fetch", "processing"]) == nil)
    // "p" as a refresh request would be a second refresh request.
    #expect(book.submit(BGTaskRequest(identifier: "p", kind: .refresh, earliest: .zero), modes: ["fetch", "processing"])
      == .tooMany(.refresh))
    #expect(book.violations().isEmpty)
  }

  @Test func tenProcessingRequestsMayBePending() {
    let ids = (1...11).map { "p\($0)" }
    var book = BGTaskBook(permitted: ids)
    for id in ids { _ = book.register(id, launching: true, everyLaunch: true) }
    for id in ids.prefix(10) {
      #expect(book.submit(BGTaskRequest(identifier: id, kind: .processing, earliest: .zero), modes: ["processing"]) == nil)
    }
    #expect(book.submit(BGTaskRequest(identifier: "p11", kind: .processing, earliest: .zero), modes: ["processing"])
      == .tooMany(.processing))
  }
}

/// The device runs what the book lets through (reference §3.5).
struct BackgroundTaskSchedulerTests {
  private func feed() throws -> (Device, AppID, TaskHost) {
    let dev = Device(profile: try OSProfile(version: 17), seed: 1)
    var config = AppConfig(bundle: "com.example.feed", backgroundModes: ["fetch", "processing"])
    config.backgroundTasks = ["r", "p"]
    let app = try dev.install(config)
    let host = TaskHost()
    dev.host = host
    try dev.registerTask(app, identifier: "r")
    try dev.registerTask(app, identifier: "p")
    return (dev, app, host)
  }

  /// The app is launched and sent home, submits a far refresh request, and
  /// its task, run by the debugger's call, submits `request` and completes.
  private func submitted(_ dev: Device, _ app: AppID, _ host: TaskHost, _ request: BGTaskRequest) throws {
    try dev.launch(app)
    try dev.home()
    host.onLaunch = { run, dev in
      try dev.submitTask(app, request)
      dev.completeTask(app, number: run.number, success: true)
    }
    try dev.submitTask(app, BGTaskRequest(identifier: "r", kind: .refresh, earliest: .seconds(86_400)))
    try dev.runTask(app, identifier: "r")
    host.onLaunch = nil
  }

  @Test func aRefreshRequestRunsAtItsEarliestTimeAndHoldsTheProcessUntilItCompletes() throws {
    let (dev, app, host) = try feed()
    try submitted(dev, app, host, BGTaskRequest(identifier: "r", kind: .refresh, earliest: dev.now + .seconds(900)))
    #expect(dev[app].state == .suspended)
    var started: SimTime?
    host.onLaunch = { run, dev in started = dev.now; #expect(dev[app].state == .background) }
    try dev.advance(by: .seconds(901))
    #expect(started == .seconds(900))
    #expect(dev[app].state == .background)  // held: the task has not completed
    let run = try #require(dev[app].bgTasks.running.first)
    #expect(dev.completeTask(app, number: run.number, success: true))
    try dev.advance(by: .seconds(1))
    #expect(dev[app].state == .suspended)
    #expect(!dev.completeTask(app, number: run.number, success: true))  // twice: not running
  }

  @Test func anUncompletedTaskExpiresAt30SecondsAndIsKilled5SecondsLater() throws {
    let (dev, app, host) = try feed()
    try submitted(dev, app, host, BGTaskRequest(identifier: "r", kind: .refresh, earliest: dev.now + .seconds(10)))
    var expired: SimTime?
    host.onExpire = { _, dev in expired = dev.now }
    try dev.advance(by: .seconds(100))
    #expect(expired == .seconds(40))
    let kill = try #require(dev.trace.records(kind: .kill).last)
    #expect(kill.time == .seconds(45) && kill.reason == .backgroundTask)
    #expect(dev[app].state == .notRunning)
  }

  @Test func aProcessingRequestRunsOnlyLockedAndOnPowerWhenAskedAndExpiresAtUnlock() throws {
    let (dev, app, host) = try feed()
    try submitted(dev, app, host, BGTaskRequest(identifier: "p", kind: .processing, earliest: dev.now + .seconds(10),
                                                  requiresPower: true))
    var runs = 0
    host.onLaunch = { _, _ in runs += 1 }
    var expired = 0
    host.onExpire = { run, dev in expired += 1; dev.completeTask(app, number: run.number, success: false) }
    try dev.advance(by: .seconds(100))
    try dev.lock()
    #expect(runs == 0)
    try dev.setCharging(true)
    #expect(runs == 1)
    try dev.advance(by: .seconds(3_600))
    #expect(expired == 0)
    try dev.unlock()
    #expect(expired == 1 && dev[app].bgTasks.running.isEmpty)
  }

  @Test func aForceQuitBlocksRefreshUntilTheUserOpensTheApp() throws {
    let (dev, app, host) = try feed()
    try submitted(dev, app, host, BGTaskRequest(identifier: "r", kind: .refresh, earliest: dev.now + .seconds(10)))
    var runs = 0
    host.onLaunch = { run, dev in runs += 1; dev.completeTask(app, number: run.number, success: true) }
    try dev.openSwitcher()
    try dev.forceQuit(app)
    try dev.advance(by: .seconds(100))
    #expect(runs == 0 && dev[app].bgTasks.pending.count == 1)
    try dev.launch(app)
    #expect(runs == 1 && dev[app].bgTasks.pending.isEmpty)
  }

  /// §3.5: with Background App Refresh off (Low Power Mode, the device's
  /// switch, the app's), a pending request waits and runs once it is on
  /// again, and submit fails with `unavailable`.
  @Test func backgroundAppRefreshOffHoldsRequestsAndRefusesSubmits() throws {
    let (dev, app, host) = try feed()
    try submitted(dev, app, host, BGTaskRequest(identifier: "r", kind: .refresh, earliest: dev.now + .seconds(10)))
    var runs: [SimTime] = []
    host.onLaunch = { run, dev in runs.append(dev.now); dev.completeTask(app, number: run.number, success: true) }
    try dev.setLowPowerMode(true)
    #expect(!dev.backgroundRefreshAvailable(app))
    try dev.advance(by: .seconds(100))
    #expect(runs.isEmpty && dev[app].bgTasks.pending.count == 1)
    let off = dev.now
    try dev.setLowPowerMode(false)
    #expect(runs == [off] && dev[app].bgTasks.pending.isEmpty)
    let later = BGTaskRequest(identifier: "r", kind: .refresh, earliest: .zero)
    for (device, appSwitch, reason) in [(false, true, BGTaskRefusal.RefreshOff.device), (true, false, .app)] {
      try dev.setBackgroundRefresh(nil, device)
      try dev.setBackgroundRefresh(app, appSwitch)
      #expect { try dev.submitTask(app, later) } throws: { "\($0)".contains("BGTaskSchedulerErrorCodeUnavailable: \(reason)") }
    }
    try dev.setBackgroundRefresh(app, true)
    #expect(dev.backgroundRefreshAvailable(app))
    // A processing request waits too, though the device is locked and idle.
    try dev.setBackgroundRefresh(nil, false)
    try dev.setBackgroundRefresh(nil, true)
    try dev.submitTask(app, BGTaskRequest(identifier: "p", kind: .processing, earliest: .zero))
    try dev.setBackgroundRefresh(nil, false)
    try dev.lock()
    try dev.advance(by: .seconds(60))
    #expect(runs.count == 1 && dev[app].bgTasks.pending.count == 1)
    try dev.setBackgroundRefresh(nil, true)
    #expect(runs.count == 2)
  }

  /// §3.5: background fetch stops while Background App Refresh is off.
  @Test func backgroundFetchStopsWhileRefreshIsOff() throws {
    let dev = Device(profile: try OSProfile(version: 12), seed: 1)
    let app = try dev.install(AppConfig(bundle: "com.example.mail", backgroundModes: ["fetch"]))
    try dev.launch(app)
    try dev.home()
    try dev.setBackgroundRefresh(app, false)
    let m = dev.mark()
    #expect { try dev.backgroundFetch(app) } throws: { "\($0)".contains("the app's Background App Refresh switch is off") }
    #expect(dev.callbacks(since: m).isEmpty)
    try dev.setBackgroundRefresh(app, true)
    try dev.backgroundFetch(app)
    #expect(dev.callbacks(since: m).contains("application:performFetchWithCompletionHandler:"))
  }

  @Test func aReplacedRequestsEarlierEventFindsNothing() throws {
    let (dev, app, host) = try feed()
    try submitted(dev, app, host, BGTaskRequest(identifier: "r", kind: .refresh, earliest: dev.now + .seconds(10)))
    var runs: [SimTime] = []
    host.onLaunch = { run, dev in
      runs.append(dev.now)
      if runs.count == 1 { try dev.submitTask(app, BGTaskRequest(identifier: "r", kind: .refresh, earliest: dev.now + .seconds(100))) }
      dev.completeTask(app, number: run.number, success: true)
    }
    try dev.advance(by: .seconds(200))
    #expect(runs == [.seconds(10), .seconds(110)])
  }

  /// A handler that resubmits with no earliest time runs again a minute
  /// later, not at the same instant forever.
  @Test func aResubmitWithNoEarliestTimeWaitsTheRerunFloor() throws {
    let (dev, app, host) = try feed()
    try submitted(dev, app, host, BGTaskRequest(identifier: "r", kind: .refresh, earliest: dev.now + .seconds(10)))
    var runs: [SimTime] = []
    host.onLaunch = { run, dev in
      runs.append(dev.now)
      try dev.submitTask(app, BGTaskRequest(identifier: "r", kind: .refresh, earliest: dev.now))
      dev.completeTask(app, number: run.number, success: true)
    }
    try dev.advance(by: .seconds(200))
    #expect(runs == [.seconds(10), .seconds(70), .seconds(130), .seconds(190)])
    // With the debugger's run that submitted the first.
    #expect(dev.stats.tasksRun == 5 && dev.stats.tasksCompleted == 5 && dev.stats.tasksSubmitted == 6)
    // Each ran 60 s after its earliest time (its submission), but the first.
    #expect(dev.stats.taskDelay == .seconds(180))
  }

  /// `task_scheduler`: the host's delay moves the run; nil keeps the request
  /// pending for good (the debugger still runs it); the request's own
  /// conditions still hold.
  @Test func theHostSchedulerDecidesWhenARequestRuns() throws {
    let (dev, app, host) = try feed()
    dev.policy.taskSchedulerFromHost = true
    host.delay = { r, _ in r.kind == .refresh ? .seconds(3_600) : nil }
    try submitted(dev, app, host, BGTaskRequest(identifier: "r", kind: .refresh, earliest: dev.now + .seconds(10)))
    var runs: [SimTime] = []
    host.onLaunch = { run, dev in
      runs.append(dev.now)
      dev.completeTask(app, number: run.number, success: true)
    }
    try dev.advance(by: .seconds(3_000))
    #expect(runs.isEmpty)
    try dev.advance(by: .seconds(700))
    #expect(runs == [.seconds(3_610)])
    #expect(dev.stats.taskDelay == .seconds(3_600))
    // A processing request the scheduler never runs stays pending.
    try submitted(dev, app, host, BGTaskRequest(identifier: "p", kind: .processing, earliest: dev.now))
    try dev.lock()
    try dev.advance(by: .seconds(86_400))
    #expect(dev[app].bgTasks.pending.map(\.identifier).contains("p"))
    #expect(dev[app].bgTasks.pending.first { $0.identifier == "p" }?.runsAt == nil)
    // The host heard of every task that ended.
    #expect(host.ended.count == dev.stats.tasksRun)
  }

  /// §3.5.1: an app suspended while it holds a lock on a shared file is
  /// killed with 0xdead10cc and no callback; one that lets go first is suspended.
  @Test func aFileLockHeldAtSuspensionKillsWithDead10cc() throws {
    let (dev, app, _) = try feed()
    try dev.launch(app)
    try dev.lockFile(app: app, "shared.sqlite")
    #expect(throws: SimulationError.invalidAction(.lockFile, .fileAlreadyLocked(app: "com.example.feed", file: "shared.sqlite"))) {
      try dev.lockFile(app: app, "shared.sqlite")
    }
    try dev.home()
    #expect(dev[app].state == .notRunning)
    let kill = try #require(dev.trace.records(kind: .kill).last)
    #expect(kill.reason == .fileLock && kill.code == 0xdead10cc)
    #expect(dev.stats.kills(.fileLock) == 1 && dev[app].fileLocks.isEmpty)

    try dev.launch(app)
    try dev.lockFile(app: app, "shared.sqlite")
    try dev.unlockFile(app: app, "shared.sqlite")
    #expect(throws: SimulationError.invalidAction(.unlockFile, .fileNotLocked(app: "com.example.feed", file: "shared.sqlite"))) {
      try dev.unlockFile(app: app, "shared.sqlite")
    }
    try dev.home()
    #expect(dev[app].state == .suspended)
  }

  /// A policy that fails leaves the earlier request as it was; a policy's
  /// delay and the floor between runs combine, the later one wins.
  @Test func aFailingPolicyChangesNothingAndTheFloorCombinesWithTheDelay() throws {
    let (dev, app, host) = try feed()
    dev.policy.taskSchedulerFromHost = true
    host.delay = { _, _ in .seconds(30) }
    try submitted(dev, app, host, BGTaskRequest(identifier: "r", kind: .refresh, earliest: dev.now + .seconds(10)))
    let before = dev[app].bgTasks.pending
    host.delayFails = true
    #expect(throws: SimulationError.policyFailed(policy: "task_scheduler", message: "down")) {
      try dev.submitTask(app, BGTaskRequest(identifier: "r", kind: .refresh, earliest: dev.now + .seconds(20)))
    }
    #expect(dev[app].bgTasks.pending == before)
    host.delayFails = false
    var runs: [SimTime] = []
    host.onLaunch = { run, dev in
      runs.append(dev.now)
      if runs.count == 1 { try dev.submitTask(app, BGTaskRequest(identifier: "r", kind: .refresh, earliest: dev.now)) }
      dev.completeTask(app, number: run.number, success: true)
    }
    try dev.advance(by: .seconds(200))
    // 10 + 30; then the floor (40 + 60) is later than 40 + 30.
    #expect(runs == [.seconds(40), .seconds(100)])
  }

  /// §3.5: a continued request comes from a person's action in the
  /// foreground: not from a task's handler; one whose process dies before
  /// it runs goes with it.
  @Test func aContinuedRequestBelongsToTheForegroundProcess() throws {
    let dev = Device(profile: try OSProfile(version: 26), seed: 1)
    var config = AppConfig(bundle: "com.example.video")
    config.backgroundTasks = ["com.example.video.*"]
    let app = try dev.install(config)
    let host = TaskHost()
    dev.host = host
    try dev.launch(app)
    try dev.registerTask(app, identifier: "com.example.video.1")
    var refused: SimulationError?
    host.onLaunch = { run, dev in
      do {
        try dev.submitTask(app, BGTaskRequest(identifier: "com.example.video.1", kind: .continued, earliest: dev.now))
      } catch let e as SimulationError { refused = e }
      dev.completeTask(app, number: run.number, success: true)
    }
    try dev.submitTask(app, BGTaskRequest(identifier: "com.example.video.1", kind: .continued, earliest: dev.now))
    #expect(dev[app].bgTasks.pending.count == 1)
    try dev.advance(by: .seconds(1))
    #expect(refused == .backgroundTaskRefused(.submitTask, app: "com.example.video", .continuedFromBackground))
    // Submitted, then the process dies before the request runs: nothing relaunches it.
    try dev.submitTask(app, BGTaskRequest(identifier: "com.example.video.1", kind: .continued, earliest: dev.now))
    try dev.forceQuit(app)
    try dev.advance(by: .seconds(10))
    #expect(dev[app].state == .notRunning && dev[app].bgTasks.pending.isEmpty)
  }

  /// §3.5, iOS 26: a continued task that reports no progress for 60 s is
  /// expired as stalled; progress puts the check off; the user's cancel
  /// runs the expiration handler; progress belongs to continued tasks only.
  @Test func aContinuedTaskStallsWithoutProgressAndTheUserCancels() throws {
    let dev = Device(profile: try OSProfile(version: 26), seed: 1)
    var config = AppConfig(bundle: "com.example.video", backgroundModes: ["fetch"])
    config.backgroundTasks = ["com.example.video.*", "r"]
    let app = try dev.install(config)
    let host = TaskHost()
    dev.host = host
    try dev.registerTask(app, identifier: "r")
    try dev.launch(app)
    var started: [Int32] = [], expired: [(Int32, SimTime)] = []
    host.onLaunch = { run, _ in started.append(run.number) }
    host.onExpire = { run, dev in
      expired.append((run.number, dev.now))
      dev.completeTask(app, number: run.number, success: false)
    }
    for id in ["com.example.video.a", "com.example.video.b"] {
      try dev.registerTask(app, identifier: id)
      try dev.submitTask(app, BGTaskRequest(identifier: id, kind: .continued, earliest: dev.now))
    }
    try dev.home()
    #expect(started.count == 2)
    try dev.advance(by: .seconds(40))
    try dev.reportTaskProgress(app, number: started[1], fraction: 0.5)  // b: the check moves to t=100
    try dev.advance(by: .seconds(30))
    #expect(expired.map(\.0) == [started[0]] && expired[0].1 == .seconds(60))
    try dev.cancelContinuedTask(app, identifier: "com.example.video.b")
    #expect(expired.map(\.0) == [started[0], started[1]] && expired[1].1 == .seconds(70))
    #expect(dev[app].bgTasks.running.isEmpty && dev[app].state == .suspended)
    // A refresh task reports no progress, and the user cancels none.
    try dev.submitTask(app, BGTaskRequest(identifier: "r", kind: .refresh, earliest: dev.now + .seconds(10)))
    host.onExpire = nil
    try dev.runTask(app, identifier: "r")
    let refresh = try #require(dev[app].bgTasks.running.first)
    #expect(throws: SimulationError.backgroundTaskRefused(.taskProgress, app: "com.example.video", .noProgress(.refresh))) {
      try dev.reportTaskProgress(app, number: refresh.number, fraction: 0.5)
    }
    #expect(throws: SimulationError.backgroundTaskRefused(.action(.cancelTask), app: "com.example.video", .notContinued("r"))) {
      try dev.cancelContinuedTask(app, identifier: "r")
    }
  }

  /// §3.5: with room for one continued task, a second `.queue` request
  /// waits and starts, in submission order, when the first ends, across
  /// apps; a `.fail` request is refused while another runs or waits.
  @Test func continuedTasksQueueOrFailWhenTheSystemRunsItsMost() throws {
    let dev = Device(profile: try OSProfile(version: 26), seed: 1)
    dev.policy.continuedTaskLimit = 1
    var apps: [AppID] = []
    for bundle in ["com.a", "com.b"] {
      var config = AppConfig(bundle: bundle)
      config.backgroundTasks = ["\(bundle).*"]
      apps.append(try dev.install(config))
    }
    let host = TaskHost()
    dev.host = host
    var started: [(String, SimTime)] = []
    host.onLaunch = { run, dev in started.append((run.identifier, dev.now)) }
    func submit(_ app: AppID, _ id: String, _ strategy: ContinuedStrategy = .queue) throws {
      try dev.registerTask(app, identifier: id)
      var r = BGTaskRequest(identifier: id, kind: .continued, earliest: dev.now)
      r.strategy = strategy
      try dev.submitTask(app, r)
    }
    try dev.launch(apps[0])
    try submit(apps[0], "com.a.1")
    try submit(apps[0], "com.a.2")
    try dev.launch(apps[1])
    try submit(apps[1], "com.b.1")
    #expect(throws: SimulationError.backgroundTaskRefused(.submitTask, app: "com.b", .immediateRunIneligible(limit: 1))) {
      try submit(apps[1], "com.b.2", .fail)
    }
    #expect(started.map(\.0) == ["com.a.1"])
    try dev.advance(by: .seconds(5))
    dev.completeTask(apps[0], number: dev[apps[0]].bgTasks.running[0].number, success: true)
    try dev.advance(by: .seconds(5))
    #expect(started.map(\.0) == ["com.a.1", "com.a.2"] && started[1].1 == .seconds(5))
    // The process that holds the running one dies: the next in the queue, another app's, starts.
    try dev.forceQuit(apps[0])
    #expect(started.map(\.0) == ["com.a.1", "com.a.2", "com.b.1"])
    // No limit (the default): a .fail request never fails for room.
    dev.policy.continuedTaskLimit = nil
    try dev.launch(apps[1])
    try submit(apps[1], "com.b.3", .fail)
    try dev.advance(by: .seconds(1))
    #expect(started.last?.0 == "com.b.3")
  }

  /// §3.5: a continued request that requires the GPU needs the app's
  /// entitlement and a device whose `supportedResources` holds `.gpu`: the
  /// iPads by default.
  @Test func aGPURequestNeedsTheEntitlementAndTheDevice() throws {
    for (model, supported) in [("iPhone 16 Pro", false), ("iPad Pro 11 2018", true)] {
      let dev = Device(profile: try OSProfile(version: 26), seed: 1, model: DeviceModel.named(model))
      #expect(dev.taskConditions.backgroundGPU == supported)
      for entitled in [false, true] {
        var config = AppConfig(bundle: "com.x\(entitled)")
        config.backgroundTasks = ["com.x\(entitled).*"]
        config.backgroundGPU = entitled
        let app = try dev.install(config)
        try dev.launch(app)
        try dev.registerTask(app, identifier: "com.x\(entitled).1")
        var r = BGTaskRequest(identifier: "com.x\(entitled).1", kind: .continued, earliest: dev.now)
        r.requiresGPU = true
        let refusal: BGTaskRefusal? = !entitled ? .gpuNotEntitled : !supported ? .gpuUnsupported : nil
        if let refusal {
          #expect(throws: SimulationError.backgroundTaskRefused(.submitTask, app: "com.x\(entitled)", refusal)) { try dev.submitTask(app, r) }
        } else {
          try dev.submitTask(app, r)
        }
      }
    }
    #expect(Device(profile: try OSProfile(version: 26), seed: 1, backgroundGPU: true).taskConditions.backgroundGPU)
  }

  /// Quirk `background_launch_enters_background` (§8.1) holds for a task's
  /// launch and wake as for every other launch in the background: the app
  /// is told it is in the background before its handler runs.
  @Test func theBackgroundLaunchQuirkHoldsForATasksLaunchAndWake() throws {
    for quirk in [false, true] {
      let dev = Device(profile: try OSProfile(version: 17), seed: 1, quirks: QuirkSet(quirk ? [.backgroundLaunchEntersBackground] : []))
      var config = AppConfig(bundle: "com.example.feed", scenes: false, backgroundModes: ["fetch"])
      config.backgroundTasks = ["r"]
      let app = try dev.install(config)
      let host = TaskHost()
      dev.host = host
      try dev.registerTask(app, identifier: "r")
      var toldBackground: [Bool] = []
      host.onLaunch = { run, dev in
        toldBackground.append(dev.trace.records.last { $0.kind == .callback }?.callback == .didEnterBackground)
        try dev.submitTask(app, BGTaskRequest(identifier: "r", kind: .refresh, earliest: dev.now + .seconds(86_400)))
        dev.completeTask(app, number: run.number, success: true)
      }
      try dev.submitTask(app, BGTaskRequest(identifier: "r", kind: .refresh, earliest: .seconds(86_400)))
      try dev.runTask(app, identifier: "r")  // a launch
      #expect(dev[app].state == .suspended)
      try dev.runTask(app, identifier: "r")  // a wake
      #expect(toldBackground == [quirk, quirk])
    }
  }
}
