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

  /// The script's word.
  public var description: String { self == .refresh ? "refresh" : "processing" }

  public init?(name: String) {
    guard let kind = BGTaskKind.allCases.first(where: { $0.description == name }) else { return nil }
    self = kind
  }

  /// The `UIBackgroundModes` entry that executing it needs (§3.5).
  public var mode: String { self == .refresh ? "fetch" : "processing" }
  /// The task's class, as logs and crash reports name it.
  public var className: String { self == .refresh ? "BGAppRefreshTask" : "BGProcessingTask" }
  /// The request's class.
  public var requestClassName: String { className + "Request" }
  /// "a total of 1 refresh task and 10 processing tasks scheduled at any time" (§3.5).
  public var pendingLimit: Int { self == .refresh ? 1 : 10 }
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
  /// When it was submitted.
  public internal(set) var submitted: SimTime = .zero
  /// Its number on the device, for the scheduler's events: a replaced or
  /// cancelled request's events find nothing.
  public internal(set) var number: Int32 = 0

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
  public var identifier: String { request.identifier }
  public var kind: BGTaskKind { request.kind }
  public var number: Int32 { request.number }
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
  case notPending(String)
  /// `dev:expire_task` with no running task of that identifier.
  case notRunning(String)

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
      return "BGTaskSchedulerErrorCodeNotPermitted: a \(kind.requestClassName) needs the '\(kind.mode)' background mode"
    case .tooMany(let kind):
      return "BGTaskSchedulerErrorCodeTooManyPendingTaskRequests: at most \(kind.pendingLimit) \(kind) request\(kind.pendingLimit == 1 ? "" : "s") may be pending; cancel one first"
    case .noScheduler(let ios):
      return "BGTaskScheduler exists from iOS 13 (this device runs iOS \(ios)); before it, background fetch launches apps (application:performFetchWithCompletionHandler:)"
    case .notPending(let id):
      return "no request '\(id)' is pending: the app submits one first (the debugger's launch needs one too)"
    case .notRunning(let id):
      return "no task '\(id)' is running"
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
  /// `BGTaskSchedulerPermittedIdentifiers`.
  public let permitted: [String]
  /// The identifiers whose launch handler the app's code registers at every launch.
  public private(set) var registeredEveryLaunch: [String] = []
  /// Those registered by the running process only.
  public private(set) var registeredInProcess: [String] = []
  /// The identifiers with a launch handler in the running process (or the next).
  public var registered: [String] { registeredEveryLaunch + registeredInProcess }
  public private(set) var pending: [BGTaskRequest] = []
  public private(set) var running: [BGTaskRun] = []

  public init(permitted: [String]) { self.permitted = permitted }

  /// `register(forTaskWithIdentifier:using:launchHandler:)`. `launching`:
  /// no process runs, or its launch methods have not returned; `everyLaunch`:
  /// the app's code registers it at each launch, not this process alone.
  public mutating func register(_ id: String, launching: Bool, everyLaunch: Bool) -> BGTaskRefusal? {
    guard permitted.contains(id) else { return .notDeclared(id) }
    guard !isRegistered(id) else { return .registeredTwice(id) }
    guard launching else { return .registeredLate(id) }
    if everyLaunch { registeredEveryLaunch.append(id) } else { registeredInProcess.append(id) }
    return nil
  }

  public func isRegistered(_ id: String) -> Bool {
    registeredEveryLaunch.contains(id) || registeredInProcess.contains(id)
  }

  /// `submit(_:)`: checks in iOS's order, then the request replaces a
  /// pending one of its identifier or joins the others. `modes` is the
  /// app's `UIBackgroundModes`.
  public mutating func submit(_ request: BGTaskRequest, modes: [String]) -> BGTaskRefusal? {
    guard permitted.contains(request.identifier) else { return .identifierNotPermitted(request.identifier) }
    guard modes.contains(request.kind.mode) else { return .modeMissing(request.kind) }
    guard isRegistered(request.identifier) else { return .noHandler(request.identifier) }
    // The replaced request does not count; one of another kind leaves room in its own.
    let sameKind = pending.lazy.filter { $0.kind == request.kind && $0.identifier != request.identifier }.count
    guard sameKind < request.kind.pendingLimit else { return .tooMany(request.kind) }
    if let i = pending.firstIndex(where: { $0.identifier == request.identifier }) {
      pending[i] = request
    } else {
      pending.append(request)
    }
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

  /// The system launches the app for a pending request: it leaves the
  /// pending list and runs.
  mutating func start(number: Int32, at now: SimTime) -> BGTaskRun? {
    guard let i = pending.firstIndex(where: { $0.number == number }) else { return nil }
    let run = BGTaskRun(request: pending.remove(at: i), started: now)
    running.append(run)
    return run
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
  /// requests stay pending.
  mutating func processEnded() -> [BGTaskRun] {
    let ended = running
    running.removeAll()
    registeredInProcess.removeAll()
    return ended
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
