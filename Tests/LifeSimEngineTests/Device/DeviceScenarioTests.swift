import Testing
@testable import LifeSimEngine

/// A host that records what it is asked and answers from a script of closures.
final class RecordingHost: DeviceHost {
  var handled: [String] = []
  var results: [Callback: HandlerResult] = [:]
  var onHandle: ((Delivery, Device) throws -> Void)?
  var fired: [Int] = []
  var released: [Int] = []

  func handle(_ d: Delivery, on device: Device) throws -> HandlerResult {
    handled.append(d.callback.selector)
    try onHandle?(d, device)
    return results[d.callback] ?? .none
  }
  func observe(_ n: AppNotification, app: AppID, on device: Device) throws { handled.append(n.name) }
  func fire(_ token: HostToken, on device: Device, app: AppID?) throws { fired.append(token.rawValue) }
  func release(_ token: HostToken, on device: Device) { released.append(token.rawValue) }
  var expired: [Int32] = []
  var onExpire: ((Int32, Device) throws -> Void)?
  func expire(_ token: HostToken, task: Int32, app: AppID, on device: Device) throws {
    expired.append(task)
    try onExpire?(task, device)
  }
  var backgroundTime: (AppID) -> SimTime = { _ in .seconds(30) }
  func backgroundTime(for app: AppID, on device: Device) throws -> SimTime { backgroundTime(app) }
  var victim: (([VictimCandidate]) -> AppID)?
  func chooseVictim(_ candidates: [VictimCandidate], on device: Device) throws -> AppID {
    victim?(candidates) ?? candidates[0].app
  }
}

func makeDevice(ios: Int, scenes: Bool? = nil, exitsOnSuspend: Bool = false) throws -> (Device, AppID) {
  let dev = Device(profile: try OSProfile(version: ios), seed: 1)
  let app = try dev.install(AppConfig(bundle: "com.example.notes", scenes: scenes, exitsOnSuspend: exitsOnSuspend))
  return (dev, app)
}

extension Device {
  /// The callbacks since a mark.
  func callbacks(since m: Int) -> [String] { trace.callbacks(since: m) }
}

