import Testing
@testable import LifeSimEngine

/// Prewarming, iPad windows side by side, App Intents, the lock on models
/// that reactivate, and `viewIsAppearing:` on children (reference §2.1
/// "Prewarming", §1.2, §2.13, §2.3, §5.6), without Lua.
struct PrewarmTests {
  private let launchMethods = ["application:willFinishLaunchingWithOptions:", "application:didFinishLaunchingWithOptions:"]

  @Test func iOS15RunsTheLaunchMethodsWithNoSceneAndHoldsTheProcess() throws {
    let (dev, app) = try makeDevice(ios: 15)
    try dev.prewarm(app)
    #expect(dev.callbacks(since: 1) == launchMethods)
    #expect(dev[app].state == .suspended && dev[app].scenes.isEmpty)
    #expect(dev.environment(of: app).map(\.0) == ["ActivePrewarm"])
    let pid = dev[app].pid
    let m = dev.mark()
    try dev.launch(app)
    #expect(dev.callbacks(since: m) == [
      "application:configurationForConnectingSceneSession:options:", "scene:willConnectToSession:options:",
      "sceneWillEnterForeground:", "sceneDidBecomeActive:",
    ])
    #expect(dev[app].pid == pid && dev[app].launches == 1)
    #expect(dev.environment(of: app).isEmpty && dev[app].prewarm == nil)
  }

  @Test func fromIOS16ThereIsNoActivePrewarmVariable() throws {
    for ios in [16, 17, 18, 26] {
      let (dev, app) = try makeDevice(ios: ios, scenes: false)
      try dev.prewarm(app)
      #expect(dev.callbacks(since: 1) == launchMethods)
      #expect(dev.environment(of: app).isEmpty)
    }
  }

  @Test func protectedDataUnavailableAtThePrewarmBecomesAvailableAtTheTap() throws {
    let (dev, app) = try makeDevice(ios: 15)
    dev.passcode = true
    try dev.lock()
    try dev.advance(by: .seconds(10))
    #expect(!dev.isProtectedDataAvailable)
    try dev.prewarm(app)
    try dev.unlock()
    let m = dev.mark()
    try dev.launch(app)
    #expect(dev.callbacks(since: m).first == "applicationProtectedDataDidBecomeAvailable:")
  }

  @Test func beforeIOS15NothingHappensButALog() throws {
    let (dev, app) = try makeDevice(ios: 14)
    try dev.prewarm(app)
    #expect(dev[app].state == .notRunning && dev.callbacks(since: 1).isEmpty)
    #expect(dev.trace.records(kind: .log, since: 1).count == 1)
  }

  @Test func theDTSQuirkRunsNoAppCodeUntilTheTap() throws {
    let dev = Device(profile: try OSProfile(version: 18), seed: 1, quirks: QuirkSet([.prewarmSkipsLaunchMethods]))
    let app = try dev.install(AppConfig(bundle: "com.example.notes", scenes: false))
    try dev.prewarm(app)
    #expect(dev[app].state == .notRunning && dev.callbacks(since: 1).isEmpty)
    try dev.launch(app)
    #expect(Array(dev.callbacks(since: 1).prefix(2)) == launchMethods)
  }

  @Test func aRunningAppCannotBePrewarmed() throws {
    let (dev, app) = try makeDevice(ios: 17)
    try dev.launch(app)
    #expect(throws: SimulationError.self) { try dev.prewarm(app) }
  }

  @Test func aKilledPrewarmedProcessForgetsItsPrewarm() throws {
    let (dev, app) = try makeDevice(ios: 15)
    try dev.prewarm(app)
    try dev.memoryPressure()
    #expect(dev[app].state == .notRunning && dev[app].prewarm == nil)
    try dev.launch(app)
    #expect(Array(dev.callbacks(since: 1).suffix(6).prefix(2)) == launchMethods)
  }
}

struct SideBySideTests {
  private func iPad(_ ios: Int = 17) throws -> (Device, AppID) {
    let dev = Device(profile: try OSProfile(version: ios), seed: 1, model: DeviceModel.named("iPad Pro 11 2018"))
    return (dev, try dev.install(AppConfig(bundle: "com.example.notes")))
  }

