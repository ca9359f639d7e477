/// An app's Info.plist-like configuration (SPEC §1.2).
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
  /// The root view controller and how it is made; nil gives an app with no
  /// view controllers (SPEC §1.2).
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

  public internal(set) var state: AppState = .notRunning
  /// The process id, or 0 when not running.
  public internal(set) var pid: Int32 = 0
  /// How many times the process was started.
  public internal(set) var launches = 0
  /// When the app last left or entered the foreground (for LRU).
  public internal(set) var lastUsed: SimTime = .zero
  /// Scene model: the app's open scene sessions, connected or not, in order of
  /// creation. A session closed by the user or discarded by a force-quit leaves.
  public internal(set) var scenes: [Scene] = []
  /// Scene model: sessions discarded while the app could not hear of it, to be
  /// reported by `application:didDiscardSceneSessions:` at the next launch (§2.6 c).
  public internal(set) var discardedSessions: [Int32] = []
  /// The number the next scene session gets.
  var nextSceneNumber: Int32 = 1
  /// After a user force-quit: no background launch until the user opens the app (§2.6).
  public internal(set) var backgroundLaunchBlocked = false

  // The running process (reset at each launch).

  /// Background tasks open in this process (reference §3.4).
  public internal(set) var tasks: [BackgroundTask] = []
  /// The background-task limit of the current stretch in the background.
  public internal(set) var backgroundDeadline: SimTime?
  /// The end of the current background launch window (§2.8), if any.
  public internal(set) var windowEnd: SimTime?
  /// Playing audio (with the `audio` mode): the process stays running (§3.6).
  public internal(set) var playingAudio = false
  /// Resident memory of the process in MB; the config's value at launch.
  public internal(set) var footprintMB: Double = 0
  /// Unsaved changes (`ctx:dirty`), lost if the process dies holding them (SPEC §1.8).
  public internal(set) var unsaved = 0
  /// The process's windows: one in the app-delegate model, one per connected
  /// scene in the scene model (SPEC §1.4).
  public internal(set) var windows: [Window] = []
  /// Voids scheduled OS deadlines when the process changes between foreground and background.
  var epoch: UInt32 = 0

  /// The callbacks the script handles.
  public var handled = CallbackSet()
  /// The callbacks with a handler of their own (not only `on("*")`): what the
  /// app "implements", for `viewIsAppearing:` on iOS 13–16 (§0).
  public var implemented = CallbackSet()
  /// The notifications the script observes.
  public var observed = NotificationSet()

  /// Timers that came due while the process was suspended (reference §0 "Timers").
  var parkedTimers: [ScheduledEvent] = []

  init(id: AppID, config: AppConfig, model: LifecycleModel) {
    self.id = id
    self.config = config
    self.model = model
  }

  /// The jetsam band of the process (reference §4): audio 12, foreground 10,
  /// running in the background 3, suspended 0.
  public var band: JetsamBand {
    if playingAudio && hasMode("audio") && state.isExecuting { return .audio }
    switch state {
    case .active, .inactive: return .foreground
    case .background: return .background
    case .suspended, .notRunning: return .idle
    }
  }

  /// Whether the app declares a `UIBackgroundModes` key.
  public func hasMode(_ mode: String) -> Bool { config.backgroundModes.contains(mode) }

  /// The index in `scenes` of session `number`, if it is open.
  public func sceneIndex(_ number: Int32) -> Int? {
    scenes.firstIndex { $0.number == number }
  }

  /// The scene a tap on the icon brings forward: the one brought forward last.
  public var focusScene: Int32? {
    scenes.max { $0.lastForward < $1.lastForward }?.number
  }
}

/// A background task (`beginBackgroundTask(withName:expirationHandler:)`, reference §3.4).
public struct BackgroundTask: Sendable, Equatable {
  /// Unique on the device.
  public let id: Int32
  public let name: String
  /// The host's expiration handler, if one was given.
  public let expiration: HostToken?
  /// The expiration handler has been called.
  public internal(set) var expired = false
}
