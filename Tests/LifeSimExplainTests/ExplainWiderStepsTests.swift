import LifeSimEngine
import Testing
@testable import LifeSimExplain

/// The steps a log gets when the ordinary ones do not explain it
/// (`ExplainSearch.answer`): the app's other windows, its own code passing
/// its memory limit or beginning a background task in a step; and the steps
/// the log's own lines call for (a notification presented in front, protected
/// data with a passcode); and the quirks, given or tried one at a time.
struct ExplainWiderStepsTests {
  static func options(ios: Int = 17, scenes: Bool? = nil, quirks: [Quirk] = []) -> ExplainOptions {
    var o = ExplainOptions()
    o.ios = ios
    o.scenes = scenes
    o.quirks = QuirkSet(quirks)
    o.alternatives = 0
    return o
  }

  /// The answer's first explanation, checked: its steps, replayed on the
  /// device its search used, show the log's lines.
  static func explained(_ text: String, _ options: ExplainOptions) throws -> (ExplainAnswer, Explanation) {
    let log = try LogReader.read(text)
    let answer = try ExplainSearch.answer(log: log, options: options)
    let e = try #require(answer.result.explanations.first, "not explained: \(text)")
    let replay = try ExplainSearch(log: log, options: answer.options).device
    for s in e.steps { try s.step.take(on: replay, app: AppID(0)) }
    let got = ExplainRoundTripTests.logged(replay, log)
    #expect(Array(got.dropFirst(e.beforeLog.count)) == log.events.map(\.symbol) + e.afterLog.compactMap { log.symbolByName[$0] },
            "\(e.steps.map { $0.step.name(bundle: "app") })")
    return (answer, e)
  }

  /// The ordinary search alone does not explain the log.
  static func notExplainedByTheOrdinarySteps(_ text: String, _ options: ExplainOptions) throws {
    let result = try ExplainSearch(log: try LogReader.read(text), options: options).run()
    #expect(result.explanations.isEmpty)
  }

  /// The log of what `actions` make the app of a scene app's device send.
  static func sceneLog(_ actions: (Device, AppID) throws -> Void) throws -> String {
    let d = Device(profile: try OSProfile(version: 17), seed: 1)
    d.trapsOnViolation = false
    let app = try d.install(AppConfig(bundle: "com.example.app", scenes: true, backgroundModes: ExplainStep.backgroundModes))
    try actions(d, app)
    return TraceWriter(format: .text).render(d.trace)
  }

  static let secondWindow = """
    scene:willConnectToSession:options:
    sceneWillEnterForeground:
    sceneDidBecomeActive:
    scene:willConnectToSession:options:
    sceneWillEnterForeground:
    sceneWillResignActive:
    sceneDidEnterBackground:
    sceneDidBecomeActive:

    """

  @Test func aSecondWindowOpenedIsAStep() throws {
    try Self.notExplainedByTheOrdinarySteps(Self.secondWindow, Self.options())
    let (answer, e) = try Self.explained(Self.secondWindow, Self.options())
    #expect(answer.options.windows)
    #expect(e.steps.map(\.step.kind) == [.launch, .openScene])
  }

  @Test func anIPhoneShowsOneWindowOfAnApp() throws {
    var options = Self.options()
    options.model = DeviceModel.named("iPhone 11")
    let answer = try ExplainSearch.answer(log: try LogReader.read(Self.secondWindow), options: options)
    #expect(answer.result.explanations.isEmpty)
  }

  @Test func aWindowClosedInTheSwitcherIsAStep() throws {
    let text = try Self.sceneLog { d, app in
      try d.launch(app)
      let second = try d.openScene(app)
      try d.closeScene(app, scene: second)
    }
    let (_, e) = try Self.explained(text, Self.options(scenes: true))
    #expect(e.steps.contains { $0.step.kind == .closeScene(2) }, "\(e.steps.map { $0.step.name(bundle: "app") })")
  }

  @Test func aBackgroundWindowDisconnectedIsAStep() throws {
    let text = try Self.sceneLog { d, app in
      try d.launch(app)
      try d.openScene(app)
      try d.disconnectScene(app, scene: d[app].scenes[0].number)
    }
    let (_, e) = try Self.explained(text, Self.options(scenes: true))
    #expect(e.steps.contains { $0.step.kind == .disconnectScene(1) }, "\(e.steps.map { $0.step.name(bundle: "app") })")
  }

  /// A launch cut short after the scene connects, then a launch: the app's
  /// code passed its memory limit in the first.
  static let killedInLaunch = """
    application:willFinishLaunchingWithOptions:
    application:didFinishLaunchingWithOptions:
    scene:willConnectToSession:options:
    application:willFinishLaunchingWithOptions:
    application:didFinishLaunchingWithOptions:
    scene:willConnectToSession:options:
    sceneWillEnterForeground:
    sceneDidBecomeActive:

    """

  @Test func theAppsCodePassingItsMemoryLimitInAStepIsAKill() throws {
    try Self.notExplainedByTheOrdinarySteps(Self.killedInLaunch, Self.options())
    let (answer, e) = try Self.explained(Self.killedInLaunch, Self.options())
    #expect(answer.options.appCode)
    #expect(e.steps.count == 2)
    #expect(e.steps[0].step.kind == .launch && e.steps[0].step.killedIn == "scene:willConnectToSession:options:")
    #expect(e.steps[0].step.name(bundle: "app") == "launch app, killed in scene:willConnectToSession:options: (own memory)")
    #expect(e.steps[0].events == 0..<3 && e.steps[1].step.killedAt == 0)
  }

  /// Protected data locks ten seconds after the lock: only an app still
  /// running then hears it, here one whose code began a background task
  /// (iOS 14: no App Intent to run it; the quirk shows every wake).
  static let heldByATask = """
    10:00:00.000 application:didFinishLaunchingWithOptions:
    10:00:00.100 applicationDidBecomeActive:
    10:00:05.000 applicationWillResignActive:
    10:00:05.000 applicationDidEnterBackground:
    10:00:15.000 applicationProtectedDataWillBecomeUnavailable:

    """

  @Test func theAppsCodeBeginningABackgroundTaskKeepsItRunning() throws {
    let options = Self.options(ios: 14, quirks: [.backgroundLaunchEntersBackground])
    try Self.notExplainedByTheOrdinarySteps(Self.heldByATask, options)
    let (_, e) = try Self.explained(Self.heldByATask, options)
    #expect(e.steps.contains { $0.step.taskAt > 0 }, "\(e.steps.map { $0.step.name(bundle: "app") })")
  }

  /// Coming back 25 s after Home, the app's code works 6 s as it enters
  /// the foreground (reference §3.8): its become-active
  /// waits for the main thread and comes 6 s late, which no step of the user
  /// or the system between the two can give.
  static let busyComingBack = """
    10:00:00.000 application:didFinishLaunchingWithOptions:
    10:00:00.100 applicationDidBecomeActive:
    10:00:05.000 applicationWillResignActive:
    10:00:05.000 applicationDidEnterBackground:
    10:00:30.000 applicationWillEnterForeground:
    10:00:36.000 applicationDidBecomeActive:

    """

  @Test func theAppsCodeWorkingInAStepMakesItsNextCallbackLate() throws {
    let options = Self.options(ios: 12)
    try Self.notExplainedByTheOrdinarySteps(Self.busyComingBack, options)
    let (answer, e) = try Self.explained(Self.busyComingBack, options)
    #expect(answer.options.appCode)
    let busy = try #require(e.steps.first { $0.step.busyAt > 0 }, "\(e.steps.map { $0.step.name(bundle: "app") })")
    // The code runs last in the notification that follows the callback: the
    // last delivery before the late become-active.
    #expect(busy.step.name(bundle: "app") == "launch app, busy 6 s in UIApplicationWillEnterForegroundNotification")
    #expect(busy.step.busyFor == .seconds(6) && busy.events == 4..<6)
    #expect(busy.step.words.hasSuffix("in its UIApplicationWillEnterForegroundNotification the app's code works 6 s, and what the system tells it meanwhile waits for its main thread"))
    #expect(busy.step.lua == "calls, busy_at, busy_for = 0, 2, 6; dev:launch(app); busy_at = nil")
  }

  @Test func protectedDataInTheLogGivesTheDeviceAPasscode() throws {
    let text = """
      applicationDidBecomeActive:
      applicationWillResignActive:
      applicationProtectedDataWillBecomeUnavailable:

      """
    let (_, e) = try Self.explained(text, Self.options())
    #expect(e.steps.map(\.step.kind).contains(.lock))
  }

  @Test func aNotificationPresentedInFrontIsANotify() throws {
    let text = """
      applicationDidBecomeActive:
      userNotificationCenter:willPresentNotification:withCompletionHandler:
      applicationWillResignActive:

      """
    let (answer, e) = try Self.explained(text, Self.options())
    #expect(!answer.options.appCode)  // the ordinary search
    #expect(e.steps.map(\.step.kind).contains(.notify))
  }

  /// A background fetch's launch that gets applicationDidEnterBackground:,
  /// as Apple's article has it (§8.1), then the user opens the app.
  static let quirky = """
    application:didFinishLaunchingWithOptions:
    applicationDidEnterBackground:
    application:performFetchWithCompletionHandler:
    applicationWillEnterForeground:
    applicationDidBecomeActive:

    """

  @Test func aQuirkGivenIsTheDevicesAndOneNotGivenIsTriedAlone() throws {
    let (_, e) = try Self.explained(Self.quirky, Self.options(quirks: [.backgroundLaunchEntersBackground]))
    #expect(e.steps.map(\.step.kind) == [.backgroundFetch, .launch])
    let answer = try ExplainSearch.answer(log: try LogReader.read(Self.quirky), options: Self.options())
    #expect(answer.result.explanations.isEmpty)
    #expect(answer.quirksExplaining == [.backgroundLaunchEntersBackground])
    // An app without scenes on iOS 17: the scene quirks, the one for exits
    // on suspend (iOS 12 and earlier) and the root's are not tried.
    #expect(answer.quirksTried == [.backgroundLaunchEntersBackground, .prewarmSkipsLaunchMethods])
  }

  @Test func aQuirkForAppsThatExitOnSuspendMakesTheAppOne() throws {
    let text = """
      application:didFinishLaunchingWithOptions:
      applicationDidBecomeActive:
      applicationWillResignActive:
      applicationWillTerminate:

      """
    // Home on iOS 9 with the quirk: no applicationDidEnterBackground: (§8.7).
    let (_, e) = try Self.explained(text, Self.options(ios: 9, quirks: [.exitsOnSuspendTerminateOnly]))
    #expect(e.steps.map(\.step.kind) == [.launch, .home], "\(e.steps.map { $0.step.name(bundle: "app") })")
  }
}
