import LifeSimEngine

/// One step `lifesim explain` may take: a user action, a system event or a wait.
public struct ExplainStep: Equatable, Sendable {
  public enum Kind: Equatable, Sendable {
    case launch, home, lock, unlock, call, endCall, switcher, kill, memoryWarning, memoryPressure, backgroundFetch
    case interrupt(Interruption), endInterrupt, switchTo, openNotification, openRemoteNotification, openURL, silentPush
    case prewarm, runIntent
    /// The system runs the app's BGTaskScheduler refresh request (iOS 13+),
    /// launching the app in the background or waking it.
    case runTask
    /// One of the app's notifications arrives (and, in front, the app may present it).
    case notify
    /// The app's own screen changes: a view controller of a class pushed or
    /// presented, the top one popped, the presented one dismissed.
    case push(String), pop, present(String), dismiss
    /// Another window of the app opened; window `n` (its place in
    /// `app.scenes`, from 1) closed in the switcher, or disconnected by the
    /// system in the background.
    case openScene, closeScene(Int), disconnectScene(Int)
    case advance(SimTime)
  }
  public var kind: Kind
  /// The app's own code passes its memory limit in its `killedAt`-th
  /// callback or notification of the step (from 1), `killedIn`, and its
  /// process is killed there: 0 when it is not.
  public var killedAt = 0
  public var killedIn = ""
  /// What kills it there: its memory, or the watchdog of that callback
  /// (the code runs past the watchdog's limit).
  public var killedBy = KillCause.ownMemory

  /// Why the app's own code gets its process killed in a callback.
  public enum KillCause: Equatable, Sendable {
    /// It allocates past the per-process limit: jetsam (§0).
    case ownMemory
    /// It blocks past the limit of the watchdog that callback runs under,
    /// as a launch that takes too long (§0 "Watchdogs", 0x8badf00d).
    case watchdog
  }
  /// The app's own code begins a background task (and does not end it) in
  /// its `taskAt`-th callback or notification of the step, `taskIn`: 0 when it does not.
  public var taskAt = 0
  public var taskIn = ""
  /// The app's own code works `busyFor` in its `busyAt`-th callback or
  /// notification of the step, `busyIn`: what the system tells the app
  /// meanwhile waits for its main thread and comes late (reference §3.8).
  /// 0 when it does not.
  public var busyAt = 0
  public var busyIn = ""
  public var busyFor = SimTime.zero

  public init(_ kind: Kind) { self.kind = kind }

  /// The step with the app killed for its own memory in its `at`-th callback
  /// or notification of it, `name`.
  func killed(at: Int, in name: String, by cause: KillCause = .ownMemory) -> ExplainStep {
    var s = self
    s.killedAt = at
    s.killedIn = name
    s.killedBy = cause
    return s
  }

  /// The step with the app's code beginning a background task in its `at`-th
  /// callback or notification of it, `name`.
  func beginningTask(at: Int, in name: String) -> ExplainStep {
    var s = self
    s.taskAt = at
    s.taskIn = name
    return s
  }

  /// The step with the app's code working `span` in its `at`-th callback or
  /// notification of it, `name`.
  func busy(at: Int, in name: String, for span: SimTime) -> ExplainStep {
    var s = self
    s.busyAt = at
    s.busyIn = name
    s.busyFor = span
    return s
  }

  /// Its name, as `lifesim explore` names its steps, with what the app's
  /// own code does in it, if anything.
  public func name(bundle: String) -> String {
    if killedAt > 0 { return base(bundle: bundle) + ", killed in \(killedIn) (\(killedBy == .watchdog ? "watchdog" : "own memory"))" }
    if taskAt > 0 { return base(bundle: bundle) + ", background task begun in \(taskIn)" }
    if busyAt > 0 { return base(bundle: bundle) + ", busy \(formatNumber(busyFor.seconds)) s in \(busyIn)" }
    return base(bundle: bundle)
  }

