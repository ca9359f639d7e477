/// Counters a device keeps whether or not its trace is on, so that experiments
/// can measure a week of use without recording a week of callbacks
/// (`dev.stats`). Updating them costs an integer add per event.
public struct DeviceStats: Sendable, Equatable {
  /// Times the user brought an app to the front (launch, open_url, switch_to)
  /// when it was not already there.
  public var opens = 0
  /// Those opens whose process was not running: cold launches (§0).
  public var coldOpens = 0
  /// Process deaths, by `KillReason.rawValue`.
  public var killsByReason = [Int](repeating: 0, count: KillReason.allCases.count)
  /// Processes that died holding unsaved changes (`data_loss` records), and the
  /// changes lost with them.
  public var dataLossEvents = 0
  public var unsavedLost = 0
  /// Memory warnings delivered to apps (one per app per warning).
  public var memoryWarnings = 0
  /// BGTaskScheduler (reference §3.5): requests submitted, tasks the system
  /// ran, those that called `setTaskCompleted`, and those whose expiration
  /// handler ran.
  public var tasksSubmitted = 0
  public var tasksRun = 0
  public var tasksCompleted = 0
  public var tasksExpired = 0
  /// The time from each run task's earliest time to its run, summed.
  public var taskDelay = SimTime.zero

  public init() {}

  /// Deaths for one reason.
  public func kills(_ reason: KillReason) -> Int { killsByReason[Int(reason.rawValue)] }

  /// Deaths the system chose to free memory: `vm-pageshortage` and `per-process-limit`.
  public var jetsamKills: Int { kills(.vmPageShortage) + kills(.perProcessLimit) }
}
