/// One simulated iOS device: a profile, a clock, the installed apps, and what the
/// user sees.
///
/// `Device` is a coordinator. What changes as it runs is one value, `state`
/// (`DeviceState`: saved and restored in one assignment), made of parts that
/// each own one concern: the `Kernel` (clock and queue), the `Trace`, the
/// `ProcessTable` (apps, pids, states, memory in use), the `Screen`, the
/// `MemoryMonitor`, the `Watchdogs`, `ProtectedData` and the `ViewHierarchy`.
/// The rules live in the parts, as functions of the part's state and an
/// event that return the effects to apply, held inline (`Effects`):
///
/// - `Screen.reduce`: Home, lock, unlock, interruptions, the switcher,
///   notifications, a force-quit;
/// - `BackgroundTime.reduce` (each app's): the open background tasks, their
///   end, their expiration a handler at a time, the budget, audio,
///   background launches, what a process's death drops;
/// - `MemoryMonitor.reduce`: levels, warnings, jetsam;
/// - `SceneRules`: what a scene app's process and scenes ask of each other;
/// - `SystemLaunch.reduce` (App/SystemLaunch.swift): the launches the system
///   makes without the user's tap, prewarming and App Intents, and which of
///   them it refuses (`SystemLaunch.refusal`);
/// - `App.reduce(_: RestorationEvent)` (App/Restoration.swift): scene state
///   restoration, when the activity is asked for, which session holds it,
///   what a force-quit carries;
/// - `ViewHierarchy.reduce` (UI/ViewControllerRules.swift): screen changes,
///   appearance, containment, views, the silent release of the view
///   controllers of a window that goes with its scene or its process, the
///   layout pass's choices; with `ViewHierarchy.refusal` and `Window.reduce`,
///   the push, pop, presentation, dismissal or view edit a window or an
///   object refuses, what one it takes does to its stack or modal chain, and
///   what a window shown, activated or exited walks.
///
/// The device applies the effects in one place, `Device+Effects.swift`, and
/// there too what a process's death does to each part (`processEnded`); where
/// a rule depends on what app code did, it returns a follow-up event that the
/// device sends back once the handlers before it ran. The rest of the
/// device's files run the cascades the effects start:
///
/// - `Device+Actions.swift`: the action table and what the user and the
///   system do, each a refusal check (`begin`), a part's event and `settle`;
/// - `Device+Lifecycle.swift`, `Device+Scenes.swift`: walking the process and
///   scene machines (`AppLifecycle`, `SceneLifecycle`);
/// - `Device+Delivery.swift`: the one path by which app code hears of anything;
/// - `Device+Background.swift`, `Device+Memory.swift`: the task, audio and
///   background-launch entry points, the expiration record and handler,
///   watchdogs, protected data, kills;
/// - `Device+ViewControllers.swift`: the actions on view controllers, windows,
///   the layout pass;
/// - `Device+Clock.swift`: advancing, timers, work inside handlers, and the
///   checks every action passes first (`begin`).
///
/// Those files call the parts and the coordinator's own files (this one,
/// `Device+Effects.swift`, `Device+Clock.swift`, `Device+Delivery.swift`),
/// never each other both ways (`DeviceFileLayeringTests`).
///
///     let dev = try Device(profile: OSProfile(version: 12), seed: 1)
///     let notes = try dev.install(AppConfig(bundle: "com.example.notes"))
///     try dev.launch(notes)
///     try dev.home()
///     dev.trace.callbacks(app: notes)
///     // ["application:willFinishLaunchingWithOptions:", "application:didFinishLaunchingWithOptions:",
///     //  "applicationDidBecomeActive:", "applicationWillResignActive:", "applicationDidEnterBackground:"]
public final class Device {
  // The stored properties are @exclusivity(unchecked): a dynamic check per
  // access cost a quarter of a batch run (docs/performance.md), and the
  // compiler flag that turns them all off would make the package one that no
  // other package can depend on. The attribute holds only where the access is
  // compiled in this module, so the bridge's hot paths change a device
  // through its methods (the accessors below are such methods).