  /// What it is, in words, for the explanation.
  public var words: String {
    if killedAt > 0, killedBy == .watchdog {
      return baseWords + "; in its \(killedIn) the app's code runs past the watchdog's limit and is killed (0x8badf00d)"
    }
    if killedAt > 0 { return baseWords + "; in its \(killedIn) the app's code passes its memory limit and is killed" }
    if taskAt > 0 { return baseWords + "; in its \(taskIn) the app's code begins a background task" }
    if busyAt > 0 {
      return baseWords + "; in its \(busyIn) the app's code works \(formatNumber(busyFor.seconds)) s, and what the system tells it meanwhile waits for its main thread"
    }
    return baseWords
  }

  /// The Lua that takes it on `dev`, with the app `app`; what the app's own
  /// code does in it is the script's `code` (`ExplainReport.codeLua`) told where.
  public var lua: String {
    if killedAt > 0, killedBy == .watchdog { return "calls, hang_at = 0, \(killedAt); \(baseLua); hang_at = nil" }
    if killedAt > 0 { return "calls, die_at = 0, \(killedAt); \(baseLua); die_at = nil" }
    if taskAt > 0 { return "calls, task_at = 0, \(taskAt); \(baseLua); task_at = nil" }
    if busyAt > 0 { return "calls, busy_at, busy_for = 0, \(busyAt), \(formatNumber(busyFor.seconds)); \(baseLua); busy_at = nil" }
    return baseLua
  }

  /// Its name, as `lifesim explore` names its steps (`launch com.example.app`, `advance 10`).
  func base(bundle: String) -> String {
    switch kind {
    case .launch: return "launch \(bundle)"
    case .home: return "home"
    case .lock: return "lock"
    case .unlock: return "unlock"
    case .call: return "call"
    case .endCall: return "end_interrupt"  // the table's end_call is an answered call that ends
    case .switcher: return "switcher"
    case .kill: return "kill \(bundle)"
    case .memoryWarning: return "memory_warning"
    case .memoryPressure: return "memory_pressure"
    case .backgroundFetch: return "background_fetch \(bundle)"
    case .interrupt(let i): return "interrupt \(i)"
    case .endInterrupt: return "end_interrupt"
    case .switchTo: return "switch_to \(bundle)"
    case .openNotification: return "open_notification \(bundle)"
    case .openRemoteNotification: return "open_notification \(bundle) remote"
    case .openURL: return "open_url \(bundle)"
    case .silentPush: return "silent_push \(bundle)"
    case .prewarm: return "prewarm \(bundle)"
    case .runIntent: return "run_intent \(bundle)"
    case .runTask: return "run_task \(bundle)"
    case .notify: return "notify \(bundle)"
    case .push(let c): return "push \(LogReader.shownClass(c))"
    case .pop: return "pop"
    case .present(let c): return "present \(LogReader.shownClass(c))"
    case .dismiss: return "dismiss"
    case .openScene: return "open_scene"
    case .closeScene(let n): return "close_scene \(n)"
    case .disconnectScene(let n): return "disconnect_scene \(n)"
    case .advance(let t): return "advance \(formatNumber(t.seconds))"
    }
  }

  /// Its name, with the ways of bringing the app forward (a tap on its
  /// icon, the switcher, a notification, a URL) named as a launch: what
  /// tells two explanations apart when a log shows the same of each.
  /// The step as an answer tells it (`story`): a launch for each way of
  /// bringing the app forward.
  var asTold: ExplainStep {
    switch kind {
    case .switchTo, .openNotification, .openRemoteNotification, .openURL:
      var launch = self
      launch.kind = .launch
      return launch
    default: return self
    }
  }

  func story(bundle: String) -> String {
    switch kind {
    case .switchTo, .openNotification, .openRemoteNotification, .openURL:
      var launch = self
      launch.kind = .launch
      return launch.name(bundle: bundle)
    default: return name(bundle: bundle)
    }
  }

