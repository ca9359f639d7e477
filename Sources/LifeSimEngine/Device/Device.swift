/// One simulated iOS device: a profile, a clock, the installed apps, and what the
/// user sees (SPEC §1.1).
///
/// A device is built from parts: the `Kernel` (clock and queue), the `Trace`, the
/// apps with their state machines (`AppLifecycle`, `Routes`) and the profile's
/// facts. Actions live in `Device+Actions.swift`; the delivery of callbacks in
/// `Device+Lifecycle.swift`; the clock in `Device+Clock.swift`.
///
///     let dev = try Device(profile: OSProfile(version: 12), seed: 1)
///     let notes = try dev.install(AppConfig(bundle: "com.example.notes"))
///     try dev.launch(notes)
///     try dev.home()
///     dev.trace.callbacks(app: notes)
///     // ["application:willFinishLaunchingWithOptions:", "application:didFinishLaunchingWithOptions:",
///     //  "applicationDidBecomeActive:", "applicationWillResignActive:", "applicationDidEnterBackground:"]
public final class Device {
  public let profile: OSProfile
  /// The seed of the device's generator.
  public let seed: UInt64
  /// The device's only source of randomness.
  public var random: SeededGenerator
  public internal(set) var kernel = Kernel()
  public internal(set) var trace = Trace()
  /// Whether the trace records anything. Off, a device still keeps `stats`:
  /// experiments that only need metrics run without building a trace.
  public var recordsTrace: Bool {
    get { trace.isEnabled }
    set { trace.isEnabled = newValue }
  }
  /// Counts of opens, kills and data loss, kept even with the trace off.
  public internal(set) var stats = DeviceStats()
  public internal(set) var apps: [App] = []
  /// Whoever runs the script functions; the bridge owns the device, so this is weak.
  public weak var host: DeviceHost?

  /// The app on screen (or the one that returns on unlock).
  public internal(set) var frontmost: AppID?
  public internal(set) var isLocked = false
  public internal(set) var interruption: Interruption?
  public internal(set) var isSwitcherOpen = false
  /// Watchdogs are off under a debugger (reference §3.1).
  public var debugger: Bool
  /// The documented variants in force (reference §8).
  public let quirks: QuirkSet
  /// The device model, when the script named one (reference §4).
  public let model: DeviceModel?
  /// Physical memory in MB: the model's, the script's `memory_mb`, or nil.
  public let memoryMB: Int?
  /// The per-process memory limit in MB: the model's, or 50% of RAM (reference §0).
  public var perProcessLimitMB: Int? {
    model?.perProcessLimitMB ?? memoryMB.map(DeviceModel.defaultLimitMB(ramMB:))
  }
  /// The policies in force: the profile's defaults, overridable (`dev:policy`).
  public var policy: Policy
  /// The device has a passcode, so protected data locks with it (reference §0).
  public var passcode = false
  /// The memory pressure level last recorded.
  public internal(set) var memoryLevel = MemoryLevel.normal
  /// Debug builds trap when an invariant fails; the fuzzer turns this off and
  /// reads `invariantViolations()` itself.
  public var trapsOnViolation = true
  /// How far `run()` may take the clock past its start (default 30 days).
  public var horizon: SimTime = .seconds(30 * 86_400)
  /// How many events may run at one virtual instant before the run is stopped
  /// as stalled (a zero-delay timer loop never lets the clock move).
  public var maxEventsPerInstant = 1_000_000

  /// Every view controller and view ever made, by `ObjectID` (SPEC §1.4).
  public internal(set) var viewControllers: [ViewController] = []
  public internal(set) var views: [View] = []
  /// Instances made so far per (app, class), for instance numbers.
  var instanceCounts: [Int64: Int32] = [:]
  /// A view entered a window and waits for the next layout and display pass.
  var layoutPending = false

  /// What is running right now, for re-entrancy checks and error context.
  public internal(set) var busy: Busy?
  var inClockLoop = false
  var nextPid: Int32 = 1
  var nextTaskID: Int32 = 1
  /// The watchdog watching the callback that runs now, if any (reference §3.1).
  var watchdog: Watchdog?
  /// A process killed while its own code ran: the cascade that ran it unwinds.
  public internal(set) var killedWhileRunning: AppID?
  /// Why a process is dying, for its `data_loss` record.
  var deathReason: KillReason?
  var lockEpoch: UInt32 = 0
  var protectedDataAvailable = true
  var memoryCheckScheduled = false
  /// Counts scenes brought forward, to find the one a tap on the icon shows.
  var forwardCount = 0
  /// Set while launching: a launch method returned false, so a launch URL is refused (§2.7).
  var launchRefusedURL = false

  /// What the device is in the middle of running.
  public enum Busy: Equatable, Sendable {
    case callback(AppID, Callback)
    case notification(AppID, AppNotification)
    case appTimer(AppID)
    case expiration(AppID)
    case script
  }

  public init(profile: OSProfile, seed: UInt64, debugger: Bool = false,
              model: DeviceModel? = nil, memoryMB: Int? = nil, quirks: QuirkSet = QuirkSet()) {
    self.profile = profile
    self.seed = seed
    self.random = SeededGenerator(seed: seed)
    self.debugger = debugger
    self.quirks = quirks
    self.policy = Policy(profile: profile)
    self.model = model
    self.memoryMB = memoryMB ?? model?.ramMB
  }

  /// The current virtual time.
  public var now: SimTime { kernel.now }

  /// Installs an app.
  /// - Throws: `SimulationError.duplicateBundle`.
  @discardableResult
  public func install(_ config: AppConfig) throws -> AppID {
    if apps.contains(where: { $0.config.bundle == config.bundle }) {
      throw SimulationError.duplicateBundle(config.bundle)
    }
    let id = AppID(apps.count)
    // §1.3: scenes need iOS 13 and the app's manifest; a manifest is ignored before 13.
    let adopts = (config.scenes ?? true) && profile.supportsScenes
    apps.append(App(id: id, config: config, model: adopts ? .scene : .appDelegate))
    trace.appNames.append(config.bundle)
    return id
  }

  /// The app with a bundle id.
  public func app(bundle: String) -> AppID? {
    apps.first(where: { $0.config.bundle == bundle })?.id
  }

  public subscript(id: AppID) -> App {
    // Borrowed and in place: `self[id].state` and `self[id].unsaved += 1` must
    // not copy the whole app (its arrays and strings) out and back, as a plain
    // get and set would.
    _read { yield apps[Int(id.index)] }
    _modify { yield &apps[Int(id.index)] }
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
