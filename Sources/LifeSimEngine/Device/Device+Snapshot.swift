// Saving and restoring a device's state, so that `lifesim explore` can go back
// to a state it reached instead of replaying the steps that led there.

/// Everything about a device that changes as it runs: its parts, its
/// generator, its trace and counts, its policies, and the cascade state (which
/// is at rest between actions). `Device` holds it as one value and reaches
/// each field through the accessor of the same name (documented there). Its
/// parts are values whose arrays are shared until written, so a saved state
/// costs little until the device moves on.
///
/// What it leaves out is fixed for the device's life (profile, seed, quirks,
/// model), belongs to whoever drives it (`host`), or is about the whole
/// search rather than one state (`coverage`, which keeps adding up). A test
/// checks every other stored property of `Device` is listed as left out.
public struct DeviceState {
  var random: SeededGenerator
  var kernel = Kernel()
  var trace = Trace()
  var stats = DeviceStats()
  var processes = ProcessTable()
  var screen = Screen()
  var memory: MemoryMonitor
  var watchdogs: Watchdogs
  var protectedData = ProtectedData()
  var objects = ViewHierarchy()
  var policy: Policy
  var horizon: SimTime = .seconds(30 * 86_400)
  var maxEventsPerInstant = 1_000_000
  var busy: Device.Busy?
  var deliveryURL: String?
  var inClockLoop = false
  var nextTaskID: Int32 = 1
  @usableFromInline var killedWhileRunning: AppID?
  var deathReason: KillReason?
  var pendingUserKill: AppID?
  var openedNotification: Device.OpenedNotification?
  var forwardCount = 0
  var launchRefusedURL = false
  var workFrames: [Device.WorkFrame] = []
  var waiting: [Device.Waiting] = []
  var deliveryAskedAt: SimTime?
  var heldByWork = 0
  var scriptDue: Device.ActionDue?
  var taskConditions = TaskConditions()

  /// The stored properties of `Device` besides `state`, which a state leaves
  /// out on purpose (for the test that keeps the list complete).
  public static let unsavedProperties: Set<String> = [
    "profile", "seed", "quirks", "model", "host", "coverage", "trapsOnViolation", "machines", "fixedFacts",
    "checkpoint", "stepsToCheckpoint", "rulesInProgress", "screenChanges", "userDriver",
  ]
}

extension Device {
  /// The device's state now. Only between actions: never while app code runs.
  public func saveState() -> DeviceState {
    precondition(state.busy == nil && !state.inClockLoop && screenChanges.isEmpty, "saveState while the device runs")
    return state
  }

  /// Puts the device back in a state saved from it. Only between actions.
  public func restoreState(_ s: DeviceState) {
    precondition(state.busy == nil && !state.inClockLoop, "restoreState while the device runs")
    // The shared budget counts what this device keeps now, not what it kept.
    let kept = state.trace.bytesKept
    state = s
    state.trace.budget?.add(state.trace.bytesKept - kept)
  }
}

extension DeviceState {
  /// About how many bytes a saved state holds, counting each of its arrays as
  /// its own (a saved state shares them with the device until either is
  /// written, so this is at least what it keeps alive once the device moves
  /// on): what a search that keeps states counts against its memory bound.
  /// The trace counts the chunk of records of the step that made the state;
  /// the chunks before are shared with the states before.
  public var approximateBytes: Int {
    let arrayHeader = 32
    var n = MemoryLayout<DeviceState>.stride + 16 * MemoryLayout<TraceRecord>.stride + arrayHeader
    n += processes.apps.count * (MemoryLayout<App>.stride + 4 * arrayHeader) + arrayHeader
    for app in processes.apps {
      n += app.scenes.count * MemoryLayout<Scene>.stride + app.windows.count * MemoryLayout<Window>.stride
        + app.tasks.count * MemoryLayout<BackgroundTask>.stride + app.parkedTimers.count * MemoryLayout<ScheduledEvent>.stride
    }
    n += objects.viewControllers.count * (MemoryLayout<ViewController>.stride + arrayHeader) + arrayHeader
    n += objects.views.count * (MemoryLayout<View>.stride + arrayHeader) + arrayHeader
    n += kernel.pendingCount * MemoryLayout<ScheduledEvent>.stride + arrayHeader
    return n
  }
}
