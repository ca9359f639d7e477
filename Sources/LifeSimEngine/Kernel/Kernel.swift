import DequeModule
import HeapModule

/// An opaque number the host (the Lua bridge) uses to find its own callback.
///
/// The engine never knows what a token stands for; it hands it back through
/// `DeviceHost.fire(_:on:app:)` and `DeviceHost.release(_:on:)`.
public struct HostToken: Hashable, Sendable {
  public var rawValue: Int
  public init(_ rawValue: Int) { self.rawValue = rawValue }
}

/// What a scheduled event does when it comes due. Plain values only, so that
/// scheduling allocates nothing beyond the heap's amortised storage.
public enum EventAction: Equatable, Sendable {
  /// A script's `dev:at` / `dev:after` function.
  case script(HostToken)
  /// An app timer (`ctx:after`), owned by one process incarnation.
  case appTimer(AppID, pid: Int32, HostToken)
  /// An OS deadline for one process incarnation; `epoch` names the stretch in
  /// the background it belongs to, so a return to the foreground voids it.
  case process(AppID, pid: Int32, epoch: UInt32, ProcessEvent)
  /// A device-wide OS event; `epoch` voids it when the situation changed.
  case device(DeviceEvent, epoch: UInt32)
  /// A BGTaskScheduler event of one request or task (reference §3.5),
  /// by its number: a replaced, cancelled or completed one finds nothing.
  case bgTask(AppID, number: Int32, BGTaskEvent)
  /// The next act of the simulated user of the drive under way (`drive`).
  case user(UserAct)
}

/// OS deadlines of one process (reference §3.4, §2.8).
public enum ProcessEvent: UInt8, Sendable {
  /// The expiration handlers of open background tasks run, 5 s before the limit.
  case taskExpiration
  /// The background-task limit: a task still open kills the process.
  case taskDeadline
  /// The end of a background launch's window (fetch, silent push).
  case backgroundLaunchEnd
  /// Something stopped holding the process: suspend it if nothing else does.
  case idleCheck
}

/// Device-wide OS events.
public enum DeviceEvent: UInt8, Sendable {
  /// Protected data becomes unavailable some time after a lock (reference §0).
  case protectedDataLock
  /// Memory changed: warnings and jetsam are decided (reference §4).
  case memoryCheck
}

/// One entry of the event queue, ordered by (time, sequence).
public struct ScheduledEvent: Comparable, Sendable {
  public var time: SimTime
  public var sequence: UInt64
  public var action: EventAction

  public static func < (a: ScheduledEvent, b: ScheduledEvent) -> Bool {
    a.time != b.time ? a.time < b.time : a.sequence < b.sequence
  }

  public static func == (a: ScheduledEvent, b: ScheduledEvent) -> Bool {
    a.time == b.time && a.sequence == b.sequence
  }
}

/// The discrete-event kernel: a clock and a queue with a total order.
///
/// As in SimPy, an ever-increasing sequence number breaks ties between events at
/// the same time, so they come out in the order they were scheduled; the heap
/// itself gives no order among equal items (swift-collections documents this).
///
/// Most events are due at the moment they are scheduled (a process that went
/// to the background is checked for suspension once its handlers return, a
/// memory change is weighed): those wait in a first-in first-out line
/// beside the heap, not in it. Their times never fall and their sequence
/// numbers rise, so the line's first is its earliest, and the earlier of it
/// and the heap's minimum is the earliest of all: the order is the one a
/// single heap gives, at a fraction of an insertion and a removal.
public struct Kernel: Sendable {
  /// The current virtual time.
  public internal(set) var now: SimTime = .zero
  var queue = Heap<ScheduledEvent>()
  /// Events scheduled for the time it was then, in the order scheduled.
  var line = Deque<ScheduledEvent>()
  var nextSequence: UInt64 = 0

  public init() {}

  /// The number of pending events.
  public var pendingCount: Int { queue.count + line.count }

  /// The time of the earliest pending event.
  public var nextTime: SimTime? {
    guard let first = line.first else { return queue.min?.time }
    guard let min = queue.min, min < first else { return first.time }
    return min.time
  }

  /// Every pending event, in no particular order.
  public func forEachPending(_ body: (ScheduledEvent) throws -> Void) rethrows {
    for e in queue.unordered { try body(e) }
    for e in line { try body(e) }
  }

  /// Whether any pending event matches.
  public func containsPending(where match: (ScheduledEvent) throws -> Bool) rethrows -> Bool {
    try queue.unordered.contains(where: match) || line.contains(where: match)
  }

  /// Every pending event, in the order they will come.
  public var pendingInOrder: [ScheduledEvent] {
    var all = Array(queue.unordered)
    all.append(contentsOf: line)
    return all.sorted()
  }

  /// Schedules `action` at `time`, which may not lie in the past.
  /// - Complexity: O(log n), O(1) for an event due now
  @inline(never)  // one copy of the heap's insertion for every caller, not one per effects loop
  public mutating func schedule(_ action: EventAction, at time: SimTime) {
    precondition(time >= now, "scheduled in the past: \(time) < \(now)")
    let event = ScheduledEvent(time: time, sequence: nextSequence, action: action)
    if time == now { line.append(event) } else { queue.insert(event) }
    nextSequence &+= 1
  }

  /// Removes and returns the earliest event due at or before `limit`, and moves
  /// the clock to its time (never backwards: an event made late by a handler's
  /// `work` runs at the current time).
  public mutating func popDue(upTo limit: SimTime) -> ScheduledEvent? {
    let event: ScheduledEvent
    if let first = line.first, queue.min.map({ first < $0 }) ?? true {
      guard first.time <= limit else { return nil }
      event = line.removeFirst()
    } else {
      guard let first = queue.min, first.time <= limit else { return nil }
      event = queue.removeMin()
    }
    if event.time > now { now = event.time }
    return event
  }

  /// Moves the clock forward; it never goes back.
  public mutating func advance(to time: SimTime) {
    if time > now { now = time }
  }

  /// Removes every pending event that matches, and returns them in the order
  /// they would have come. Nothing is allocated when none matches (a process
  /// that ends asks for its timers, and mostly has none).
  public mutating func removeAll(where match: (ScheduledEvent) -> Bool) -> [ScheduledEvent] {
    var removed: [ScheduledEvent] = []
    if queue.unordered.contains(where: match) {
      var kept: [ScheduledEvent] = []
      kept.reserveCapacity(queue.count)
      for event in queue.unordered {
        if match(event) { removed.append(event) } else { kept.append(event) }
      }
      queue = Heap(kept)
    }
    if line.contains(where: match) {
      for event in line where match(event) { removed.append(event) }
      line.removeAll(where: match)
    }
    if removed.count > 1 { removed.sort() }
    return removed
  }
}