struct AppDelegateScenarioTests {
  @Test func coldLaunch() throws {
    let (dev, app) = try makeDevice(ios: 12)
    try dev.launch(app)
    #expect(dev.callbacks(since: 1) == [
      "application:willFinishLaunchingWithOptions:", "application:didFinishLaunchingWithOptions:",
      "applicationDidBecomeActive:",
    ])
    #expect(dev[app].state == .active)
    #expect(dev[app].pid == 1 && dev[app].launches == 1)
  }

  @Test func coldLaunchBeforeIOS6HasNoWillFinish() throws {
    let (dev, app) = try makeDevice(ios: 5)
    try dev.launch(app)
    #expect(dev.callbacks(since: 1) == ["application:didFinishLaunchingWithOptions:", "applicationDidBecomeActive:"])
  }

  @Test func homeSnapshotsThenSuspendsSilently() throws {
    let (dev, app) = try makeDevice(ios: 12)
    try dev.launch(app)
    let m = dev.mark()
    try dev.home()
    #expect(dev.callbacks(since: m) == ["applicationWillResignActive:", "applicationDidEnterBackground:"])
    #expect(dev[app].state == .suspended)
    let kinds = dev.trace.records(since: m).map(\.kind)
    #expect(Array(kinds.suffix(2)) == [.snapshot, .state])
  }

  @Test func returnFromSuspension() throws {
    let (dev, app) = try makeDevice(ios: 12)
    try dev.launch(app)
    try dev.home()
    let m = dev.mark()
    try dev.launch(app)
    #expect(dev.callbacks(since: m) == ["applicationWillEnterForeground:", "applicationDidBecomeActive:"])
    #expect(dev[app].launches == 1)
  }

  @Test func lockOnIOS4OnlyResigns() throws {
    let (dev, app) = try makeDevice(ios: 4)
    try dev.launch(app)
    var m = dev.mark()
    try dev.lock()
    #expect(dev.callbacks(since: m) == ["applicationWillResignActive:"])
    m = dev.mark()
    try dev.unlock()
    #expect(dev.callbacks(since: m) == ["applicationDidBecomeActive:"])
  }

  @Test func lockFromIOS5IsLikeHome() throws {
    let (dev, app) = try makeDevice(ios: 5)
    try dev.launch(app)
    var m = dev.mark()
    try dev.lock()
    #expect(dev.callbacks(since: m) == ["applicationWillResignActive:", "applicationDidEnterBackground:"])
    m = dev.mark()
    try dev.unlock()
    #expect(dev.callbacks(since: m) == ["applicationWillEnterForeground:", "applicationDidBecomeActive:"])
    #expect(throws: SimulationError.self) { try dev.unlock() }
  }

  @Test(arguments: Interruption.allCases.filter { $0 != .notificationCenterPeek })
  func interruptionsOnlyResign(kind: Interruption) throws {
    // iOS 10: on 11–12 Notification Center pulled all the way down reactivates the app (below).
    let (dev, app) = try makeDevice(ios: 10)
    try dev.launch(app)
    let m = dev.mark()
    try dev.interrupt(kind)
    #expect(dev[app].state == .inactive)
    try dev.endInterrupt()
    #expect(dev.callbacks(since: m) == ["applicationWillResignActive:", "applicationDidBecomeActive:"])
  }

  @Test func notificationCenterOnIOS12ReactivatesTheAppAndAPeekSpringsBack() throws {
    let (dev, app) = try makeDevice(ios: 12)
    try dev.launch(app)
    var m = dev.mark()
    try dev.interrupt(.notificationCenter)
    #expect(dev[app].state == .active && dev.interruption == .notificationCenter)
    try dev.endInterrupt()
    #expect(dev.callbacks(since: m) == ["applicationWillResignActive:", "applicationDidBecomeActive:",
                                        "applicationWillResignActive:", "applicationDidBecomeActive:"])
    m = dev.mark()
    try dev.interrupt(.notificationCenterPeek)
    #expect(dev.interruption == nil && dev[app].state == .active)
    #expect(dev.callbacks(since: m) == ["applicationWillResignActive:", "applicationDidBecomeActive:"])
  }

  @Test func acceptingACallSendsTheAppToTheBackground() throws {
    let (dev, app) = try makeDevice(ios: 12)
    try dev.launch(app)
    let m = dev.mark()
    try dev.interrupt(.call)
    try dev.endInterrupt(accept: true)
    #expect(dev.callbacks(since: m) == ["applicationWillResignActive:", "applicationDidEnterBackground:"])
    #expect(dev.frontmost == nil)
  }

  @Test func switcherThenSameApp() throws {
    let (dev, app) = try makeDevice(ios: 12)
    try dev.launch(app)
    let m = dev.mark()
    try dev.openSwitcher()
    try dev.switchTo(app)
    #expect(dev.callbacks(since: m) == ["applicationWillResignActive:", "applicationDidBecomeActive:"])
  }

  @Test func switchingToAnotherApp() throws {
    let (dev, notes) = try makeDevice(ios: 12)
    let mail = try dev.install(AppConfig(bundle: "com.example.mail"))
    try dev.launch(notes)
    let m = dev.mark()
    try dev.switchTo(mail)
    #expect(dev.trace.callbacks(app: notes, since: m) == ["applicationWillResignActive:", "applicationDidEnterBackground:"])
    #expect(dev.trace.callbacks(app: mail, since: m).last == "applicationDidBecomeActive:")
    #expect(dev[notes].state == .suspended && dev[mail].state == .active && dev.frontmost == mail)
  }

  @Test func forceQuitFrontmostSuspendedAndNotRunning() throws {
    let (dev, notes) = try makeDevice(ios: 12)
    try dev.launch(notes)
    var m = dev.mark()
    try dev.forceQuit(notes)
    #expect(dev.callbacks(since: m) == [
      "applicationWillResignActive:", "applicationDidEnterBackground:", "applicationWillTerminate:",
    ])
    #expect(dev[notes].state == .notRunning && dev[notes].backgroundLaunchBlocked)
    #expect(dev.trace.records(kind: .kill).last?.reason == .user)

    try dev.launch(notes)
    try dev.home()
    m = dev.mark()
    try dev.forceQuit(notes)
    #expect(dev.callbacks(since: m) == [])
    #expect(dev[notes].state == .notRunning)

    // Gone, card and all: nothing is killed, and the record says so.
    m = dev.mark()
    try dev.forceQuit(notes)
    #expect(dev.trace.records(kind: .kill, since: m).isEmpty)
  }

  /// §2.6 (b). Only background tasks keep a process running in the
  /// background, so the test puts it there through the table directly.
  @Test(arguments: [(12, ["applicationWillTerminate:"]),
                    (13, ["sceneDidDisconnect:", "application:didDiscardSceneSessions:", "applicationWillTerminate:"])])
  func forceQuitWhileRunningInTheBackground(ios: Int, expected: [String]) throws {
    let (dev, app) = try makeDevice(ios: ios)
    try dev.launch(app)
    try dev.walk(.toBackground, app)  // no snapshot, no suspension
    dev.screen.frontmost = nil
    #expect(dev[app].state == .background)
    let m = dev.mark()
    try dev.forceQuit(app)
    #expect(dev.callbacks(since: m) == expected)
    #expect(dev[app].state == .notRunning)
  }

  @Test func openURLColdAndWarm() throws {
    let (dev, app) = try makeDevice(ios: 12)
    try dev.launch(app, url: "notes://a")
    #expect(dev.callbacks(since: 1) == [
      "application:willFinishLaunchingWithOptions:", "application:didFinishLaunchingWithOptions:",
      "application:openURL:options:", "applicationDidBecomeActive:",
    ])
    try dev.home()
    let m = dev.mark()
    try dev.openURL(app, url: "notes://b")
    #expect(dev.callbacks(since: m) == [
      "applicationWillEnterForeground:", "application:openURL:options:", "applicationDidBecomeActive:",
    ])
  }

  @Test func aLaunchMethodReturningFalseRefusesTheURL() throws {
    let (dev, app) = try makeDevice(ios: 12)
    let host = RecordingHost()
    host.results[.didFinishLaunching] = .bool(false)
    dev.host = host
    dev.setHandled(.didFinishLaunching, for: app)
    try dev.launch(app, url: "notes://a")
    #expect(!dev.callbacks(since: 1).contains("application:openURL:options:"))
    #expect(dev[app].state == .active)
  }

  @Test func openURLBeforeIOS9UsesTheSourceApplicationSelector() throws {
    let (dev, app) = try makeDevice(ios: 8)
    try dev.launch(app, url: "notes://a")
    #expect(dev.callbacks(since: 1).contains("application:openURL:sourceApplication:annotation:"))
  }

  @Test func memoryWarningSkipsSuspendedApps() throws {
    let (dev, notes) = try makeDevice(ios: 12)
    let mail = try dev.install(AppConfig(bundle: "com.example.mail"))
    try dev.launch(notes)
    try dev.launch(mail)
    let m = dev.mark()
    try dev.memoryWarning()
    #expect(dev.trace.callbacks(app: mail, since: m) == ["applicationDidReceiveMemoryWarning:"])
    #expect(dev.trace.callbacks(app: notes, since: m) == [])
  }

  @Test func exitsOnSuspendIsHonouredUpTo12() throws {
    let (dev, app) = try makeDevice(ios: 12, exitsOnSuspend: true)
    try dev.launch(app)
    let m = dev.mark()
    try dev.home()
    #expect(dev.callbacks(since: m) == [
      "applicationWillResignActive:", "applicationDidEnterBackground:", "applicationWillTerminate:",
    ])
    #expect(dev[app].state == .notRunning)

    let (dev13, app13) = try makeDevice(ios: 13, scenes: false, exitsOnSuspend: true)
    try dev13.launch(app13)
    try dev13.home()
    #expect(dev13[app13].state == .suspended)
  }

  @Test func everyAppCallbackIsFollowedByItsNotification() throws {
    let (dev, app) = try makeDevice(ios: 12)
    try dev.launch(app)
    try dev.home()
    let records = dev.trace.records()
    for (i, r) in records.enumerated() where r.kind == .callback {
      guard let n = r.callback?.notification else { continue }
      #expect(records[i + 1].kind == .notification && records[i + 1].notification == n)
    }
    _ = app
  }
}