  /// Everything that changes as the device runs, in one value: what
  /// `saveState` returns and `restoreState` puts back. The device reads and
  /// writes each part in place through the accessor of the same name
  /// (`kernel`, `trace`, `processes`, ...), which yields the part itself, not
  /// a copy of it.
  @exclusivity(unchecked) @usableFromInline var state: DeviceState

  public let profile: OSProfile
  /// The seed of the device's generator.
  public let seed: UInt64
  /// The device's only source of randomness.
  public var random: SeededGenerator {
    _read { yield state.random }
    _modify { yield &state.random }
  }
  public internal(set) var kernel: Kernel {
    _read { yield state.kernel }
    _modify { yield &state.kernel }
  }
  public internal(set) var trace: Trace {
    _read { yield state.trace }
    _modify { yield &state.trace }
  }
  /// Whether the trace records anything. Off, a device still keeps `stats`:
  /// experiments that only need metrics run without building a trace.
  public var recordsTrace: Bool {
    get { state.trace.isEnabled }
    set { state.trace.isEnabled = newValue }
  }
  /// The state machines' tables and the callback rows, held so the hot path
  /// reads them without `swift_once`.
  let machines = Machines()
  /// What the parts' rules read of the profile, the model and the quirks,
  /// worked out once: they are fixed for the device's life, and the rules
  /// run on every action and process event.
  let fixedFacts: FixedFacts

  struct FixedFacts {
    let screen: ScreenFacts
    /// The profile's parts; the process's and the policy's are filled in per step.
    let background: BackgroundFacts
  }
  /// Counts of opens, kills and data loss, kept even with the trace off.
  public internal(set) var stats: DeviceStats {
    _read { yield state.stats }
    _modify { yield &state.stats }
  }
  /// The edges of each state machine taken so far (`lifesim explore`'s coverage).
  @exclusivity(unchecked) public internal(set) var coverage = Coverage()
  /// Whoever runs the script functions. Held strongly: a weak reference would
  /// cost a side-table retain and release on every handled callback. A host
  /// that holds its device must set this to nil when it lets go of it (the
  /// bridge's device slot does, as it goes).
  @exclusivity(unchecked) public var host: DeviceHost?

  // MARK: Parts

  /// The installed apps and their processes.
  public internal(set) var processes: ProcessTable {
    _read { yield state.processes }
    _modify { yield &state.processes }
  }
  /// What the user sees.
  public internal(set) var screen: Screen {
    _read { yield state.screen }
    _modify { yield &state.screen }
  }
  /// RAM, the per-process limit and the pressure level.
  public internal(set) var memory: MemoryMonitor {
    _read { yield state.memory }
    _modify { yield &state.memory }
  }
  /// The watchdog armed now, if any (reference §3.1).
  public internal(set) var watchdogs: Watchdogs {
    _read { yield state.watchdogs }
    _modify { yield &state.watchdogs }
  }
  /// Data protection (reference §0).
  public internal(set) var protectedData: ProtectedData {
    _read { yield state.protectedData }
    _modify { yield &state.protectedData }
  }
  /// Every view controller and view made so far.
  public internal(set) var objects: ViewHierarchy {
    _read { yield state.objects }
    _modify { yield &state.objects }
  }

  // MARK: Profile and policies

