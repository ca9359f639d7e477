import Testing
@testable import LifeSimEngine

/// Life after the screen (reference §0, §2.8, §3, §4), without Lua.
struct BackgroundTests {
  private func kills(_ dev: Device, since m: Int = 1) -> [TraceRecord] {
    dev.trace.records(kind: .kill, since: m)
  }

  @Test(arguments: [(6, 600, UInt32(0x8bad_f00d)), (12, 180, 0x8bad_f00d), (17, 30, 0x2182_bad2)])
  func aTaskOpenAtTheLimitKillsWithTheVersionsCode(ios: Int, budget: Int64, code: UInt32) throws {
    let (dev, app) = try makeDevice(ios: ios)
    try dev.launch(app)
    _ = try dev.beginBackgroundTask(app: app, name: "upload", expiration: nil)
    try dev.home()
    #expect(dev[app].state == .background, "the task keeps it running")
    try dev.advance(by: .seconds(budget - 6))
    #expect(dev.trace.records(kind: .expire).isEmpty)
    try dev.advance(by: .seconds(1))
    #expect(dev.trace.records(kind: .expire).map(\.time) == [.seconds(budget - 5)])
    try dev.advance(by: .seconds(10))
    let k = kills(dev)
    #expect(k.map(\.reason) == [.backgroundTask] && k.map(\.code) == [code])
    #expect(k.first?.time == .seconds(budget))
    #expect(dev[app].state == .notRunning)
  }

  @Test func endingTheLastTaskSuspends() throws {
    let (dev, app) = try makeDevice(ios: 17)
    try dev.launch(app)
    let task = try dev.beginBackgroundTask(app: app, name: "t", expiration: nil)
    try dev.home()
    try dev.advance(by: .seconds(3))
    #expect(dev.backgroundTimeRemaining(app) == 27)
    #expect(dev.endBackgroundTask(app: app, task: task))
    try dev.advance(by: .zero)
    #expect(dev[app].state == .suspended)
    #expect(!dev.endBackgroundTask(app: app, task: task), "a task ends once")
    #expect(kills(dev).isEmpty)
  }

  @Test func backgroundTimeRemainingFollowsTheReference() throws {
    let (dev, app) = try makeDevice(ios: 17)
    #expect(dev.backgroundTimeRemaining(app) == 0)
    try dev.launch(app)
    #expect(dev.backgroundTimeRemaining(app) == .greatestFiniteMagnitude)
    try dev.setPlayingAudio(app, true)
    try dev.home()
    // Without the audio mode playing does not hold the process.
    #expect(dev[app].state == .suspended)
    #expect(dev.backgroundTimeRemaining(app) == 0)
  }

  @Test func audioKeepsTheProcessRunningAndTasksFromExpiring() throws {
    let dev = Device(profile: try OSProfile(version: 17), seed: 1)
    let app = try dev.install(AppConfig(bundle: "music", backgroundModes: ["audio"]))
    try dev.launch(app)
    try dev.setPlayingAudio(app, true)
    _ = try dev.beginBackgroundTask(app: app, name: "t", expiration: nil)
    try dev.home()
    try dev.advance(by: .seconds(3600))
    #expect(dev[app].state == .background && dev[app].band == .audio)
    #expect(dev.backgroundTimeRemaining(app) == .infinity)
    #expect(dev.trace.records(kind: .expire).isEmpty)
    try dev.setPlayingAudio(app, false)  // a fresh 30 s budget starts
    try dev.advance(by: .seconds(31))
    #expect(kills(dev).map(\.reason) == [.backgroundTask])
  }

  @Test func watchdogsKillSlowCallbacksUnlessUnderADebugger() throws {
    for debugger in [false, true] {
      let (dev, app) = try makeDevice(ios: 12)
      dev.debugger = debugger
      let host = RecordingHost()
      dev.host = host
      dev.setHandled(.didEnterBackground, for: app)
      host.onHandle = { d, dev in if d.callback == .didEnterBackground { try dev.work(.seconds(12)) } }
      try dev.launch(app)
      try dev.home()
      let k = kills(dev)
      if debugger {
        #expect(k.isEmpty && dev[app].state == .suspended && dev.now == .seconds(12))
      } else {
        #expect(k.map(\.reason) == [.watchdog] && k.map(\.code) == [0x8bad_f00d])
        #expect(k.first?.detail == "background" && k.first?.time == .seconds(10))
        #expect(dev[app].state == .notRunning)
        // The cascade stopped: no snapshot for a dead process.
        #expect(dev.trace.records(kind: .snapshot).isEmpty)
      }
    }
  }

