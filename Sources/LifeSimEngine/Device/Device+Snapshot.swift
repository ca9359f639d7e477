// Saving and restoring a device's state, so that `lifesim explore` can go back
// to a state it reached instead of replaying the steps that led there.

/// Everything about a device that changes as it runs: its parts, its
/// generator, its trace and counts, its policies, and the cascade state (which
/// is at rest between actions). Its parts are values whose arrays are shared
/// until written, so a saved state costs little until the device moves on.
///
/// What it leaves out is fixed for the device's life (profile, seed, quirks,
/// model), belongs to whoever drives it (`host`), or is about the whole
/// search rather than one state (`coverage`, which keeps adding up). A test
/// checks every stored property of `Device` is one or the other.
public struct DeviceState {
  var random: SeededGenerator
  var kernel: Kernel
  var trace: Trace
  var stats: DeviceStats
  var processes: ProcessTable
  var screen: Screen
  var memory: MemoryMonitor
  var watchdogs: Watchdogs
  var protectedData: ProtectedData
  var objects: ViewHierarchy
  var policy: Policy
  var horizon: SimTime
  var maxEventsPerInstant: Int
  var busy: Device.Busy?
  var deliveryURL: String?
  var inClockLoop: Bool
  var nextTaskID: Int32
  var killedWhileRunning: AppID?
  var deathReason: KillReason?
  var pendingUserKill: AppID?
  var openedNotification: Device.OpenedNotification?
  var forwardCount: Int
  var launchRefusedURL: Bool

  /// The names of the stored properties of `Device` a state holds, and of
  /// those it leaves out on purpose (for the test that keeps them complete).
  public static let savedProperties: Set<String> = [
    "random", "kernel", "trace", "stats", "processes", "screen", "memory", "watchdogs", "protectedData",
    "objects", "policy", "horizon", "maxEventsPerInstant", "busy", "deliveryURL", "inClockLoop", "nextTaskID",
    "killedWhileRunning", "deathReason", "pendingUserKill", "openedNotification", "forwardCount",
    "launchRefusedURL",
  ]
  public static let unsavedProperties: Set<String> = [
    "profile", "seed", "quirks", "model", "host", "coverage", "trapsOnViolation", "machines",
    "checkpoint", "stepsToCheckpoint",
  ]
}

extension Device {
  /// The device's state now. Only between actions: never while app code runs.
  public func saveState() -> DeviceState {
    precondition(busy == nil && !inClockLoop, "saveState while the device runs")
    return DeviceState(
      random: random, kernel: kernel, trace: trace, stats: stats, processes: processes, screen: screen,
      memory: memory, watchdogs: watchdogs, protectedData: protectedData, objects: objects, policy: policy,
      horizon: horizon, maxEventsPerInstant: maxEventsPerInstant, busy: busy, deliveryURL: deliveryURL,
      inClockLoop: inClockLoop, nextTaskID: nextTaskID, killedWhileRunning: killedWhileRunning,
      deathReason: deathReason, pendingUserKill: pendingUserKill, openedNotification: openedNotification,
      forwardCount: forwardCount, launchRefusedURL: launchRefusedURL)
  }

  /// Puts the device back in a state saved from it. Only between actions.
  public func restoreState(_ s: DeviceState) {
    precondition(busy == nil && !inClockLoop, "restoreState while the device runs")
    random = s.random
    kernel = s.kernel
    // The shared budget counts what this device keeps now, not what it kept.
    let kept = trace.bytesKept
    trace = s.trace
    trace.budget?.add(trace.bytesKept - kept)
    stats = s.stats
    processes = s.processes
    screen = s.screen
    memory = s.memory
    watchdogs = s.watchdogs
    protectedData = s.protectedData
    objects = s.objects
    policy = s.policy
    horizon = s.horizon
    maxEventsPerInstant = s.maxEventsPerInstant
    busy = s.busy
    deliveryURL = s.deliveryURL
    inClockLoop = s.inClockLoop
    nextTaskID = s.nextTaskID
    killedWhileRunning = s.killedWhileRunning
    deathReason = s.deathReason
    pendingUserKill = s.pendingUserKill
    openedNotification = s.openedNotification
    forwardCount = s.forwardCount
    launchRefusedURL = s.launchRefusedURL
  }
}