  /// The documented variants in force (reference §8).
  public let quirks: QuirkSet
  /// The device model, when the script named one (reference §4).
  public let model: DeviceModel?
  /// The policies in force: the profile's defaults, overridable (`dev:policy`).
  public var policy: Policy {
    _read { yield state.policy }
    _modify {
      let limit = state.policy.continuedTaskLimit
      yield &state.policy
      // More room for continued tasks: those waiting in the queue may start.
      if state.policy.continuedTaskLimit != limit { startQueuedContinuedTasks() }
    }
  }
  /// Debug builds trap when an invariant fails; the fuzzer turns this off and
  /// reads `invariantViolations()` itself.
  @exclusivity(unchecked) public var trapsOnViolation = true
  /// How far `run()` may take the clock past its start (default 30 days).
  public var horizon: SimTime {
    _read { yield state.horizon }
    _modify { yield &state.horizon }
  }
  /// How many events may run at one virtual instant before the run is stopped
  /// as stalled (a zero-delay timer loop never lets the clock move).
  public var maxEventsPerInstant: Int {
    _read { yield state.maxEventsPerInstant }
    _modify { yield &state.maxEventsPerInstant }
  }
  /// Called by the engine's long loops (the clock's events, a workload's
  /// actions) every `checkpointStride` steps, with the steps done since the
  /// last call. The host stops the work there by throwing: an interrupt, or
  /// a budget spent. The device is then between two steps, as after an
  /// action. Nil: nothing is checked.
  @exclusivity(unchecked) public var checkpoint: ((_ steps: Int) throws -> Void)?
  /// The budget what the trace keeps counts in (`Trace.bytesKept`), shared
  /// with other devices; nil: none.
  public var traceBudget: MemoryBudget? {
    get { state.trace.budget }
    set { state.trace.budget = newValue }
  }
  /// The most apps one device holds.
  public static let maxApps = 10_000
  /// Steps left before the next checkpoint.
  @exclusivity(unchecked) var stepsToCheckpoint = Device.checkpointStride
  /// The steps of the view controllers' rules being applied, innermost last
  /// (`run(_: ViewControllerEvent, app:)`): empty between actions, and kept
  /// here so that a walk allocates nothing once it has grown.
  @exclusivity(unchecked) var rulesInProgress: [ViewControllerRuleFrame] = []
  /// The screen changes under way, innermost last (reference §3.8): empty
  /// between actions, like `rulesInProgress`.
  let screenChanges = ScreenChanges()
  /// The simulated user of the drive under way (`drive`), whose acts are
  /// events: none between actions.
  @exclusivity(unchecked) var userDriver: UserDriver?
  /// Steps between two checkpoints: often enough that Ctrl-C stops a loop
  /// at once, rarely enough to cost nothing per event.
  public static let checkpointStride = 256

  // MARK: The cascade running now

  /// What is running right now, for re-entrancy checks and error context.
  public internal(set) var busy: Busy? {
    _read { yield state.busy }
    _modify { yield &state.busy }
  }
  /// The URL of the callback whose handler runs, when it has one (`Delivery.hasURL`).
  public internal(set) var deliveryURL: String? {
    _read { yield state.deliveryURL }
    _modify { yield &state.deliveryURL }
  }
  var inClockLoop: Bool {
    _read { yield state.inClockLoop }
    _modify { yield &state.inClockLoop }
  }
  var nextTaskID: Int32 {
    _read { yield state.nextTaskID }
    _modify { yield &state.nextTaskID }
  }
  /// A process killed while its own code ran: the cascade that ran it unwinds.
  public internal(set) var killedWhileRunning: AppID? {
    _read { yield state.killedWhileRunning }
    _modify { yield &state.killedWhileRunning }
  }

