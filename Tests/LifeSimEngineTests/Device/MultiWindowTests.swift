import Testing
@testable import LifeSimEngine

/// Several scenes of one app (reference §1.2, §2.6), without Lua.
struct MultiWindowTests {
  private func notifications(_ dev: Device, since m: Int) -> [AppNotification] {
    dev.trace.records(kind: .notification, since: m).compactMap(\.notification)
  }

  @Test func theAppStateFollowsItsScenesAtEveryStep() throws {
    let (dev, app) = try makeDevice(ios: 17)
    try dev.launch(app)
    let second = try dev.openScene(app)
    #expect(second == 2)
    #expect(dev[app].scenes.map(\.state) == [.background, .foregroundActive])
    #expect(dev[app].state == .active)
    try dev.home()
    try dev.launch(app)
    try dev.reclaimScene(1, of: app)
    _ = try dev.openScene(app)
    try dev.closeScene(app, scene: 3)
    try dev.interrupt(.call)
    try dev.endInterrupt()
    try dev.forceQuit(app)
    // Replay every state record: whenever the process executes and a scene is
    // connected, the app state must be the one its scenes imply (§1.3), both
    // after an app record and after a scene record (where no app record follows
    // at once, the app state must already agree).
    var scenes: [Int32: SceneState] = [:]
    var appState = AppState.notRunning
    var checked = 0
    let records = dev.trace.records.filter { $0.app == app && $0.kind == .state }
    for (i, r) in records.enumerated() {
      if let n = r.scene { scenes[n] = r.sceneTo } else { appState = r.to! }
      // Skip a scene record that its app record follows directly.
      if r.scene != nil, i + 1 < records.count, records[i + 1].scene == nil, records[i + 1].seq == r.seq + 1 { continue }
      if appState.isExecuting, let implied = SceneLifecycle.appState(of: scenes.values) {
        #expect(implied == appState, "record \(r.seq)")
        checked += 1
      }
    }
    #expect(checked > 15)
  }

  @Test func applicationNotificationsMarkOnlyChangesOfTheWholeApp() throws {
    let (dev, app) = try makeDevice(ios: 17)
    try dev.launch(app)
    let m = dev.mark()
    _ = try dev.openScene(app)
    // The new window comes forward while the old one is still on screen, so the
    // app never leaves the foreground: no enter-foreground or background notification.
    #expect(notifications(dev, since: m) == [.willResignActive, .didBecomeActive])
  }

  @Test func closingOneOfTwoScenesKeepsTheProcess() throws {
    let (dev, app) = try makeDevice(ios: 17)
    try dev.launch(app)
    _ = try dev.openScene(app)
    let pid = dev[app].pid
    let m = dev.mark()
    try dev.closeScene(app, scene: 1)
    #expect(dev.callbacks(since: m) == [
      "sceneWillResignActive:", "sceneDidDisconnect:", "application:didDiscardSceneSessions:",
    ])
    #expect(dev[app].pid == pid)
    #expect(dev[app].scenes.map(\.number) == [2])
    #expect(dev[app].discardedSessions.isEmpty)
  }

  @Test func closingTheLastSceneIsAForceQuit() throws {
    let (dev, app) = try makeDevice(ios: 17)
    try dev.launch(app)
    let m = dev.mark()
    try dev.closeScene(app, scene: 1)
    #expect(dev.callbacks(since: m) == [
      "sceneWillResignActive:", "sceneDidDisconnect:", "application:didDiscardSceneSessions:",
      "applicationWillTerminate:",
    ])
    #expect(dev[app].state == .notRunning)
    #expect(dev[app].backgroundLaunchBlocked)
  }

  @Test func aClosedSceneCannotBeClosedAgain() throws {
    let (dev, app) = try makeDevice(ios: 17)
    try dev.launch(app)
    _ = try dev.openScene(app)
    try dev.closeScene(app, scene: 1)
    #expect(throws: SimulationError.self) { try dev.closeScene(app, scene: 1) }
    #expect(throws: SimulationError.self) { try dev.disconnectScene(app, scene: 1) }
  }

  @Test func closingASceneOfADeadProcessIsReportedAtTheNextLaunch() throws {
    let (dev, app) = try makeDevice(ios: 17)
    try dev.launch(app)
    _ = try dev.openScene(app)
    try dev.home()
    // A silent death (as jetsam will give) keeps the sessions.
    try dev.apply(.kill, to: app)
    #expect(dev[app].scenes.map(\.state) == [.unattached, .unattached])
    try dev.closeScene(app, scene: 1)
    #expect(dev[app].discardedSessions == [1])
    let m = dev.mark()
    try dev.launch(app)
    #expect(dev.callbacks(since: m) == [
      "application:willFinishLaunchingWithOptions:", "application:didFinishLaunchingWithOptions:",
      "application:didDiscardSceneSessions:",
      "scene:willConnectToSession:options:",  // session 2 is restored: no configuration
      "sceneWillEnterForeground:", "sceneDidBecomeActive:",
    ])
  }

  @Test func theSystemDisconnectsOnlyBackgroundScenes() throws {
    let (dev, app) = try makeDevice(ios: 17)
    try dev.launch(app)
    #expect(throws: SimulationError.self) { try dev.reclaimScene(1, of: app) }
    try dev.home()
    #expect(dev[app].state == .suspended)
    let m = dev.mark()
    try dev.reclaimScene(1, of: app)
    // The suspended process runs to hear of it, then is suspended again.
    let states = dev.trace.records(kind: .state, since: m).compactMap { $0.scene == nil ? $0.to : nil }
    #expect(states == [.background, .suspended])
    #expect(dev.callbacks(since: m) == ["sceneDidDisconnect:"])
    #expect(dev[app].scenes.first?.hasSession == true)
  }

  @Test func appDelegateAppsHaveNoScenes() throws {
    let (dev, app) = try makeDevice(ios: 12)
    try dev.launch(app)
    #expect(dev[app].scenes.isEmpty)
    #expect(throws: SimulationError.self) { try dev.openScene(app) }
  }

  @Test func quirksChangeOnlyWhatTheySay() throws {
    func forceQuit(_ quirks: QuirkSet) throws -> [String] {
      let dev = Device(profile: try OSProfile(version: 13), seed: 1, quirks: quirks)
      let app = try dev.install(AppConfig(bundle: "a"))
      try dev.launch(app)
      let m = dev.mark()
      try dev.forceQuit(app)
      return dev.callbacks(since: m)
    }
    #expect(try forceQuit(QuirkSet()) == [
      "sceneWillResignActive:", "sceneDidDisconnect:", "application:didDiscardSceneSessions:",
      "applicationWillTerminate:",
    ])
    #expect(try forceQuit(QuirkSet([.sceneForceQuitEntersBackground])) == [
      "sceneWillResignActive:", "sceneDidEnterBackground:", "applicationWillTerminate:",
    ])
    // A quirk about something else leaves the force-quit alone.
    #expect(try forceQuit(QuirkSet([.exitsOnSuspendTerminateOnly, .backgroundLaunchEntersBackground])) ==
            forceQuit(QuirkSet()))
    for q in Quirk.allCases {
      #expect(Quirk(name: q.description) == q)
      #expect(q.reference.hasPrefix("§8."))
    }
  }
}