struct SceneScenarioTests {
  @Test func coldLaunchAskForAConfigurationOnlyForANewSession() throws {
    let (dev, app) = try makeDevice(ios: 13)
    try dev.launch(app)
    #expect(dev.callbacks(since: 1) == [
      "application:willFinishLaunchingWithOptions:", "application:didFinishLaunchingWithOptions:",
      "application:configurationForConnectingSceneSession:options:", "scene:willConnectToSession:options:",
      "sceneWillEnterForeground:", "sceneDidBecomeActive:",
    ])
    #expect(dev[app].scenes.map(\.state) == [.foregroundActive])
  }

  @Test func homeAndReturnUseTheSceneDelegateAndStillPostNotifications() throws {
    let (dev, app) = try makeDevice(ios: 17)
    try dev.launch(app)
    var m = dev.mark()
    try dev.home()
    #expect(dev.callbacks(since: m) == ["sceneWillResignActive:", "sceneDidEnterBackground:"])
    let notes = dev.trace.records(kind: .notification, since: m).compactMap(\.notification)
    #expect(notes == [.willResignActive, .didEnterBackground])
    m = dev.mark()
    try dev.launch(app)
    #expect(dev.callbacks(since: m) == ["sceneWillEnterForeground:", "sceneDidBecomeActive:"])
  }

  @Test func forceQuitFrontmostDisconnectsAndDiscards() throws {
    let (dev, app) = try makeDevice(ios: 13)
    try dev.launch(app)
    let m = dev.mark()
    try dev.forceQuit(app)
    #expect(dev.callbacks(since: m) == [
      "sceneWillResignActive:", "sceneDidDisconnect:", "application:didDiscardSceneSessions:",
      "applicationWillTerminate:",
    ])
    // A new session next time: the configuration is asked for again.
    let m2 = dev.mark()
    try dev.launch(app)
    #expect(dev.callbacks(since: m2).contains("application:configurationForConnectingSceneSession:options:"))
    #expect(!dev.callbacks(since: m2).contains("application:didDiscardSceneSessions:"))
  }

  @Test func forceQuitSuspendedReportsTheDiscardAtTheNextLaunch() throws {
    let (dev, app) = try makeDevice(ios: 13)
    try dev.launch(app)
    try dev.home()
    var m = dev.mark()
    try dev.forceQuit(app)
    #expect(dev.callbacks(since: m) == [])
    m = dev.mark()
    try dev.launch(app)
    #expect(dev.callbacks(since: m) == [
      "application:willFinishLaunchingWithOptions:", "application:didFinishLaunchingWithOptions:",
      "application:didDiscardSceneSessions:", "application:configurationForConnectingSceneSession:options:",
      "scene:willConnectToSession:options:", "sceneWillEnterForeground:", "sceneDidBecomeActive:",
    ])
  }

  @Test func urlsArriveInConnectionOptionsColdAndOpenURLContextsWarm() throws {
    let (dev, app) = try makeDevice(ios: 13)
    try dev.launch(app, url: "notes://a")
    let connect = dev.trace.records(kind: .callback).first { $0.callback == .sceneWillConnect }
    #expect(connect?.detail == "notes://a")
    #expect(!dev.callbacks(since: 1).contains("scene:openURLContexts:"))
    let launchOptions = dev.trace.records(kind: .callback).first { $0.callback == .didFinishLaunching }
    #expect(launchOptions?.detail == nil)
    try dev.home()
    let m = dev.mark()
    try dev.openURL(app, url: "notes://b")
    #expect(dev.callbacks(since: m) == ["sceneWillEnterForeground:", "scene:openURLContexts:", "sceneDidBecomeActive:"])
  }

  @Test func sceneManifestIsIgnoredBefore13() throws {
    let (dev, app) = try makeDevice(ios: 12, scenes: true)
    #expect(dev[app].model == .appDelegate)
  }
}

