/// BGTaskScheduler (reference §3.5): what an app declared, registered and
/// submitted, and the tasks the system runs for it. A pure part: each check
/// returns the refusal iOS gives, and the device schedules and runs what the
/// part lets through.

/// A kind of task request.
public enum BGTaskKind: UInt8, CaseIterable, Sendable, CustomStringConvertible {
  /// `BGAppRefreshTaskRequest`: a short run to bring content up to date.
  case refresh
  /// `BGProcessingTaskRequest`: minutes of work while the device is idle.
  case processing
  /// iOS 26 `BGContinuedProcessingTaskRequest`: work the user started in the
  /// foreground goes on after the app leaves the screen, in a Live Activity.
  case continued

  /// The script's word.
  public var description: String {
    switch self {
    case .refresh: "refresh"
    case .processing: "processing"
    case .continued: "continued"
    }
  }

  public init?(name: String) {
    guard let kind = BGTaskKind.allCases.first(where: { $0.description == name }) else { return nil }
    self = kind
  }

  /// The `UIBackgroundModes` entry that executing it needs (§3.5); Apple
  /// names none for a continued task.
  public var mode: String? {
    switch self {
    case .refresh: "fetch"
    case .processing: "processing"
    case .continued: nil
    }
  }
  /// The task's class, as logs and crash reports name it.
  public var className: String {
    switch self {
    case .refresh: "BGAppRefreshTask"
    case .processing: "BGProcessingTask"
    case .continued: "BGContinuedProcessingTask"
    }
  }
  /// The request's class.
  public var requestClassName: String { className + "Request" }
  /// "a total of 1 refresh task and 10 processing tasks scheduled at any
  /// time" (§3.5); a continued request runs as it is submitted, or waits in
  /// the queue for room (`Policy.continuedTaskLimit`), with no limit on how many wait.
  public var pendingLimit: Int {
    switch self {
    case .refresh: 1
    case .processing: 10
    case .continued: Int.max
    }
  }
}

/// `BGContinuedProcessingTaskRequest.SubmissionStrategy` (§3.5): what
/// `submit` does when the system cannot run a continued task at once.
public enum ContinuedStrategy: UInt8, CaseIterable, Sendable, CustomStringConvertible {
  /// `.fail`: the submit fails with `BGTaskSchedulerErrorCodeImmediateRunIneligible`.
  case fail
  /// `.queue`, the default: the request waits at the back of a queue, and
  /// runs when a running continued task ends.
  case queue

  /// The script's word.
  public var description: String { self == .fail ? "fail" : "queue" }

  public init?(name: String) {
    guard let s = ContinuedStrategy.allCases.first(where: { $0.description == name }) else { return nil }
    self = s
  }
}

/// A submitted request, as `getPendingTaskRequests` returns it.
public struct BGTaskRequest: Equatable, Sendable {
  public var identifier: String
  public var kind: BGTaskKind
  /// `earliestBeginDate`: not before this time (a lower bound, §3.5).
  public var earliest: SimTime
  /// `BGProcessingTaskRequest.requiresExternalPower` (default NO).
  public var requiresPower: Bool
  /// `BGProcessingTaskRequest.requiresNetworkConnectivity` (default NO).
  public var requiresNetwork: Bool
  /// A continued request's `title` and `subtitle`, shown in its Live Activity.
  public var title = ""
  public var subtitle = ""
  /// A continued request's `strategy` (default `.queue`).
  public var strategy = ContinuedStrategy.queue
  /// A continued request's `requiredResources` holds `.gpu`.
  public var requiresGPU = false
  /// When it was submitted.
  public internal(set) var submitted: SimTime = .zero
  /// Its number on the device, for the scheduler's events: a replaced or
  /// cancelled request's events find nothing.
  public internal(set) var number: Int32 = 0
  /// When the scheduler lets it run (then only once the conditions allow);
  /// nil when the scheduler never runs it (the debugger still can).
  public internal(set) var runsAt: SimTime? = nil

  public init(identifier: String, kind: BGTaskKind, earliest: SimTime,
              requiresPower: Bool = false, requiresNetwork: Bool = false) {
    self.identifier = identifier
    self.kind = kind
    self.earliest = earliest
    self.requiresPower = requiresPower
    self.requiresNetwork = requiresNetwork
  }
}

