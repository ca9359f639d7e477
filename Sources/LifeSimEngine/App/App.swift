/// An app's Info.plist-like configuration.
public struct AppConfig: Sendable {
  /// The bundle id, unique on the device.
  public var bundle: String
  /// Whether the app adopts the scene lifecycle; nil means "when the OS has scenes".
  public var scenes: Bool?
  /// `UIApplicationExitsOnSuspend`.
  public var exitsOnSuspend: Bool
  /// `UIBackgroundModes`.
  public var backgroundModes: [String]
  /// Resident memory in MB.
  public var footprintMB: Double
  /// `BGTaskSchedulerPermittedIdentifiers` (reference §3.5).
  public var backgroundTasks: [String] = []
  /// The Background GPU Access entitlement
  /// (`com.apple.developer.background-tasks.continued-processing.gpu`, §3.5).
  public var backgroundGPU = false
  /// The root view controller and how it is made; nil gives an app with no
  /// view controllers.
  public var root: ObjectSpec?

  public init(bundle: String, scenes: Bool? = nil, exitsOnSuspend: Bool = false,
              backgroundModes: [String] = [], footprintMB: Double = 100, root: ObjectSpec? = nil) {
    self.root = root
    self.bundle = bundle
    self.scenes = scenes
    self.exitsOnSuspend = exitsOnSuspend
    self.backgroundModes = backgroundModes
    self.footprintMB = footprintMB
  }
}

/// An installed app and, when it runs, its process.
public struct App: Sendable {
  public let id: AppID
  public let config: AppConfig
  /// Which delegate callbacks it gets, fixed at install from the config and the profile.
  public let model: LifecycleModel

  // State, pid and footprint change only through `ProcessTable`, which keeps
  // its totals in step with them (hence `fileprivate(set)`).
  public fileprivate(set) var state: AppState = .notRunning
  /// The process id, or 0 when not running.
  public fileprivate(set) var pid: Int32 = 0
  /// How many times the process was started.
  public fileprivate(set) var launches = 0
  /// When the app last left or entered the foreground (for LRU).
  public internal(set) var lastUsed: SimTime = .zero
  /// Scene model: the app's open scene sessions, connected or not, in order of
  /// creation. A session closed by the user or discarded by a force-quit leaves.
  public internal(set) var scenes = SceneList()
  /// It has scene sessions.
  public var hasScenes: Bool { !scenes.isEmpty }
  /// Scene model: sessions discarded while the app could not hear of it, to be
  /// reported by `application:didDiscardSceneSessions:` at the next launch (§2.6 c).
  public internal(set) var discardedSessions: [Int32] = []
  /// The number the next scene session gets.
  var nextSceneNumber: Int32 = 1
  /// The process's time in the background and its rules (`BackgroundTime`),
  /// held here so that its `reduce` runs in place.
  public internal(set) var background = BackgroundTime(epoch: 0, deadline: nil, launchEnd: nil, playingAudio: false)
  /// Whether the app has the `audio` background mode, read once at install.
  public let audioMode: Bool
  /// After a user force-quit: no background launch until the user opens the app (§2.6).
  /// The app has a card in the switcher (`BackgroundTime.inSwitcher`, §2.6).
  public var hasSwitcherCard: Bool { background.inSwitcher }
  public internal(set) var backgroundLaunchBlocked: Bool {
    get { background.launchBlocked }
    set { background.launchBlocked = newValue }
  }

  /// The app's own Background App Refresh switch is off (Settings, §3.5).
  public internal(set) var backgroundRefreshOff = false

  // The running process (reset at each launch).

  /// The shared files whose lock the process holds (`ctx:lock_file`, §3.5.1),
  /// in the order taken.
  public internal(set) var fileLocks: [String] = []

  /// Background tasks open in this process (reference §3.4): the
  /// background part's (`BackgroundTime.tasks`), which changes them.
  public var tasks: [BackgroundTask] { background.tasks }
  /// The background-task limit of the current stretch in the background.
  public internal(set) var backgroundDeadline: SimTime? {
    get { background.deadline }
    set { background.deadline = newValue }
  }
  /// The end of the current background launch window (§2.8), if any.
  public internal(set) var backgroundLaunchEnd: SimTime? {
    get { background.launchEnd }
    set { background.launchEnd = newValue }
  }
  /// Playing audio (with the `audio` mode): the process stays running (§3.6).
  public internal(set) var playingAudio: Bool {
    get { background.playingAudio }
    set { background.playingAudio = newValue }
  }
  /// The process was prewarmed and waits for the user's tap (§2.1 "Prewarming").
  public internal(set) var prewarm: Prewarm?
  /// A restoration activity that survived a force-quit, for the next new
  /// session (§2.11, §8.12).
  public internal(set) var carriedRestorationActivity: HostToken?
  /// Resident memory of the process in MB; the config's value at launch, 0
  /// when not running.
  public fileprivate(set) var footprintMB: Double = 0
  /// Unsaved changes (`ctx:dirty`), lost if the process dies holding them.
  public internal(set) var unsaved = 0
  /// The process's windows: one in the app-delegate model, one per connected
  /// scene in the scene model.
  public internal(set) var windows: [Window] = []
  /// Voids scheduled OS deadlines when the process changes between foreground and background.
  var epoch: UInt32 {
    get { background.epoch }
    set { background.epoch = newValue }
  }