  // The bridge reads these three on every handler call and every `dev.stats`.
  /// `stats`.
  public var statsNow: DeviceStats { state.stats }
  /// `deliveryURL`.
  public var deliveryURLNow: String? { state.deliveryURL }
  /// Whether `app` was killed while its own code ran (`killedWhileRunning`).
  /// Inlinable: the bridge asks after every handler, and a call into this
  /// module for one comparison costs it a cache line of its own.
  @inlinable public func wasKilledWhileRunning(_ app: AppID) -> Bool { state.killedWhileRunning == app }
  /// The handlers working now, innermost last (reference §3.8).
  public internal(set) var workFrames: [WorkFrame] {
    _read { yield state.workFrames }
    _modify { yield &state.workFrames }
  }
  /// What waits for a busy main thread, in the order asked (reference §3.8).
  public internal(set) var waiting: [Waiting] {
    _read { yield state.waiting }
    _modify { yield &state.waiting }
  }
  /// When the system asked for the scene update being delivered late, so its
  /// watchdog counts from then (reference §3.1, §3.8).
  var deliveryAskedAt: SimTime? {
    _read { yield state.deliveryAskedAt }
    _modify { yield &state.deliveryAskedAt }
  }
  /// How many handlers' work ended later than asked (`recordLateWork`).
  public internal(set) var heldByWork: Int {
    _read { yield state.heldByWork }
    _modify { yield &state.heldByWork }
  }
  /// While a `dev:at` function or a workload's user acts: the time the
  /// action was due, so an action made late says so (reference §3.8).
  var scriptDue: ActionDue? {
    _read { yield state.scriptDue }
    _modify { yield &state.scriptDue }
  }
  /// What BGTaskScheduler's conditions read: power and network (reference §3.5).
  public internal(set) var taskConditions: TaskConditions {
    _read { yield state.taskConditions }
    _modify { yield &state.taskConditions }
  }
  /// Why a process is dying, for its `data_loss` record.
  var deathReason: KillReason? {
    _read { yield state.deathReason }
    _modify { yield &state.deathReason }
  }
  /// A force-quit in progress: its `kill reason=user` record waits for the
  /// process to die, after the callbacks of its termination.
  var pendingUserKill: AppID? {
    _read { yield state.pendingUserKill }
    _modify { yield &state.pendingUserKill }
  }
  /// A notification the user opened: its delegate method waits for the app to
  /// come forward, and is delivered just before it becomes active (§2.12).
  var openedNotification: OpenedNotification? {
    _read { yield state.openedNotification }
    _modify { yield &state.openedNotification }
  }

  struct OpenedNotification {
    var app: AppID
    var remote: Bool
    /// The method it reaches: the UNUserNotificationCenter delegate's, the
    /// legacy remote-notification one, or none.
    var callback: Callback?
  }
  /// Counts scenes brought forward, to find the one a tap on the icon shows.
  var forwardCount: Int {
    _read { yield state.forwardCount }
    _modify { yield &state.forwardCount }
  }
  /// Set while launching: a launch method returned false, so a launch URL is refused (§2.7).
  var launchRefusedURL: Bool {
    _read { yield state.launchRefusedURL }
    _modify { yield &state.launchRefusedURL }
  }

  // MARK: The parts' state, by its familiar names

  public var apps: [App] { state.processes.apps }
  // Read-only here: the screen changes only through its rules (`Screen.reduce`).
  public var frontmost: AppID? { state.screen.frontmost }
  public var isLocked: Bool { state.screen.isLocked }
  public var interruption: Interruption? { state.screen.interruption }
  public var isSwitcherOpen: Bool { state.screen.isSwitcherOpen }
  /// Watchdogs are off under a debugger (reference §3.1).
  public var debugger: Bool {
    get { state.watchdogs.debugger }
    set { state.watchdogs.debugger = newValue }
  }
  /// The device has a passcode, so protected data locks with it (reference §0).
  public var passcode: Bool {
    get { state.protectedData.passcode }
    set { state.protectedData.passcode = newValue }
  }
  /// Physical memory in MB: the model's, the script's `memory_mb`, or nil.
  public var memoryMB: Int? { state.memory.ramMB }
  /// The per-process memory limit in MB: the model's, or 50% of RAM (reference §0).
  public var perProcessLimitMB: Int? { state.memory.perProcessLimitMB }
  /// The memory pressure level last recorded.
  public var memoryLevel: MemoryLevel { state.memory.level }
  public var viewControllers: [ViewController] { state.objects.viewControllers }
  public var views: [View] { state.objects.views }

  /// What the device is in the middle of running.
  public enum Busy: Equatable, Sendable {
    case callback(AppID, Callback)
    case notification(AppID, AppNotification)
    case appTimer(AppID)
    case expiration(AppID)
    /// A BGTaskScheduler task's launch handler (reference §3.5).
    case taskLaunch(AppID)
    case script
    /// A host policy deciding for the engine in the middle of a cascade
    /// (`background_time`, `choose_victim`): nothing may change the device
    /// under the decision.
    case policy(PolicyKind)
  }

  /// The policies a host may answer with its own code.
  public enum PolicyKind: String, Sendable {
    case backgroundTime = "background_time"
    case chooseVictim = "choose_victim"
    case taskScheduler = "task_scheduler"
  }

