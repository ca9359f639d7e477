/// The engine's state machines, one row each: the tables the engine walks
/// (`Machines`), what coverage counts, where a device holds each machine's
/// states (the search's fingerprint), what the search reports, diagrams draw
/// and help texts list. A new machine is its table, a case and its row here,
/// and its tests.
public enum Machine: Int, CaseIterable, Sendable {
  case processAppDelegate, processScene, scene, appearance

  /// The table of rows, in case order (`MachineRow.all`).
  var definition: MachineRow {
    switch self {
    case .processAppDelegate:
      return MachineRow(self, AppLifecycle.appDelegate, drawnAs: "process", model: .appDelegate)
    case .processScene:
      return MachineRow(self, AppLifecycle.scene, drawnAs: "process", model: .scene, needsScenes: true)
    case .scene:
      return MachineRow(self, SceneLifecycle.table, drawnAs: "scene", needsScenes: true)
    case .appearance:
      // viewIsAppearing: is no edge: it comes while appearing, after the view
      // enters the window (§5.3).
      return MachineRow(self, AppearanceLifecycle.table, drawnAs: "vc", note: "a view controller's appearance",
                        whileIn: .viewIsAppearing)
    }
  }

  /// Calls `each` with the raw state of each of the machine's instances on
  /// `dev` (each app's process, each scene, ...), in an order fixed by the
  /// device, not by the states. The search's fingerprint writes them for
  /// every state it reaches, so they are read in place, and this is a method
  /// rather than a closure the row stores: a stored closure's argument is
  /// reabstracted through a thunk allocated on every call.
  func forEachState(on dev: Device, _ each: (UInt8) -> Void) {
    switch self {
    case .processAppDelegate:
      dev.apps.withUnsafeBufferPointer { apps in
        for i in apps.indices where apps[i].model == .appDelegate { each(apps[i].state.rawValue) }
      }
    case .processScene:
      dev.apps.withUnsafeBufferPointer { apps in
        for i in apps.indices where apps[i].model == .scene { each(apps[i].state.rawValue) }
      }
    case .scene:
      dev.apps.withUnsafeBufferPointer { apps in
        for i in apps.indices {
          apps[i].scenes.withUnsafeBufferPointer { scenes in
            for j in scenes.indices { each(scenes[j].state.rawValue) }
          }
        }
      }
    case .appearance:
      // A released view controller is gone for good: it is no state.
      dev.viewControllers.withUnsafeBufferPointer { vcs in
        for k in vcs.indices where vcs[k].appearance != .deallocated { each(vcs[k].appearance.rawValue) }
      }
    }
  }

  public var row: MachineRow { MachineRow.all[rawValue] }
}

/// One state machine as plain data, its types erased: its states and edges by
/// name, for what reads every machine alike.
public struct MachineRow: Sendable {
  public struct Edge: Sendable {
    /// Positions in `states`.
    public let from: Int
    public let to: Int
    public let event: String
    public let callbacks: [Callback]
    public let silent: Bool
    public let reference: String
  }

  public let machine: Machine
  /// The table's name ("process (app delegate)", "scene", …).
  public let name: String
  public let states: [String]
  public let edges: [Edge]
  /// The word a diagram is asked for it by; the two process machines share
  /// one, told apart by `model`.
  public let drawnAs: String
  /// What the word means, where it does not say, for help texts.
  public let note: String?
  /// The lifecycle model of a process machine.
  public let model: LifecycleModel?
  /// Whether the machine exists only where scenes do (iOS 13+).
  public let needsScenes: Bool
  /// A callback that comes while appearing, within a state rather than on an edge.
  public let whileIn: Callback?
  /// The table with its types (`TransitionTable<S, E>`), which the engine's
  /// walk takes back (`typedTable`).
  let table: any Sendable

  init<S: MachineValue, E: MachineValue>(_ machine: Machine, _ table: TransitionTable<S, E>, drawnAs: String,
                                         note: String? = nil, model: LifecycleModel? = nil, needsScenes: Bool = false,
                                         whileIn: Callback? = nil) {
    self.machine = machine
    self.table = table
    name = table.name
    let order = Array(S.allCases)
    states = order.map(\.description)
    edges = table.transitions.map { t in
      Edge(from: order.firstIndex(of: t.from)!, to: order.firstIndex(of: t.to)!, event: t.event.description,
           callbacks: t.callbacks, silent: t.isSilent, reference: t.reference)
    }
    self.drawnAs = drawnAs
    self.note = note
    self.model = model
    self.needsScenes = needsScenes
    self.whileIn = whileIn
  }

  /// Every machine, in `Machine` order.
  public static let all: [MachineRow] = Machine.allCases.map(\.definition)

  /// The table, as the registry holds it: its states and events are `S`
  /// and `E`, or this is a defect of the caller's.
  func typedTable<S: MachineValue, E: MachineValue>() -> TransitionTable<S, E> {
    guard let t = table as? TransitionTable<S, E> else {
      preconditionFailure("the \(name) table is not one of \(S.self) by \(E.self)")
    }
    return t
  }

  /// Calls `each` with the raw state of each of the machine's instances on
  /// `dev`, in a fixed order (`Machine.forEachState(on:_:)`).
  func forEachState(_ dev: Device, _ each: (UInt8) -> Void) { machine.forEachState(on: dev, each) }

  /// "inactive --activate--> active".
  public func label(_ edge: Int) -> String {
    let e = edges[edge]
    return "\(states[e.from]) --\(e.event)--> \(states[e.to])"
  }

  /// The words diagrams are asked for, each once, in table order.
  public static var drawnNames: [String] {
    var seen: [String] = []
    for row in all where !seen.contains(row.drawnAs) { seen.append(row.drawnAs) }
    return seen
  }
}