  /// The callbacks the script handles.
  public var handled = CallbackSet()
  /// The callbacks with a handler of their own (not only `on("*")`): what the
  /// app "implements", for `viewIsAppearing:` on iOS 13–16 (§0).
  public var implemented = CallbackSet()
  /// The notifications the script observes.
  public var observed = NotificationSet()
  /// The callbacks whose handler has run at least once: with `implemented`,
  /// what tells a handler that never ran (`Device.unreachableHandlers`).
  public internal(set) var delivered = CallbackSet()

  /// BGTaskScheduler: registrations, pending requests, running tasks (§3.5).
  public internal(set) var bgTasks: BGTaskBook

  /// Timers that came due while the process was suspended (reference §0 "Timers").
  var parkedTimers: [ScheduledEvent] = []

  init(id: AppID, config: AppConfig, model: LifecycleModel) {
    self.id = id
    self.config = config
    self.model = model
    audioMode = config.backgroundModes.contains("audio")
    bgTasks = BGTaskBook(permitted: config.backgroundTasks)
  }

  /// The jetsam band of the process (reference §4): audio 12, foreground 10,
  /// running in the background 3, suspended 0.
  public var band: JetsamBand {
    if playingAudio && audioMode && state.isExecuting { return .audio }
    switch state {
    case .active, .inactive: return .foreground
    case .background: return .background
    case .suspended, .notRunning: return .idle
    }
  }

  /// Whether the app declares a `UIBackgroundModes` key.
  public func hasMode(_ mode: String) -> Bool { config.backgroundModes.contains(mode) }

  /// The index in `scenes` of session `number`, if it is open. Always
  /// inlined: a call passes the whole app, which the caller copies first.
  @inline(__always)
  public func sceneIndex(_ number: Int32) -> Int? {
    scenes.index(of: number)
  }

  /// The scene a tap on the icon brings forward: the one brought forward last.
  public var focusScene: Int32? {
    @inline(__always) get { scenes.focus }
  }
}

/// The process table: every installed app, and the totals the engine reads
/// at every step, kept in step as they change instead of recomputed by a
/// walk over copies of every app.
///
/// Invariants (`violations()`): a process runs exactly when it has a pid; pids
/// are unique and never reused; `runningCount` counts the running processes;
/// `memoryInUseMB` is the sum of their footprints; a dead process has none.
public struct ProcessTable: Sendable {
  public private(set) var apps: [App] = []
  /// The apps by bundle id: a device may hold thousands.
  private var byBundle: [String: AppID] = [:]
  private var nextPid: Int32 = 1
  /// Processes that exist (any state but notRunning).
  public private(set) var runningCount = 0
  /// Memory in use, MB: every process that exists, suspended ones included (§4).
  /// Summed again in install order whenever a footprint changes, so that it is
  /// bit for bit the sum the trace has always printed (a running `+=` and `-=`
  /// drifts in the last bits once footprints have fractions).
  public private(set) var memoryInUseMB = 0.0

  public init() {}

  /// The app in place, by address in the table's storage. Not `_read`:
  /// a debug build's `_read` yields a copy of the app made in the accessor's
  /// own frame, and Swift 6.0 finishes copying a field of several words out
  /// of it after the access ended, reading freed memory (it crashed batch
  /// workers under `ulimit -v`, where freed memory is unmapped). The storage
  /// does not move during an access: apps are added only between actions.
  public subscript(id: AppID) -> App {
    unsafeAddress { address(of: id) }
    unsafeMutableAddress { mutableAddress(of: id) }
  }

  /// Where app `id` is in the storage (see the subscript).
  func address(of id: AppID) -> UnsafePointer<App> {
    apps.withUnsafeBufferPointer { UnsafePointer($0.baseAddress!) } + Int(id.index)
  }

  /// Where app `id` is, in storage made unique first (see the subscript).
  mutating func mutableAddress(of id: AppID) -> UnsafeMutablePointer<App> {
    apps.withUnsafeMutableBufferPointer { $0.baseAddress! } + Int(id.index)
  }

  /// Adds an app; the caller has checked that its bundle is new.
  mutating func install(_ config: AppConfig, model: LifecycleModel) -> AppID {
    let id = AppID(apps.count)
    apps.append(App(id: id, config: config, model: model))
    byBundle[config.bundle] = id
    return id
  }

  /// The app with a bundle id.
  public func find(bundle: String) -> AppID? {
    byBundle[bundle]
  }

  /// Changes a process's state. Starting gives it a new pid and its
  /// configured footprint; ending takes both away.
  /// - Returns: the pid the process had before the change (0 if none).
  /// Inlined into `Device.setState`, its one caller, which every state change goes through.
  @discardableResult @inline(__always)
  mutating func setState(_ id: AppID, _ to: AppState) -> Int32 {
    let i = Int(id.index)
    let from = apps[i].state, pid = apps[i].pid
    apps[i].state = to
    if from == .notRunning && to != .notRunning {
      apps[i].pid = nextPid
      nextPid += 1
      apps[i].launches += 1
      runningCount += 1
      setFootprint(id, apps[i].config.footprintMB)
    } else if from != .notRunning && to == .notRunning {
      apps[i].pid = 0
      runningCount -= 1
      setFootprint(id, 0)
    }
    return pid
  }