/// A task the system launched the app for, until it completes or its process dies.
public struct BGTaskRun: Equatable, Sendable {
  public let request: BGTaskRequest
  /// When its launch handler was called.
  public let started: SimTime
  /// Its expiration handler ran (the budget ended, `dev:expire_task`, or the
  /// user started using the device during a processing task).
  public internal(set) var expired = false
  /// A continued task's progress (0 to 1), and when it last reported it.
  public internal(set) var progress = 0.0
  public internal(set) var progressed: SimTime
  public var identifier: String { request.identifier }
  public var kind: BGTaskKind { request.kind }
  public var number: Int32 { request.number }

  init(request: BGTaskRequest, started: SimTime) {
    self.request = request
    self.started = started
    progressed = started
  }
}

/// Why the scheduler refused, in the words iOS uses (§3.5).
public enum BGTaskRefusal: Equatable, Sendable, CustomStringConvertible {
  /// `register` of an identifier missing from `BGTaskSchedulerPermittedIdentifiers`.
  case notDeclared(String)
  /// A second registration of one identifier.
  case registeredTwice(String)
  /// A registration after `application:didFinishLaunchingWithOptions:` returned.
  case registeredLate(String)
  /// A submit of a permitted identifier with no registered launch handler.
  case noHandler(String)
  /// `BGTaskSchedulerErrorCodeNotPermitted`: the identifier is not permitted.
  case identifierNotPermitted(String)
  /// `BGTaskSchedulerErrorCodeNotPermitted`: the mode the kind needs is missing.
  case modeMissing(BGTaskKind)
  /// `BGTaskSchedulerErrorCodeTooManyPendingTaskRequests`.
  case tooMany(BGTaskKind)
  /// BGTaskScheduler exists from iOS 13.
  case noScheduler(ios: Int)
  /// `dev:run_task` with no pending request of that identifier.
  case notPending(String?)
  /// `dev:expire_task` with no running task of that identifier.
  case notRunning(String?)
  /// `dev:background_fetch` of an app that declares task identifiers.
  case fetchTurnedOff
  /// A continued request before iOS 26.
  case noContinuedProcessing(ios: Int)
  /// A continued request from an app that is not in the foreground.
  case continuedFromBackground
  /// `dev:cancel_task` of a task that is not a continued one.
  case notContinued(String)
  /// `task:progress` of a task that is not a continued one.
  case noProgress(BGTaskKind)
  /// `BGTaskSchedulerErrorCodeUnavailable`: Background App Refresh is off.
  case unavailable(RefreshOff)
  /// `BGTaskSchedulerErrorCodeImmediateRunIneligible`: a continued request
  /// with the `.fail` strategy, when the most continued tasks the system
  /// runs at once already run or wait (`dev:policy{ continued_tasks = n }`).
  case immediateRunIneligible(limit: Int)
  /// A continued request that requires the GPU, from an app without the
  /// Background GPU Access entitlement.
  case gpuNotEntitled
  /// A continued request that requires the GPU, on a device whose
  /// `supportedResources` has no `.gpu`.
  case gpuUnsupported
  /// The debugger's launch of a continued request waiting in the queue.
  case continuedQueued(String)
  /// Background fetch while Background App Refresh is off.
  case refreshOff(RefreshOff)

  /// Where Background App Refresh was turned off.
  public enum RefreshOff: Equatable, Sendable, CustomStringConvertible {
    case app, device, lowPowerMode

    public var description: String {
      switch self {
      case .app: return "the app's Background App Refresh switch is off (Settings)"
      case .device: return "Background App Refresh is off for the device (Settings)"
      case .lowPowerMode: return "Low Power Mode turns Background App Refresh off"
      }
    }
  }