  @Test func theLaunchWatchdogRunsToTheFirstDidBecomeActive() throws {
    let (dev, app) = try makeDevice(ios: 17)
    let host = RecordingHost()
    dev.host = host
    dev.setHandled(.didFinishLaunching, for: app)
    dev.setHandled(.sceneWillConnect, for: app)
    host.onHandle = { d, dev in try dev.work(.seconds(11)) }
    try dev.launch(app)
    #expect(kills(dev).map(\.detail) == ["launch"])
    #expect(kills(dev).first?.time == .seconds(20))
    #expect(!dev.trace.callbacks().contains("sceneDidBecomeActive:"))
  }

  @Test func unsavedChangesDieWithTheProcess() throws {
    let (dev, app) = try makeDevice(ios: 17)
    try dev.launch(app)
    try dev.markDirty(app: app, count: 3)
    try dev.home()
    try dev.apply(.kill, to: app)  // as jetsam would
    let loss = dev.trace.records(kind: .dataLoss)
    #expect(loss.map(\.detail) == ["3 unsaved"])
  }

  @Test func jetsamKillsByBandThenLeastRecentlyUsed() throws {
    let dev = Device(profile: try OSProfile(version: 17), seed: 1, memoryMB: 1000)
    let ids = try ["a", "b", "c"].map { try dev.install(AppConfig(bundle: $0, footprintMB: 300)) }
    for id in ids { try dev.launch(id); try dev.advance(by: .seconds(1)) }
    // a and b are suspended (a used least recently), c is in the foreground: 900 MB.
    #expect(dev.memoryLevel == .warning)
    #expect(kills(dev).isEmpty)
    let m = dev.mark()
    try dev.allocate(100, app: ids[2])  // 1000 MB: over 95%
    try dev.advance(by: .zero)
    #expect(kills(dev, since: m).map(\.app) == [ids[0]])
    #expect(kills(dev, since: m).map(\.reason) == [.vmPageShortage])
    #expect(dev.victimCandidates().map(\.app) == [ids[1], ids[2]])
  }

  @Test func aProcessOverItsOwnLimitDiesEvenInTheForeground() throws {
    let dev = Device(profile: try OSProfile(version: 17), seed: 1, memoryMB: 1000)
    let app = try dev.install(AppConfig(bundle: "big", footprintMB: 100))
    try dev.launch(app)
    try dev.allocate(450, app: app)  // the limit is 50% of RAM
    #expect(kills(dev).map(\.reason) == [.perProcessLimit])
    #expect(dev[app].state == .notRunning && dev.frontmost == nil)
  }

  @Test func aChosenVictimMustBeACandidate() throws {
    let dev = Device(profile: try OSProfile(version: 17), seed: 1, memoryMB: 1000)
    let host = RecordingHost()
    dev.host = host
    let a = try dev.install(AppConfig(bundle: "a", footprintMB: 460))
    let b = try dev.install(AppConfig(bundle: "b", footprintMB: 460))
    let c = try dev.install(AppConfig(bundle: "c", footprintMB: 10))
    dev.policy.victimFromHost = true
    host.victim = { _ in c }  // not running, so not a candidate
    try dev.launch(a)
    try dev.launch(b)
    #expect(throws: SimulationError.policyFailed(policy: "choose_victim", message: "returned c, which is not one of the candidates")) {
      try dev.allocate(40, app: b)  // 960 MB in use, each process within its limit
      try dev.advance(by: .zero)
    }
  }

  @Test func backgroundLaunchesAndTheForceQuitBlock() throws {
    let dev = Device(profile: try OSProfile(version: 12), seed: 1)
    let app = try dev.install(AppConfig(bundle: "news", backgroundModes: ["fetch"]))
    try dev.backgroundFetch(app)
    #expect(dev.trace.callbacks() == [
      "application:willFinishLaunchingWithOptions:", "application:didFinishLaunchingWithOptions:",
      "application:performFetchWithCompletionHandler:",
    ])
    #expect(dev[app].state == .background)
    try dev.advance(by: .seconds(30))
    #expect(dev[app].state == .suspended)
    try dev.forceQuit(app)
    let m = dev.mark()
    try dev.backgroundFetch(app)
    #expect(dev.callbacks(since: m).isEmpty && dev[app].state == .notRunning)
    #expect(dev.trace.records(kind: .log, since: m).count == 1)
    #expect(throws: SimulationError.self) { try dev.silentPush(app) }  // no remote-notification mode
  }
}