  /// The apps whose processes execute code now (not suspended, not dead), in
  /// install order: a snapshot, so a loop over it visits the apps that ran
  /// when it started, without copying any app.
  public func executing() -> [AppID] {
    var ids: [AppID] = []
    for i in apps.indices where apps[i].state.isExecuting { ids.append(apps[i].id) }
    return ids
  }

  /// `executing()` written into `ids` (room for every app), without an
  /// array: the number written.
  func executing(into ids: UnsafeMutableBufferPointer<AppID>) -> Int {
    var n = 0
    for i in apps.indices where apps[i].state.isExecuting {
      ids[n] = apps[i].id
      n += 1
    }
    return n
  }

  /// Sets a process's resident memory (never below 0).
  mutating func setFootprint(_ id: AppID, _ mb: Double) {
    apps[Int(id.index)].footprintMB = max(0, mb)
    var total = 0.0
    for i in apps.indices where apps[i].state.isRunning { total += apps[i].footprintMB }
    memoryInUseMB = total
  }

  /// The processes jetsam may kill, in its default order (§0, §4): lowest band
  /// first (suspended 0, background 3, foreground 10, audio 12); within a band
  /// the least recently used first; ties broken by install order.
  public func victimCandidates() -> [VictimCandidate] {
    var candidates: [VictimCandidate] = []
    candidates.reserveCapacity(runningCount)
    for i in apps.indices where apps[i].state.isRunning {
      candidates.append(VictimCandidate(app: apps[i].id, band: apps[i].band, footprintMB: apps[i].footprintMB,
                                        lastUsed: apps[i].lastUsed, state: apps[i].state, unsaved: apps[i].unsaved))
    }
    candidates.sort { a, b in
      if a.band != b.band { return a.band < b.band }
      if a.lastUsed != b.lastUsed { return a.lastUsed < b.lastUsed }
      return a.app < b.app
    }
    return candidates
  }

  /// The victim jetsam takes by `order`, found in one pass without building
  /// or sorting candidates: for `.bands` the first of `victimCandidates()`; for
  /// `.lru` the least recently used of them, the first in that order on a tie.
  public func firstVictim(order: VictimOrder = .bands) -> AppID? {
    var best = -1
    // The best so far's band and last use, kept: a band is worked out.
    var yb = JetsamBand.idle, yt = SimTime.zero
    for i in apps.indices where apps[i].state.isRunning {
      let xb = apps[i].band, xt = apps[i].lastUsed  // by index: no app is copied
      let better: Bool
      if best < 0 {
        better = true
      } else {
        switch order {
        case .bands: better = xb < yb || (xb == yb && xt < yt)
        case .lru: better = xt < yt || (xt == yt && xb < yb)
        }
      }
      if better { (best, yb, yt) = (i, xb, xt) }
    }
    return best < 0 ? nil : apps[best].id
  }

  /// Every invariant of the table that does not hold now.
  public func violations() -> [String] {
    var found: [String] = []
    var running = 0, total = 0.0
    var pids = Set<Int32>()
    for app in apps {
      if app.state.isRunning {
        running += 1
        total += app.footprintMB
        if app.pid <= 0 || app.pid >= nextPid { found.append("\(app.config.bundle): pid \(app.pid) while \(app.state)") }
        if !pids.insert(app.pid).inserted { found.append("\(app.config.bundle): pid \(app.pid) used twice") }
      } else if app.pid != 0 || app.footprintMB != 0 {
        found.append("\(app.config.bundle): pid \(app.pid) and \(app.footprintMB) MB while notRunning")
      }
    }
    if running != runningCount { found.append("runningCount \(runningCount), but \(running) processes run") }
    if total != memoryInUseMB { found.append("memoryInUseMB \(memoryInUseMB), but the footprints sum to \(total)") }
    return found
  }
}

/// A background task (`beginBackgroundTask(withName:expirationHandler:)`, reference §3.4).
public struct BackgroundTask: Sendable, Equatable {
  /// Unique on the device.
  public let id: Int32
  public let name: String
  /// The host's expiration handler, if one was given.
  public let expiration: HostToken?
  /// When it began: what a note on a task left open names.
  public var began: SimTime = .zero
  /// The expiration handler has been called.
  public internal(set) var expired = false
}

/// A process the system started ahead of the user's tap (reference §2.1
/// "Prewarming"), until the tap reuses it.
public struct Prewarm: Equatable, Sendable {
  /// `ActivePrewarm = "1"` is in the process environment (iOS 15 only).
  public var activePrewarmEnvironment: Bool
  /// Protected data was unavailable when the prewarm ran: the tap makes it
  /// available before the scene connects.
  public var withoutProtectedData: Bool
}