  @Test func theFirstWindowStaysInTheForeground() throws {
    let (dev, app) = try iPad()
    try dev.launch(app)
    let m = dev.mark()
    let second = try dev.openSceneBeside(app)
    #expect(second == 2)
    #expect(dev.callbacks(since: m) == [
      "application:configurationForConnectingSceneSession:options:", "scene:willConnectToSession:options:",
      "sceneWillEnterForeground:", "sceneDidBecomeActive:",
    ])
    #expect(dev[app].scenes.map(\.state) == [.foregroundActive, .foregroundActive])
    #expect(dev[app].state == .active)
    // Home takes both windows to the background.
    try dev.home()
    #expect(dev[app].scenes.map(\.state) == [.background, .background])
  }

  @Test func onlyIPadModelsAcceptIt() throws {
    let (phone, app) = try makeDevice(ios: 17)
    try phone.launch(app)
    #expect(throws: SimulationError.self) { try phone.openSceneBeside(app) }
    let dev = Device(profile: try OSProfile(version: 17), seed: 1, model: DeviceModel.named("iPhone 15"))
    let notes = try dev.install(AppConfig(bundle: "com.example.notes"))
    try dev.launch(notes)
    #expect(throws: SimulationError.self) { try dev.openSceneBeside(notes) }
    #expect(DeviceModel.named("iPad mini 6")!.showsWindowsSideBySide)
    #expect(!DeviceModel.named("iPhone 15")!.showsWindowsSideBySide)
  }

  @Test func theAppMustBeActiveOnScreen() throws {
    let (dev, app) = try iPad()
    #expect(throws: SimulationError.self) { try dev.openSceneBeside(app) }
    try dev.launch(app)
    try dev.home()
    #expect(throws: SimulationError.self) { try dev.openSceneBeside(app) }
  }
}

struct LockReactivationTests {
  private func locked(_ model: String, ios: Int, scenes: Bool? = nil) throws -> [String] {
    let dev = Device(profile: try OSProfile(version: ios), seed: 1, model: DeviceModel.named(model))
    let app = try dev.install(AppConfig(bundle: "com.example.notes", scenes: scenes))
    try dev.launch(app)
    let m = dev.mark()
    try dev.lock()
    return dev.callbacks(since: m)
  }

  @Test func anIPhone14ProResignsBecomesActiveAndResignsAgain() throws {
    #expect(try locked("iPhone 14 Pro", ios: 16, scenes: false) == [
      "applicationWillResignActive:", "applicationDidBecomeActive:", "applicationWillResignActive:",
      "applicationDidEnterBackground:",
    ])
    #expect(try locked("iPhone 15", ios: 18) == [
      "sceneWillResignActive:", "sceneDidBecomeActive:", "sceneWillResignActive:", "sceneDidEnterBackground:",
    ])
  }

  @Test func anIPhone13ProMaxDoesNot() throws {
    #expect(try locked("iPhone 13 Pro Max", ios: 16, scenes: false) == [
      "applicationWillResignActive:", "applicationDidEnterBackground:",
    ])
    let m = try #require(DeviceModel.named("iPhone 13 Pro Max"))
    #expect(m.ramMB == 6144 && !m.limitMeasured && m.runs(ios: 15) && !m.lockReactivates)
  }
}

struct AppIntentTests {
  @Test func anIntentThatDoesNotOpenTheAppLaunchesItInTheBackgroundWithNoScene() throws {
    let (dev, app) = try makeDevice(ios: 17)
    try dev.runIntent(app, name: "AddNote", opensApp: false)
    #expect(dev.callbacks(since: 1) == [
      "application:willFinishLaunchingWithOptions:", "application:didFinishLaunchingWithOptions:",
    ])
    #expect(dev[app].state == .background && dev[app].scenes.isEmpty && dev.frontmost == nil)
    try dev.advance(by: .seconds(30))  // the background launch's window ends
    #expect(dev[app].state == .suspended)
  }

  @Test func anIntentThatOpensTheAppLaunchesItAsATapDoes() throws {
    let (dev, app) = try makeDevice(ios: 17)
    try dev.runIntent(app, name: "ShowNote", opensApp: true)
    #expect(dev.callbacks(since: 1).last == "sceneDidBecomeActive:")
    #expect(dev[app].state == .active && dev.frontmost == app)
  }

  @Test func beforeIOS16ThereAreNoAppIntents() throws {
    let (dev, app) = try makeDevice(ios: 15)
    #expect(throws: SimulationError.self) { try dev.runIntent(app, name: "AddNote", opensApp: false) }
    #expect(dev.trace.records(kind: .action, since: 1).isEmpty)
  }
}

struct ViewIsAppearingChildrenTests {
  private func childCalls(ios: Int) throws -> (child: [String], root: [String]) {
    let dev = Device(profile: try OSProfile(version: ios), seed: 1)
    let app = try dev.install(AppConfig(bundle: "com.example.notes", root: ObjectSpec(className: "Root", creation: .code)))
    dev[app].implemented.insert(.viewIsAppearing)  // the app implements it (back-deployed on 13–16)
    try dev.launch(app)
    let root = try #require(dev.top(of: app))
    _ = try dev.addChild(ObjectSpec(className: "Child", creation: .code), to: root)
    _ = try dev.push(ObjectSpec(className: "Detail", creation: .code), app: app)
    let m = dev.mark()
    try dev.pop(app: app)
    let child = dev.trace.callbacks(since: 1, objectClass: "Child").filter { $0 == "viewIsAppearing:" }
    let rootCalls = dev.trace.callbacks(since: m, objectClass: "Root").filter { $0 == "viewIsAppearing:" }
    return (child, rootCalls)
  }