  var baseWords: String {
    switch kind {
    case .launch: return "the user taps the app's icon"
    case .home: return "the user goes to the Home Screen"
    case .lock: return "the user locks the device"
    case .unlock: return "the user unlocks the device"
    case .call: return "a phone call comes in"
    case .endCall: return "the call is declined (the interruption ends)"
    case .switcher: return "the user opens the app switcher"
    case .kill: return "the user swipes the app away in the switcher"
    case .memoryWarning: return "the system sends a memory warning"
    case .memoryPressure: return "memory pressure: jetsam kills what is below the foreground"
    case .backgroundFetch: return "the system wakes the app for a background fetch"
    case .interrupt(.notificationCenter): return "Notification Center pulled fully down"
    case .interrupt(.notificationCenterPeek): return "Notification Center pulled part way, springing back"
    case .interrupt(.controlCenter): return "Control Center opened"
    case .interrupt(.alert): return "a system alert shows"
    case .interrupt(.siri): return "Siri comes up"
    case .interrupt(.call): return "a phone call comes in"
    case .endInterrupt: return "the overlay is dismissed"
    case .switchTo: return "the user picks the app in the switcher"
    case .openNotification: return "the user opens one of the app's notifications"
    case .openRemoteNotification: return "the user opens one of the app's push notifications"
    case .openURL: return "another app opens a URL in the app"
    case .silentPush: return "a silent push wakes the app"
    case .prewarm: return "the system prewarms the app (iOS 15+): its process starts before any tap"
    case .runIntent: return "Shortcuts or Siri runs one of the app's App Intents in the background (iOS 16+)"
    case .runTask: return "the system launches or wakes the app for its BGTaskScheduler refresh task (iOS 13+)"
    case .notify: return "one of the app's notifications arrives"
    case .push(let c): return "the app pushes a \(LogReader.shownClass(c))"
    case .pop: return "the app pops its top view controller"
    case .present(let c): return "the app presents a \(LogReader.shownClass(c))"
    case .dismiss: return "the app dismisses its presented view controller"
    case .openScene: return "the user opens another window of the app"
    case .closeScene(let n): return "the user closes the app's window \(n) in the switcher"
    case .disconnectScene(let n): return "the system disconnects the app's window \(n), in the background, to reclaim its memory"
    case .advance(let t): return "time passes: \(formatNumber(t.seconds)) s"
    }
  }

  var baseLua: String {
    switch kind {
    case .launch: return "dev:launch(app)"
    case .home: return "dev:home()"
    case .lock: return "dev:lock()"
    case .unlock: return "dev:unlock()"
    case .call: return "dev:interrupt(\"call\")"
    case .endCall: return "dev:end_interrupt()"
    case .switcher: return "dev:switcher()"
    case .kill: return "dev:kill(app)"
    case .memoryWarning: return "dev:memory_warning()"
    case .memoryPressure: return "dev:memory_pressure()"
    case .backgroundFetch: return "dev:background_fetch(app)"
    case .interrupt(let i): return "dev:interrupt(\"\(i)\")"
    case .endInterrupt: return "dev:end_interrupt()"
    case .switchTo: return "dev:switch_to(app)"
    case .openNotification: return "dev:open_notification(app)"
    case .openRemoteNotification: return "dev:open_notification(app, { remote = true })"
    case .openURL: return "dev:open_url(app, \"\(ExplainStep.url)\")"
    case .silentPush: return "dev:silent_push(app)"
    case .prewarm: return "dev:prewarm(app)"
    case .runIntent: return "dev:run_intent(app, { name = \"\(ExplainStep.intent)\" })"
    case .runTask: return "dev:run_task(app, \"\(ExplainStep.task)\")"
    case .notify: return "dev:notify(app)"
    case .push(let c): return "app:push{ class = \(quoted(LogReader.shownClass(c))), from = \"code\" }"
    case .pop: return "app:pop()"
    case .present(let c): return "app:present{ class = \(quoted(LogReader.shownClass(c))), from = \"code\" }"
    case .dismiss: return "app:dismiss()"
    case .openScene: return "app:open_scene()"
    case .closeScene(let n): return "app.scenes[\(n)]:close()"
    case .disconnectScene(let n): return "app.scenes[\(n)]:disconnect()"
    case .advance(let t): return "dev:advance(\(formatNumber(t.seconds)))"
    }
  }