  public var description: String {
    switch self {
    case .notDeclared(let id):
      return "register(forTaskWithIdentifier:) returns NO: '\(id)' is not in BGTaskSchedulerPermittedIdentifiers (declare it in background_tasks)"
    case .registeredTwice(let id):
      return "NSInternalInconsistencyException: Launch handler for task with identifier \(id) has already been registered"
    case .registeredLate(let id):
      return "NSInternalInconsistencyException: All launch handlers must be registered before application finishes launching (registering \(id))"
    case .noHandler(let id):
      return "NSInternalInconsistencyException: No launch handler registered for task with identifier \(id)"
    case .identifierNotPermitted(let id):
      return "BGTaskSchedulerErrorCodeNotPermitted: '\(id)' is not in BGTaskSchedulerPermittedIdentifiers"
    case .modeMissing(let kind):
      return "BGTaskSchedulerErrorCodeNotPermitted: a \(kind.requestClassName) needs the '\(kind.mode ?? "")' background mode"
    case .tooMany(let kind):
      return "BGTaskSchedulerErrorCodeTooManyPendingTaskRequests: at most \(kind.pendingLimit) \(kind) request\(kind.pendingLimit == 1 ? "" : "s") may be pending; cancel one first"
    case .noScheduler(let ios):
      return "BGTaskScheduler exists from iOS 13 (this device runs iOS \(ios)); before it, background fetch launches apps (application:performFetchWithCompletionHandler:)"
    case .notPending(let id):
      return "no request\(id.map { " '\($0)'" } ?? "") is pending: the app submits one first (the debugger's launch needs one too)"
    case .notRunning(let id):
      return "no task\(id.map { " '\($0)'" } ?? "") is running"
    case .unavailable(let off):
      return "BGTaskSchedulerErrorCodeUnavailable: \(off)"
    case .refreshOff(let off):
      return "\(off): the system launches no app for background fetch"
    case .immediateRunIneligible(let limit):
      return "BGTaskSchedulerErrorCodeImmediateRunIneligible: the system runs at most \(limit) continued task\(limit == 1 ? "" : "s") at once "
        + "(the policy continued_tasks), and as many run or an earlier request waits; with strategy \"fail\" the request is refused "
        + "(the default, \"queue\", waits for room)"
    case .continuedQueued(let id):
      return "'\(id)' is a continued request waiting in the queue: it runs when a running continued task ends; "
        + "the debugger's launch is for refresh and processing requests"
    case .gpuNotEntitled:
      return "BGTaskSchedulerErrorCodeNotPermitted: a request that requires the GPU needs the "
        + "com.apple.developer.background-tasks.continued-processing.gpu entitlement (Background GPU Access: the app's background_gpu)"
    case .gpuUnsupported:
      return "BGTaskSchedulerErrorCodeUnavailable: this device does not support background GPU use "
        + "(BGTaskScheduler.supportedResources has no .gpu: the device's background_gpu)"
    case .fetchTurnedOff:
      return "the app declares BGTaskSchedulerPermittedIdentifiers (background_tasks), which turns background fetch off: the system never calls application:performFetchWithCompletionHandler:; its refresh is a BGAppRefreshTask"
    case .noContinuedProcessing(let ios):
      return "BGContinuedProcessingTaskRequest exists from iOS 26 (this device runs iOS \(ios))"
    case .continuedFromBackground:
      return "a BGContinuedProcessingTaskRequest is submitted from the foreground, as a result of a person's action (a tap): not while the app is off screen, nor from a task's handlers"
    case .notContinued(let id):
      return "'\(id)' is not a continued processing task: only those show in a Live Activity the user can cancel"
    case .noProgress(let kind):
      return "a \(kind.className) reports no progress: only a BGContinuedProcessingTask does (NSProgressReporting)"
    }
  }
}

/// One app's part of the scheduler: the identifiers its code registers at
/// each launch, its pending requests (held by the system across the
/// process's deaths) and the tasks running in its process.
///
/// Invariants (`violations()`): identifiers are unique among the pending
/// requests; no kind has more pending than its limit.
public struct BGTaskBook: Equatable, Sendable {
  /// The book's lists behind one reference, copied on write: a search
  /// copies every app at each step, and with one reference instead of six
  /// an app's copy costs one retain for its book, which most apps never change.
  /// Its lists are read and written only through the book, which copies
  /// them before a write when they are shared, so no two accesses overlap:
  /// the runtime's exclusivity checks would cost more than the retains saved.
  private final class Lists: @unchecked Sendable {
    let permitted: [String]
    @exclusivity(unchecked) var registeredEveryLaunch: [String] = []
    @exclusivity(unchecked) var registeredInProcess: [String] = []
    @exclusivity(unchecked) var pending: [BGTaskRequest] = []
    @exclusivity(unchecked) var running: [BGTaskRun] = []
    @exclusivity(unchecked) var lastStarted: [SimTime?]

    init(permitted: [String]) {
      self.permitted = permitted
      lastStarted = [SimTime?](repeating: nil, count: permitted.count)
    }

    init(copying o: Lists) {
      permitted = o.permitted
      registeredEveryLaunch = o.registeredEveryLaunch
      registeredInProcess = o.registeredInProcess
      pending = o.pending
      running = o.running
      lastStarted = o.lastStarted
    }
  }
  private var lists: Lists