struct ClockAndTimerTests {
  @Test func appTimersWaitWhileSuspendedAndFireAtOnceOnResume() throws {
    let (dev, app) = try makeDevice(ios: 12)
    let host = RecordingHost()
    dev.host = host
    try dev.launch(app)
    try dev.scheduleAppTimer(HostToken(7), app: app, after: .seconds(10))
    try dev.home()
    try dev.advance(by: .seconds(60))
    #expect(host.fired == [])
    try dev.launch(app)
    #expect(host.fired == [7])
    #expect(host.released == [7])
  }

  @Test func timersDieWithTheirProcess() throws {
    let (dev, app) = try makeDevice(ios: 12)
    let host = RecordingHost()
    dev.host = host
    try dev.launch(app)
    try dev.scheduleAppTimer(HostToken(3), app: app, after: .seconds(10))
    try dev.forceQuit(app)
    #expect(host.released == [3])
    try dev.advance(by: .seconds(60))
    #expect(host.fired == [])
  }

  @Test func workAdvancesTheClockInsideAHandler() throws {
    let (dev, app) = try makeDevice(ios: 12)
    let host = RecordingHost()
    host.onHandle = { _, device in try device.work(.seconds(3)) }
    dev.host = host
    dev.setHandled(.didFinishLaunching, for: app)
    try dev.launch(app)
    #expect(dev.now == .seconds(3))
    #expect(dev.trace.records(kind: .callback).last?.time == .seconds(3))
    #expect(throws: SimulationError.self) { try dev.work(.seconds(1)) }
  }