  @Test func onIOS15OnlyTheContainerGetsIt() throws {
    let (child, root) = try childCalls(ios: 15)
    #expect(child.isEmpty)
    #expect(root == ["viewIsAppearing:"])
  }

  @Test func fromIOS16TheChildGetsItToo() throws {
    for ios in [16, 17] {
      let (child, root) = try childCalls(ios: ios)
      #expect(child == ["viewIsAppearing:", "viewIsAppearing:"], "iOS \(ios): added on screen, then revealed by the pop")
      #expect(root == ["viewIsAppearing:"])
    }
  }
}

struct SceneRestorationTests {
  /// A scene app that implements `stateRestorationActivityForScene:`, whose
  /// host answers with token 7.
  private func restoring(_ dev: Device) throws -> (AppID, RecordingHost) {
    let host = RecordingHost()
    host.results[.stateRestorationActivity] = .token(HostToken(7))
    dev.host = host
    let app = try dev.install(AppConfig(bundle: "com.example.notes"))
    dev.setHandled(.stateRestorationActivity, for: app)
    return (app, host)
  }

  @Test func theActivityIsAskedForInTheBackgroundAndKeptWithItsSession() throws {
    let dev = Device(profile: try OSProfile(version: 17), seed: 1)
    let (app, _) = try restoring(dev)
    try dev.launch(app)
    let m = dev.mark()
    try dev.home()
    #expect(dev.callbacks(since: m) == [
      "sceneWillResignActive:", "sceneDidEnterBackground:", "stateRestorationActivityForScene:",
    ])
    #expect(dev[app].scenes[0].restorationActivity == HostToken(7))
    try dev.memoryPressure()  // jetsam: the session survives, with its activity
    let again = dev.mark()
    try dev.launch(app)
    #expect(!dev.callbacks(since: again).contains("application:configurationForConnectingSceneSession:options:"))
    #expect(dev[app].scenes[0].restorationActivity == HostToken(7))
  }

  @Test func anAppWithoutTheMethodIsNeverAsked() throws {
    let (dev, app) = try makeDevice(ios: 17)
    dev.setHandlesAll(for: app)  // on("*") alone implements nothing
    try dev.launch(app)
    try dev.home()
    #expect(!dev.callbacks(since: 1).contains("stateRestorationActivityForScene:"))
  }

  @Test func aForceQuitKeepsItForTheNextSessionUnlessTheQuirkSaysOtherwise() throws {
    let dev = Device(profile: try OSProfile(version: 15), seed: 1)
    let (app, _) = try restoring(dev)
    try dev.launch(app)
    try dev.home()
    try dev.forceQuit(app)
    #expect(dev[app].scenes.isEmpty && dev[app].carriedRestorationActivity == HostToken(7))
    try dev.launch(app)
    #expect(dev[app].scenes[0].restorationActivity == HostToken(7) && dev[app].carriedRestorationActivity == nil)

    let apple = Device(profile: try OSProfile(version: 15), seed: 1, quirks: QuirkSet([.forceQuitDeletesRestoration]))
    let (other, host) = try restoring(apple)
    try apple.launch(other)
    try apple.home()
    try apple.forceQuit(other)
    #expect(apple[other].carriedRestorationActivity == nil && host.released.contains(7))
    try apple.launch(other)
    #expect(apple[other].scenes[0].restorationActivity == nil)
  }

  @Test func onAnIPadTheLastClosedWindowComesBackWithoutAConfiguration() throws {
    let dev = Device(profile: try OSProfile(version: 15), seed: 1, model: DeviceModel.named("iPad Pro 11 2018"))
    let (app, _) = try restoring(dev)
    try dev.launch(app)
    let detail = try dev.openSceneBeside(app)
    try dev.home()
    try dev.closeScene(app, scene: 1)       // the main window first
    try dev.closeScene(app, scene: detail)  // then the detail window: the app is killed
    #expect(dev[app].state == .notRunning && dev[app].scenes.map(\.number) == [detail])
    let m = dev.mark()
    try dev.launch(app)
    let calls = dev.callbacks(since: m)
    #expect(!calls.contains("application:configurationForConnectingSceneSession:options:"))
    #expect(calls.contains("scene:willConnectToSession:options:"))
    #expect(dev[app].scenes.map(\.number) == [detail] && dev[app].scenes[0].restorationActivity == HostToken(7))
  }

  @Test func onAnIPhoneClosingTheLastWindowDiscardsIt() throws {
    let dev = Device(profile: try OSProfile(version: 15), seed: 1)
    let (app, _) = try restoring(dev)
    try dev.launch(app)
    try dev.home()
    try dev.closeScene(app, scene: 1)
    #expect(dev[app].scenes.isEmpty)
    let m = dev.mark()
    try dev.launch(app)
    #expect(dev.callbacks(since: m).contains("application:configurationForConnectingSceneSession:options:"))
  }
}