  static let url = "lifesim-explain://open"
  static let intent = "ExplainIntent"
  /// The identifier of the refresh task of an app explained on iOS 13 or
  /// later whose log shows no background fetch (`ExplainAlphabet.runsTasks`).
  public static let task = "lifesim.explain.refresh"

  /// The background modes of the app explained: those its wakes need (a
  /// fetch, a push), so that a log of a background launch can be explained.
  public static let backgroundModes = ["fetch", "remote-notification"]

  /// Whether the app's own code acts in it (a kill, a task, work).
  var acts: Bool { killedAt > 0 || taskAt > 0 || busyAt > 0 }

  /// Takes it on the device; one where the app's own code acts, on a device
  /// whose app code is explain's (`ExplainSearch` with `appCode`).
  public func take(on device: Device, app: AppID) throws {
    guard acts, let host = device.host as? ExplainHost else { return try takeBase(on: device, app: app) }
    host.arm(kill: killedBy == .ownMemory ? killedAt : 0, hang: killedBy == .watchdog ? killedAt : 0, task: taskAt,
             busy: busyAt, busyFor: busyFor)
    defer { host.arm(kill: 0, hang: 0, task: 0, busy: 0, busyFor: .zero) }
    try takeBase(on: device, app: app)
  }

  func takeBase(on device: Device, app: AppID) throws {
    switch kind {
    case .launch: try device.launch(app)
    case .home: try device.home()
    case .lock: try device.lock()
    case .unlock: try device.unlock()
    case .call: try device.interrupt(.call)
    case .endCall, .endInterrupt: try device.endInterrupt()
    case .switcher: try device.openSwitcher()
    case .kill: try device.forceQuit(app)
    case .memoryWarning: try device.memoryWarning()
    case .memoryPressure: try device.memoryPressure()
    case .backgroundFetch: try device.backgroundFetch(app)
    case .interrupt(let i): try device.interrupt(i)
    case .switchTo: try device.switchTo(app)
    case .openNotification: try device.openNotification(app, remote: false)
    case .openRemoteNotification: try device.openNotification(app, remote: true)
    case .openURL: try device.openURL(app, url: ExplainStep.url)
    case .silentPush: try device.silentPush(app)
    case .prewarm: try device.prewarm(app)
    case .runIntent: try device.runIntent(app, name: ExplainStep.intent, opensApp: false)
    case .runTask:
      // The scheduler runs no refresh task (explain's app submits one) for
      // an app the user swiped away until it is opened again (§3.5); the
      // debugger's launch would ignore that.
      guard !device[app].backgroundLaunchBlocked else { throw SchedulerWouldNotRun() }
      try device.runTask(app, identifier: ExplainStep.task)
    case .notify: try device.notify(app, remote: false)
    case .push(let c): try device.push(ObjectSpec(className: c, creation: .code), app: app)
    case .pop: try device.pop(app: app)
    case .present(let c): try device.present(ObjectSpec(className: c, creation: .code), style: nil, app: app)
    case .dismiss: try device.dismiss(app: app)
    case .openScene: try device.openScene(app)
    case .closeScene(let n): try device.closeScene(app, scene: device[app].scenes[n - 1].number)
    case .disconnectScene(let n): try device.disconnectScene(app, scene: device[app].scenes[n - 1].number)
    case .advance(let t): try device.advance(by: t)
    }
  }
}