  /// The lists, this book's alone, for a change.
  private var unique: Lists {
    mutating get {
      if !isKnownUniquelyReferenced(&lists) { lists = Lists(copying: lists) }
      return lists
    }
  }

  /// `BGTaskSchedulerPermittedIdentifiers`.
  public var permitted: [String] { lists.permitted }
  /// The identifiers whose launch handler the app's code registers at every launch.
  public private(set) var registeredEveryLaunch: [String] {
    get { lists.registeredEveryLaunch }
    _modify { let l = unique; yield &l.registeredEveryLaunch }
  }
  /// Those registered by the running process only.
  public private(set) var registeredInProcess: [String] {
    get { lists.registeredInProcess }
    _modify { let l = unique; yield &l.registeredInProcess }
  }
  /// The identifiers with a launch handler in the running process (or the next).
  public var registered: [String] { registeredEveryLaunch + registeredInProcess }
  /// Whether any identifier has a launch handler, without building the list.
  public var registersAny: Bool { !lists.registeredEveryLaunch.isEmpty || !lists.registeredInProcess.isEmpty }
  public private(set) var pending: [BGTaskRequest] {
    get { lists.pending }
    _modify { let l = unique; yield &l.pending }
  }
  public private(set) var running: [BGTaskRun] {
    get { lists.running }
    _modify { let l = unique; yield &l.running }
  }
  /// When the scheduler last started a task of each permitted identifier, in the order of `permitted`.
  public private(set) var lastStarted: [SimTime?] {
    get { lists.lastStarted }
    _modify { let l = unique; yield &l.lastStarted }
  }

  public init(permitted: [String]) {
    lists = Lists(permitted: permitted)
  }

  public static func == (a: BGTaskBook, b: BGTaskBook) -> Bool {
    a.lists === b.lists
      || a.permitted == b.permitted && a.registeredEveryLaunch == b.registeredEveryLaunch
      && a.registeredInProcess == b.registeredInProcess && a.pending == b.pending && a.running == b.running
      && a.lastStarted == b.lastStarted
  }

  /// When a task of `identifier` last started, if one did.
  public func lastStart(of identifier: String) -> SimTime? {
    permitted.firstIndex(of: identifier).flatMap { lastStarted[$0] }
  }

  /// `register(forTaskWithIdentifier:using:launchHandler:)`. `launching`:
  /// no process runs, or its launch methods have not returned; `everyLaunch`:
  /// the app's code registers it at each launch, not this process alone.
  /// `wildcards`: the OS has continued tasks, whose identifiers a wildcard
  /// entry may match (iOS 26).
  public mutating func register(_ id: String, launching: Bool, everyLaunch: Bool, wildcards: Bool = true) -> BGTaskRefusal? {
    guard permits(id, wildcards: wildcards) else { return .notDeclared(id) }
    guard !isRegistered(id) else { return .registeredTwice(id) }
    // A continued task's identifier, matched by a wildcard, may be registered
    // at any time (§3.5, the header: such registrations "are exempt").
    guard launching || !permitted.contains(id) else { return .registeredLate(id) }
    if everyLaunch { registeredEveryLaunch.append(id) } else { registeredInProcess.append(id) }
    return nil
  }

  /// `BGTaskSchedulerPermittedIdentifiers` lists the identifier, or a
  /// wildcard entry (`com.example.export.*`) matches it (§3.5).
  public func permits(_ id: String, wildcards: Bool = true) -> Bool {
    permitted.contains(id)
      || wildcards && permitted.contains { $0.hasSuffix(".*") && id.count > $0.count - 1 && id.hasPrefix($0.dropLast()) }
  }

  public func isRegistered(_ id: String) -> Bool {
    registeredEveryLaunch.contains(id) || registeredInProcess.contains(id)
  }

  /// `submit(_:)`: checks in iOS's order, then the request replaces a
  /// pending one of its identifier or joins the others. `modes` is the
  /// app's `UIBackgroundModes`.
  public mutating func submit(_ request: BGTaskRequest, modes: [String]) -> BGTaskRefusal? {
    if let refusal = check(request, modes: modes) { return refusal }
    if let i = pending.firstIndex(where: { $0.identifier == request.identifier }) {
      pending[i] = request
    } else {
      pending.append(request)
    }
    return nil
  }

