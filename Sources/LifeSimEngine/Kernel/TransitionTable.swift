/// A state or an event of one of the engine's state machines: a small enum
/// whose raw values number its cases from 0, so a table can index by them.
public protocol MachineValue: RawRepresentable, CaseIterable, Hashable, Sendable, CustomStringConvertible
where RawValue == UInt8 {}

/// One edge of a state machine: in `from`, `event` leads to `to` and fires
/// `callbacks`, in order, before or after the change.
public struct Transition<State: MachineValue, Event: MachineValue>: Sendable {
  public let from: State
  public let event: Event
  public let to: State
  /// The callbacks, in order. Guards in `Device` may skip one (a launch method
  /// the version lacks, a report with nothing to report); each guard cites why.
  public let callbacks: [Callback]
  /// True when the callbacks run in the new state; false when they run before it.
  public let deliveredAfter: Bool
  /// The system makes the change without telling the app (suspension, a kill,
  /// a scene detached with its process); diagrams draw these dashed.
  public let isSilent: Bool
  /// The reference section the edge comes from (docs/reference.md).
  public let reference: String

  public init(_ from: State, _ event: Event, _ to: State, callbacks: [Callback] = [],
              after deliveredAfter: Bool = true, silent isSilent: Bool = false, reference: String) {
    self.from = from
    self.event = event
    self.to = to
    self.callbacks = callbacks
    self.deliveredAfter = deliveredAfter
    self.isSilent = isSilent
    self.reference = reference
  }
}

/// A state machine as data: every legal edge once, with an index
/// from (state, event) to its edge. The process, scene and view-controller
/// appearance machines are each one of these, and so is what a diagram draws.
///
///     let t = AppLifecycle.table(for: .appDelegate)
///     t.transition(from: .inactive, on: .activate)?.callbacks  // [.didBecomeActive]
///     t.transition(from: .active, on: .launch)                 // nil: illegal
public struct TransitionTable<State: MachineValue, Event: MachineValue>: Sendable {
  /// What the machine is, for messages and diagrams ("process", "scene", …).
  public let name: String
  public let transitions: [Transition<State, Event>]
  /// By `state * eventCount + event`: the edge's position, or -1.
  private let index: [Int16]
  private let eventCount: Int

  /// - Precondition: no (state, event) pair has two edges.
  public init(_ name: String, _ transitions: [Transition<State, Event>]) {
    self.name = name
    self.transitions = transitions
    eventCount = Event.allCases.count
    var index = [Int16](repeating: -1, count: State.allCases.count * Event.allCases.count)
    for (i, t) in transitions.enumerated() {
      let slot = Int(t.from.rawValue) * Event.allCases.count + Int(t.event.rawValue)
      precondition(index[slot] < 0, "\(name): two edges for \(t.from) --\(t.event)-->")
      index[slot] = Int16(i)
    }
    self.index = index
  }

  /// The position in `transitions` of the edge for (state, event), or nil when
  /// the event is illegal in that state.
  /// - Complexity: O(1)
  @inline(__always)
  public func edge(from state: State, on event: Event) -> Int? {
    let i = index[Int(state.rawValue) * eventCount + Int(event.rawValue)]
    return i < 0 ? nil : Int(i)
  }

  /// The edge for (state, event), or nil when the event is illegal in that state.
  public func transition(from state: State, on event: Event) -> Transition<State, Event>? {
    edge(from: state, on: event).map { transitions[$0] }
  }

  /// The events legal in `state`, in declaration order.
  public func events(from state: State) -> [Event] {
    Event.allCases.filter { edge(from: state, on: $0) != nil }
  }
}