  @Test func actionsAndClockCallsAreRefusedInsideHandlers() throws {
    let (dev, app) = try makeDevice(ios: 12)
    let host = RecordingHost()
    var errors: [SimulationError] = []
    host.onHandle = { _, device in
      do { try device.home() } catch let e as SimulationError { errors.append(e) }
      do { try device.advance(by: .seconds(1)) } catch let e as SimulationError { errors.append(e) }
    }
    dev.host = host
    dev.setHandled(.didBecomeActive, for: app)
    try dev.launch(app)
    #expect(errors.count == 2)
    if case .reentrant = errors[0] {} else { Issue.record("expected a re-entrancy error, got \(errors[0])") }
  }

  @Test func runStopsAtTheHorizon() throws {
    let (dev, _) = try makeDevice(ios: 12)
    dev.horizon = .seconds(100)
    dev.schedule(HostToken(1), at: .seconds(50))
    dev.schedule(HostToken(2), at: .seconds(500))
    #expect(throws: SimulationError.horizonReached(.seconds(100))) { try dev.run() }
  }

  @Test func unsupportedVersionsAreRejectedWithTheList() {
    #expect(throws: SimulationError.unsupportedVersion(19)) { try OSProfile(version: 19) }
    #expect(SimulationError.unsupportedVersion(19).description.contains("4, 5, 6"))
  }

  @Test func profileFacts() throws {
    #expect(try OSProfile(version: 6).backgroundTaskBudget == .seconds(600))
    #expect(try OSProfile(version: 12).backgroundTaskBudget == .seconds(180))
    #expect(try OSProfile(version: 13).backgroundTaskBudget == .seconds(30))
    #expect(try OSProfile(version: 12).backgroundTaskKillCode == 0x8bad_f00d)
    #expect(try OSProfile(version: 26).backgroundTaskKillCode == 0x2182_bad2)
    #expect(try !OSProfile(version: 12).supportsScenes && OSProfile(version: 13).supportsScenes)
  }

  @Test func sameSeedSameTraceDifferentDevicesIndependent() throws {
    func run() throws -> String {
      let (dev, app) = try makeDevice(ios: 17)
      try dev.launch(app)
      try dev.home()
      try dev.advance(by: .seconds(40))
      try dev.launch(app)
      try dev.forceQuit(app)
      return TraceWriter(format: .jsonl).render(dev.trace)
    }
    #expect(try run() == run())
  }

  @Test func sideBySideDiffMarksChanges() {
    let d = sideBySideDiff(expected: ["a", "b", "c"], actual: ["a", "x", "c", "d"])
    #expect(d.contains("~ b"))
    #expect(d.contains("+ "))
    #expect(d.contains("| d"))
  }

  /// An entry with a line break or a tab stays on its row, escaped, and the
  /// columns stay aligned.
  @Test func sideBySideDiffKeepsEachEntryOnItsRow() {
    let d = sideBySideDiff(expected: ["viewDidLoad\nextra", "b"], actual: ["viewDidLoad", "b\tc"])
    let rows = d.split(separator: "\n")
    #expect(rows.count == 4, "\(d)")
    #expect(d.contains("viewDidLoad\\nextra"), "\(d)")
    #expect(d.contains("| b\\tc"), "\(d)")
    let bars = rows.dropLast().map { row in row.firstIndex(of: "|").map { row.distance(from: row.startIndex, to: $0) } ?? -1 }
    #expect(Set(bars).count == 1, "\(d)")
  }
}

struct DeviceModelTests {
  @Test func modelsComeFromTheReferenceTable() throws {
    let m = try #require(DeviceModel.named("iphone 11"))
    #expect(m.ramMB == 3844 && m.perProcessLimitMB == 2068)
    #expect(DeviceModel.named("iPhone X")?.perProcessLimitMB == 1392)
    #expect(DeviceModel.named("iPhone 99") == nil)
    #expect(DeviceModel.all.count == 52)
    #expect(DeviceModel.named("iPhone 4")!.runs(ios: 7) && !DeviceModel.named("iPhone 4")!.runs(ios: 8))
    #expect(DeviceModel.named("iPhone 15 Pro")!.ramMB == 8192 && !DeviceModel.named("iPhone 15 Pro")!.limitMeasured)
    let dev = Device(profile: try OSProfile(version: 13), seed: 1, model: m)
    #expect(dev.memoryMB == 3844 && dev.perProcessLimitMB == 2068)
    // §0: with no model, the per-process limit is 50% of RAM.
    let plain = Device(profile: try OSProfile(version: 17), seed: 1, memoryMB: 4096)
    #expect(plain.perProcessLimitMB == 2048)
  }
}