  /// What `submit` would refuse, changing nothing. A wildcard entry matches
  /// only a continued request's identifier.
  public func check(_ request: BGTaskRequest, modes: [String]) -> BGTaskRefusal? {
    guard permits(request.identifier, wildcards: request.kind == .continued) else { return .identifierNotPermitted(request.identifier) }
    if let mode = request.kind.mode, !modes.contains(mode) { return .modeMissing(request.kind) }
    guard isRegistered(request.identifier) else { return .noHandler(request.identifier) }
    // The replaced request does not count; one of another kind leaves room in its own.
    let sameKind = pending.lazy.filter { $0.kind == request.kind && $0.identifier != request.identifier }.count
    guard sameKind < request.kind.pendingLimit else { return .tooMany(request.kind) }
    return nil
  }

  /// `cancel(taskRequestWithIdentifier:)`: a pending request goes; a running
  /// task is left alone (Apple says nothing of one, §3.5). Returns whether one went.
  @discardableResult
  public mutating func cancel(_ id: String) -> Bool {
    guard let i = pending.firstIndex(where: { $0.identifier == id }) else { return false }
    pending.remove(at: i)
    return true
  }

  /// `cancelAllTaskRequests()`.
  public mutating func cancelAll() { pending.removeAll() }

  /// The pending request numbered `number`, if it is still pending.
  public func pending(number: Int32) -> BGTaskRequest? { pending.first { $0.number == number } }

  /// The running task numbered `number`.
  public func running(number: Int32) -> BGTaskRun? { running.first { $0.number == number } }

  /// Where the request or task an event of `what` names stands: its place
  /// among the pending requests (for `.due`) or the running tasks (the
  /// rest), or nil when it is gone and the event will find nothing. What a
  /// search's fingerprint names it by: numbers only grow.
  func place(of number: Int32, for what: BGTaskEvent) -> Int? {
    what == .due ? pending.firstIndex { $0.number == number } : running.firstIndex { $0.number == number }
  }

  /// The system launches the app for a pending request: it leaves the
  /// pending list and runs. `byScheduler`: not the debugger's launch, which
  /// the scheduler's spacing of runs ignores.
  mutating func start(number: Int32, at now: SimTime, byScheduler: Bool = true) -> BGTaskRun? {
    guard let i = pending.firstIndex(where: { $0.number == number }) else { return nil }
    let run = BGTaskRun(request: pending.remove(at: i), started: now)
    running.append(run)
    if byScheduler, let k = permitted.firstIndex(of: run.identifier) { lastStarted[k] = now }
    return run
  }

  /// A continued task reports its progress.
  mutating func progress(number: Int32, _ fraction: Double, at now: SimTime) {
    guard let i = running.firstIndex(where: { $0.number == number }) else { return }
    running[i].progress = fraction
    running[i].progressed = now
  }

  /// Marks a running task expired; false if it is not running or expired already.
  mutating func expire(number: Int32) -> Bool {
    guard let i = running.firstIndex(where: { $0.number == number }), !running[i].expired else { return false }
    running[i].expired = true
    return true
  }

  /// `setTaskCompleted(success:)`: the task ends. Nil if it was not running.
  mutating func complete(number: Int32) -> BGTaskRun? {
    guard let i = running.firstIndex(where: { $0.number == number }) else { return nil }
    return running.remove(at: i)
  }

  /// The process died: its tasks and its own registrations end with it;
  /// requests stay pending, but for continued ones, which are dropped.
  mutating func processEnded() -> (ended: [BGTaskRun], dropped: [BGTaskRequest]) {
    // Most apps' books hold nothing a death changes: leave them shared.
    guard !lists.running.isEmpty || !lists.registeredInProcess.isEmpty || lists.pending.contains(where: { $0.kind == .continued })
    else { return ([], []) }
    let ended = running
    running.removeAll()
    registeredInProcess.removeAll()
    // A continued request belongs to the person's action in this process:
    // it never launches the app (§3.5).
    let dropped = pending.filter { $0.kind == .continued }
    if !dropped.isEmpty { pending.removeAll { $0.kind == .continued } }
    return (ended, dropped)
  }

  /// Every invariant that does not hold now.
  public func violations() -> [String] {
    var found: [String] = []
    for (i, r) in pending.enumerated() where pending[..<i].contains(where: { $0.identifier == r.identifier }) {
      found.append("two pending requests for \(r.identifier)")
    }
    for kind in BGTaskKind.allCases where pending.filter({ $0.kind == kind }).count > kind.pendingLimit {
      found.append("more than \(kind.pendingLimit) \(kind) requests pending")
    }
    return found
  }
}