/// A `run_task` step where the scheduler would run no task: not a step of the device.
struct SchedulerWouldNotRun: Error {}

/// The steps the search tries, in the order it tries them.
public enum ExplainAlphabet {
  /// `lifesim explore`'s default alphabet for one app (its actions, system
  /// events and waits, in its order), then what a log also needs: the other
  /// overlays, picking the app in the switcher, a notification opened, a URL
  /// opened, a silent push, a prewarm and an App Intent run in the background. This is the one place explain reads explore's
  /// alphabet from.
  public static func exploreSteps() -> [ExplainStep] {
    [.init(.launch), .init(.home), .init(.lock), .init(.unlock), .init(.call), .init(.endCall), .init(.switcher),
     .init(.kill), .init(.memoryWarning), .init(.memoryPressure), .init(.backgroundFetch)]
  }

  /// explore's waits: used when the log has no timestamps (with them, the
  /// waits are the gaps between lines).
  public static let waits: [SimTime] = [.seconds(1), .seconds(10), .seconds(60)]

  /// The actions and events, without the waits; with `screens` (the
  /// view-controller classes a log names), the app's own screen changes too.
  /// With `notify`, a notification that arrives: for an app whose log shows
  /// it presents one in front (what else it does, the log cannot show).
  /// With `tasks`, the app's BGTaskScheduler task runs where explore's
  /// background fetch would (`runsTasks`).
  public static func actions(on profile: OSProfile? = nil, screens: [String] = [], windows: Bool = false,
                             notify: Bool = false, tasks: Bool = false) -> [ExplainStep] {
    // A prewarm before iOS 15 and an intent before 16 are no step of the
    // device's: offering them would only widen the search.
    let modern: [ExplainStep] = (profile.map { $0.prewarms } ?? true ? [.init(.prewarm)] : [])
      + (profile.map { $0.hasAppIntents } ?? true ? [.init(.runIntent)] : [])
    let explore = tasks ? exploreSteps().map { $0.kind == .backgroundFetch ? ExplainStep(.runTask) : $0 } : exploreSteps()
    return explore + [
      .init(.interrupt(.notificationCenter)), .init(.interrupt(.notificationCenterPeek)), .init(.interrupt(.controlCenter)),
      .init(.interrupt(.alert)), .init(.interrupt(.siri)), .init(.endInterrupt), .init(.switchTo),
      .init(.openNotification), .init(.openRemoteNotification), .init(.openURL), .init(.silentPush),
    ] + modern + (notify ? [.init(.notify)] : []) + screenSteps(screens) + (windows ? windowSteps : [])
  }

  /// Whether the app explained schedules its background work with
  /// BGTaskScheduler: on iOS 13 and later (reference §3.5), when the log
  /// shows no `application:performFetchWithCompletionHandler:`. Such an app
  /// declares a refresh task, which turns background fetch off, so a launch
  /// in the background with no event the log shows is that task's.
  public static func runsTasks(on profile: OSProfile, _ log: ParsedLog) -> Bool {
    profile.hasTaskScheduler && log.symbol(of: .callback(.performFetch)) == nil
  }

  /// The most windows the search gives the app: each one more multiplies
  /// the states a search goes through.
  public static let windows = 3

  /// Another window opened, each window closed or disconnected.
  static var windowSteps: [ExplainStep] {
    [.init(.openScene)] + (1...windows).map { ExplainStep(.closeScene($0)) } + (1...windows).map { ExplainStep(.disconnectScene($0)) }
  }

  /// Pushing or presenting each class the log names, popping and dismissing:
  /// none when the log names no view controller.
  static func screenSteps(_ screens: [String]) -> [ExplainStep] {
    guard !screens.isEmpty else { return [] }
    return screens.map { ExplainStep(.push($0)) } + [.init(.pop)] + screens.map { ExplainStep(.present($0)) } + [.init(.dismiss)]
  }
}
