/// One simulated iOS device: a profile, a clock, the installed apps, and what the
/// user sees.
///
/// `Device` coordinates parts that each own one concern, with their own
/// invariants and tests: the `Kernel` (clock and queue), the `Trace`, the
/// `ProcessTable` (apps, pids, states, memory in use), the `Screen`, the
/// `MemoryMonitor` (levels and limits), the `Watchdogs`, `ProtectedData`
/// and the `ViewHierarchy`. The device itself keeps the profile, the
/// policies, and the order of each cascade:
///
/// - `Device+Actions.swift`: what the user and the system do;
/// - `Device+Lifecycle.swift`, `Device+Scenes.swift`: walking the process and
///   scene machines (`AppLifecycle`, `SceneLifecycle`);
/// - `Device+Delivery.swift`: the one path by which app code hears of anything;
/// - `Device+Background.swift`, `Device+Memory.swift`: background time,
///   watchdogs, protected data, jetsam;
/// - `Device+ViewControllers.swift`: screen changes, views, the layout pass;
/// - `Device+Clock.swift`: advancing, timers, work inside handlers.
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
  // through its methods.
  public let profile: OSProfile
  /// The seed of the device's generator.
  public let seed: UInt64
  /// The device's only source of randomness.
  @exclusivity(unchecked) public var random: SeededGenerator
  @exclusivity(unchecked) public internal(set) var kernel = Kernel()
  @exclusivity(unchecked) public internal(set) var trace = Trace()
  /// Whether the trace records anything. Off, a device still keeps `stats`:
  /// experiments that only need metrics run without building a trace.
  public var recordsTrace: Bool {
    get { trace.isEnabled }
    set { trace.isEnabled = newValue }
  }
  /// The state machines' tables and the callback rows, held so the hot path
  /// reads them without `swift_once`.
  let machines = Machines()
  /// Counts of opens, kills and data loss, kept even with the trace off.
  @exclusivity(unchecked) public internal(set) var stats = DeviceStats()
  /// The edges of each state machine taken so far (`lifesim explore`'s coverage).
  @exclusivity(unchecked) public internal(set) var coverage = Coverage()
  /// Whoever runs the script functions. Held strongly: a weak reference would
  /// cost a side-table retain and release on every handled callback. A host
  /// that holds its device must set this to nil when it lets go of it (the
  /// bridge's device slot does, as it goes).
  @exclusivity(unchecked) public var host: DeviceHost?

  // MARK: Parts

  /// The installed apps and their processes.
  @exclusivity(unchecked) public internal(set) var processes = ProcessTable()
  /// What the user sees.
  @exclusivity(unchecked) public internal(set) var screen = Screen()
  /// RAM, the per-process limit and the pressure level.
  @exclusivity(unchecked) public internal(set) var memory: MemoryMonitor
  /// The watchdog armed now, if any (reference §3.1).
  @exclusivity(unchecked) public internal(set) var watchdogs: Watchdogs
  /// Data protection (reference §0).
  @exclusivity(unchecked) public internal(set) var protectedData = ProtectedData()
  /// Every view controller and view made so far.
  @exclusivity(unchecked) public internal(set) var objects = ViewHierarchy()

  // MARK: Profile and policies

  /// The documented variants in force (reference §8).
  public let quirks: QuirkSet
  /// The device model, when the script named one (reference §4).
  public let model: DeviceModel?
  /// The policies in force: the profile's defaults, overridable (`dev:policy`).
  @exclusivity(unchecked) public var policy: Policy
  /// Debug builds trap when an invariant fails; the fuzzer turns this off and
  /// reads `invariantViolations()` itself.
  @exclusivity(unchecked) public var trapsOnViolation = true
  /// How far `run()` may take the clock past its start (default 30 days).
  @exclusivity(unchecked) public var horizon: SimTime = .seconds(30 * 86_400)
  /// How many events may run at one virtual instant before the run is stopped
  /// as stalled (a zero-delay timer loop never lets the clock move).
  @exclusivity(unchecked) public var maxEventsPerInstant = 1_000_000
  /// Called by the engine's long loops (the clock's events, a workload's
  /// actions) every `checkpointStride` steps, with the steps done since the
  /// last call. The host stops the work there by throwing: an interrupt, or
  /// a budget spent. The device is then between two steps, as after an
  /// action. Nil: nothing is checked.
  @exclusivity(unchecked) public var checkpoint: ((_ steps: Int) throws -> Void)?
  /// The budget what the trace keeps counts in (`Trace.bytesKept`), shared
  /// with other devices; nil: none.
  public var traceBudget: MemoryBudget? {
    get { trace.budget }
    set { trace.budget = newValue }
  }
  /// The most apps one device holds.
  public static let maxApps = 10_000
  /// Steps left before the next checkpoint.
  @exclusivity(unchecked) var stepsToCheckpoint = Device.checkpointStride
  /// Steps between two checkpoints: often enough that Ctrl-C stops a loop
  /// at once, rarely enough to cost nothing per event.
  public static let checkpointStride = 256

  // MARK: The cascade running now

  /// What is running right now, for re-entrancy checks and error context.
  @exclusivity(unchecked) public internal(set) var busy: Busy?
  /// The URL of the callback whose handler runs, when it has one (`Delivery.hasURL`).
  @exclusivity(unchecked) public internal(set) var deliveryURL: String?
  @exclusivity(unchecked) var inClockLoop = false
  @exclusivity(unchecked) var nextTaskID: Int32 = 1
  /// A process killed while its own code ran: the cascade that ran it unwinds.
  @exclusivity(unchecked) public internal(set) var killedWhileRunning: AppID?

  // The bridge reads these three on every handler call and every `dev.stats`:
  // through these accessors, compiled here, where the properties' attribute
  // holds. Read directly from another module, each read is checked at run time.
  /// `stats`.
  public var statsNow: DeviceStats { stats }
  /// `deliveryURL`.
  public var deliveryURLNow: String? { deliveryURL }
  /// Whether `app` was killed while its own code ran (`killedWhileRunning`).
  public func wasKilledWhileRunning(_ app: AppID) -> Bool { killedWhileRunning == app }
  /// Why a process is dying, for its `data_loss` record.
  @exclusivity(unchecked) var deathReason: KillReason?
  /// A force-quit in progress: its `kill reason=user` record waits for the
  /// process to die, after the callbacks of its termination.
  @exclusivity(unchecked) var pendingUserKill: AppID?
  /// A notification the user opened: its delegate method waits for the app to
  /// come forward, and is delivered just before it becomes active (§2.12).
  @exclusivity(unchecked) var openedNotification: OpenedNotification?

  struct OpenedNotification {
    var app: AppID
    var remote: Bool
    /// The method it reaches: the UNUserNotificationCenter delegate's, the
    /// legacy remote-notification one, or none.
    var callback: Callback?
  }
  /// Counts scenes brought forward, to find the one a tap on the icon shows.
  @exclusivity(unchecked) var forwardCount = 0
  /// Set while launching: a launch method returned false, so a launch URL is refused (§2.7).
  @exclusivity(unchecked) var launchRefusedURL = false

  // MARK: The parts' state, by its familiar names

  public var apps: [App] { processes.apps }
  public internal(set) var frontmost: AppID? {
    get { screen.frontmost }
    set { screen.frontmost = newValue }
  }
  public internal(set) var isLocked: Bool {
    get { screen.isLocked }
    set { screen.isLocked = newValue }
  }
  public internal(set) var interruption: Interruption? {
    get { screen.interruption }
    set {
      screen.interruption = newValue
      if newValue == nil { screen.activeUnderInterruption = false }
    }
  }
  public internal(set) var isSwitcherOpen: Bool {
    get { screen.isSwitcherOpen }
    set { screen.isSwitcherOpen = newValue }
  }
  /// Watchdogs are off under a debugger (reference §3.1).
  public var debugger: Bool {
    get { watchdogs.debugger }
    set { watchdogs.debugger = newValue }
  }
  /// The device has a passcode, so protected data locks with it (reference §0).
  public var passcode: Bool {
    get { protectedData.passcode }
    set { protectedData.passcode = newValue }
  }
  /// Physical memory in MB: the model's, the script's `memory_mb`, or nil.
  public var memoryMB: Int? { memory.ramMB }
  /// The per-process memory limit in MB: the model's, or 50% of RAM (reference §0).
  public var perProcessLimitMB: Int? { memory.perProcessLimitMB }
  /// The memory pressure level last recorded.
  public var memoryLevel: MemoryLevel { memory.level }
  public var viewControllers: [ViewController] { objects.viewControllers }
  public var views: [View] { objects.views }

  /// What the device is in the middle of running.
  public enum Busy: Equatable, Sendable {
    case callback(AppID, Callback)
    case notification(AppID, AppNotification)
    case appTimer(AppID)
    case expiration(AppID)
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
  }

  public init(profile: OSProfile, seed: UInt64, debugger: Bool = false,
              model: DeviceModel? = nil, memoryMB: Int? = nil, quirks: QuirkSet = QuirkSet()) {
    self.profile = profile
    self.seed = seed
    self.random = SeededGenerator(seed: seed)
    self.watchdogs = Watchdogs(debugger: debugger)
    self.quirks = quirks
    self.policy = Policy(profile: profile)
    self.model = model
    self.memory = MemoryMonitor(ramMB: memoryMB ?? model?.ramMB, model: model)
  }

  /// The current virtual time.
  public var now: SimTime { kernel.now }

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
    _read { yield processes[id] }
    _modify { yield &processes[id] }
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
  public func mark() -> Int { trace.nextSeq }

  /// Appends a `log` record.
  public func log(_ message: String, app: AppID? = nil) {
    trace.append({ $0.app = app; $0.detail = message }, kind: .log, at: now)
  }

  /// Appends a `warning` record: something UIKit would complain about.
  public func warn(_ message: String, app: AppID? = nil) {
    trace.append({ $0.app = app; $0.detail = message }, kind: .warning, at: now)
  }
}
