/// The OS policies in force on a device: every default comes from
/// the profile's facts, and a script may override each one (`dev:policy`).
public struct Policy: Sendable, Equatable {
  /// Background-task time per backgrounding (§0, §3.4).
  public var backgroundTime: SimTime
  /// When true, the host answers `backgroundTime` per app (a Lua function).
  public var backgroundTimeFromHost = false
  /// How long before the limit the expiration handlers run (§3.4: about 5 s).
  public var expirationLead: SimTime
  /// Watchdog limits (§0, §3.1–§3.3).
  public var watchdogLaunch: SimTime
  public var watchdogBackground: SimTime
  public var watchdogTerminate: SimTime
  /// The `scene-update` watchdog of the other transitions the system waits on (§3.1).
  public var watchdogSceneUpdate: SimTime
  /// Fractions of RAM in use at which a memory warning is sent, and at which
  /// jetsam starts killing (`dev:policy`).
  public var memoryWarningAt: Double
  public var jetsamAt: Double
  /// When true, the host picks jetsam victims (`choose_victim`).
  public var victimFromHost = false
  /// When true, the host decides when a submitted BGTaskScheduler request
  /// runs (`task_scheduler`, reference §3.5); otherwise it runs at its
  /// earliest time, once the conditions allow.
  public var taskSchedulerFromHost = false
  /// The most iOS 26 continued tasks the system runs at once, on every app
  /// (§3.5: Apple gives no number); nil, the default: no limit.
  public var continuedTaskLimit: Int? = nil
  /// The order jetsam takes its victims in when the host does not pick them.
  public var victimOrder = VictimOrder.bands
  /// When set, jetsam first disconnects background scenes, least recently used
  /// first, each giving back this many MB of its app's footprint (§1.2).
  public var reclaimSceneMB: Double?
  /// The window a background launch or wake gets (§2.8: about 30 s).
  public var backgroundLaunchTime: SimTime
  /// How long after a lock protected data becomes unavailable (§0).
  public var protectedDataDelay: SimTime
  /// Layout passes (`viewWillLayoutSubviews` / `viewDidLayoutSubviews`) on a view
  /// controller's first appearance, and on one that a pop or a dismissal
  /// reveals: the profile's facts, 2 and 0 (§5.3, §5.4).
  public var layoutPassesFirst: Int
  public var layoutPassesRevealed: Int

  /// The defaults of a profile.
  public init(profile: OSProfile) {
    backgroundTime = profile.backgroundTaskBudget
    expirationLead = profile.expirationLead
    watchdogLaunch = profile.launchWatchdog
    watchdogBackground = profile.backgroundWatchdog
    watchdogTerminate = profile.terminateWatchdog
    watchdogSceneUpdate = profile.sceneUpdateWatchdog
    memoryWarningAt = profile.memoryWarningFraction
    jetsamAt = profile.jetsamFraction
    backgroundLaunchTime = profile.backgroundLaunchTime
    protectedDataDelay = profile.protectedDataDelay
    layoutPassesFirst = profile.layoutPassesFirst
    layoutPassesRevealed = profile.layoutPassesRevealed
  }
}

/// The jetsam priority band of a process (reference §4, XNU `kern_memorystatus.h`):
/// victims come from the lowest band first.
public enum JetsamBand: Int, Sendable, Comparable, CustomStringConvertible {
  case idle = 0, background = 3, foreground = 10, audio = 12

  public static func < (a: JetsamBand, b: JetsamBand) -> Bool { a.rawValue < b.rawValue }
  public var description: String { String(rawValue) }
}

/// One process jetsam may kill, as `choose_victim` sees it.
public struct VictimCandidate: Sendable, Equatable {
  public var app: AppID
  public var band: JetsamBand
  public var footprintMB: Double
  public var lastUsed: SimTime
  public var state: AppState
  public var unsaved: Int
}

/// The memory pressure level (reference §4), recorded in `memory` records.
/// Built-in orders for jetsam's victims (`choose_victim = "bands"` or `"lru"`).
public enum VictimOrder: String, CaseIterable, Sendable {
  /// Reference §0, §4: the lowest band first (suspended, background,
  /// foreground, audio), then the least recently used, then install order.
  case bands
  /// Strict least recently used, whatever the band: the model of the classic
  /// cache experiments (and of the SimPy peer); ties go as in `bands`.
  case lru
}

public enum MemoryLevel: UInt8, CaseIterable, Sendable, Comparable, CustomStringConvertible {
  case normal, warning, critical
  public static func < (a: MemoryLevel, b: MemoryLevel) -> Bool { a.rawValue < b.rawValue }
  public var description: String {
    switch self {
    case .normal: return "normal"
    case .warning: return "warning"
    case .critical: return "critical"
    }
  }
}