  /// - Parameter backgroundGPU: whether `BGTaskScheduler.supportedResources`
  ///   holds `.gpu`; nil: the model's fact (§3.5), false with no model.
  public init(profile: OSProfile, seed: UInt64, debugger: Bool = false,
              model: DeviceModel? = nil, memoryMB: Int? = nil, quirks: QuirkSet = QuirkSet(),
              backgroundGPU: Bool? = nil) {
    self.profile = profile
    self.seed = seed
    self.quirks = quirks
    self.model = model
    fixedFacts = FixedFacts(
      screen: ScreenFacts(profile: profile, model: model),
      background: BackgroundFacts(now: .zero, state: .notRunning, pid: 0, audioMode: false,
                                  exitsOnSuspend: profile.honoursExitsOnSuspend, expirationLead: .zero,
                                  launchTime: .zero, taskKillCode: profile.backgroundTaskKillCode,
                                  launchEntersBackground: quirks.contains(.backgroundLaunchEntersBackground)))
    state = DeviceState(random: SeededGenerator(seed: seed),
                        memory: MemoryMonitor(ramMB: memoryMB ?? model?.ramMB, model: model),
                        watchdogs: Watchdogs(debugger: debugger), policy: Policy(profile: profile))
    state.taskConditions.backgroundGPU = backgroundGPU ?? model?.supportsBackgroundGPU ?? false
  }

  /// The current virtual time.
  public var now: SimTime { state.kernel.now }

  /// Installs an app.
  /// - Throws: `SimulationError.duplicateBundle`.
  @discardableResult
  public func install(_ config: AppConfig) throws -> AppID {
    // Finding a bundle and every check of memory walk all the apps: a
    // device of a million apps would make each of them a long loop.
    guard apps.count < Device.maxApps else {
      throw SimulationError.invalidAction(.install, .tooManyApps(limit: Device.maxApps))
    }
    if processes.find(bundle: config.bundle) != nil {
      throw SimulationError.duplicateBundle(config.bundle)
    }
    try checkTrace()
    // §1.3: scenes need iOS 13 and the app's manifest; a manifest is ignored before 13.
    let adopts = (config.scenes ?? true) && profile.supportsScenes
    let id = processes.install(config, model: adopts ? .scene : .appDelegate)
    trace.keep(name: config.bundle, extra: MemoryLayout<App>.stride)
    trace.appNames.append(config.bundle)
    return id
  }

  /// The app with a bundle id.
  public func app(bundle: String) -> AppID? { processes.find(bundle: bundle) }

  public subscript(id: AppID) -> App {
    // Borrowed and in place: `self[id].state` and `self[id].unsaved += 1` must
    // not copy the whole app (its arrays and strings) out and back, as a plain
    // get and set would.
    // By address, as `ProcessTable`'s subscript says why.
    unsafeAddress { state.processes.address(of: id) }
    unsafeMutableAddress { state.processes.mutableAddress(of: id) }
  }

  /// Registers a script handler, so the engine calls the host for it.
  public func setHandled(_ callback: Callback, for id: AppID) {
    self[id].handled.insert(callback)
    self[id].implemented.insert(callback)
  }
  /// Registers handlers for every callback (`app:on("*", f)`).
  public func setHandlesAll(for id: AppID) { self[id].handled = .all }
  /// Registers an observer.
  public func setObserved(_ n: AppNotification, for id: AppID) { self[id].observed.insert(n) }

  /// The sequence number of the next trace record, for `since` filters.
  public func mark() -> Int { state.trace.nextSeq }

  /// Appends a `log` record.
  public func log(_ message: String, app: AppID? = nil) {
    state.trace.append({ $0.app = app; $0.detail = message }, kind: .log, at: state.kernel.now)
  }

  /// Appends a `warning` record: something UIKit would complain about.
  public func warn(_ message: String, app: AppID? = nil) {
    state.trace.append({ $0.app = app; $0.detail = message }, kind: .warning, at: state.kernel.now)
  }
}
