/// An app on a device: the index of its installation, as a small distinct type.
public struct AppID: Hashable, Comparable, Sendable {
  public var index: Int32
  public init(_ index: Int) { self.index = Int32(index) }
  public static func < (a: AppID, b: AppID) -> Bool { a.index < b.index }
}

/// The kinds of trace record.
public enum RecordKind: UInt8, CaseIterable, Sendable, CustomStringConvertible {
  case callback, notification, state, action, expire, kill, dataLoss, memory, snapshot, warning, log
  /// Something the system asked of an app waited for its busy main thread (reference §3.8).
  case wait

  // A switch, not an array indexed by the raw value: a case added out of
  // order would shift every name after it without a word.
  public var description: String {
    switch self {
    case .callback: return "callback"
    case .notification: return "notification"
    case .state: return "state"
    case .action: return "action"
    case .expire: return "expire"
    case .kill: return "kill"
    case .dataLoss: return "data_loss"
    case .memory: return "memory"
    case .snapshot: return "snapshot"
    case .warning: return "warning"
    case .log: return "log"
    case .wait: return "wait"
    }
  }

  public init?(name: String) {
    guard let kind = RecordKind.allCases.first(where: { $0.description == name }) else { return nil }
    self = kind
  }
}

/// Why a process died (reference §3–§4).
public enum KillReason: UInt8, CaseIterable, Sendable, CustomStringConvertible {
  case user, vmPageShortage, perProcessLimit, watchdog, backgroundTask, exitsOnSuspend
  /// Suspended holding a lock on a shared file: 0xdead10cc (reference §3.5.1).
  case fileLock

  // A switch of literals, not an array indexed by the raw value: the array
  // would be built on every call, and `dev.stats` names every reason.
  public var description: String {
    switch self {
    case .user: "user"
    case .vmPageShortage: "vm-pageshortage"
    case .perProcessLimit: "per-process-limit"
    case .watchdog: "watchdog"
    case .backgroundTask: "background-task"
    case .exitsOnSuspend: "exits-on-suspend"
    case .fileLock: "file-lock"
    }
  }
}

/// One line of the trace.
///
/// Plain values only: an app is an index, a callback a byte. Strings are made
/// when a trace is written, never when it is recorded (except the rare `detail`).
public struct TraceRecord: Equatable, Sendable {
  public var time: SimTime
  public var seq: Int
  public var kind: RecordKind
  public var app: AppID?
  /// The scene number within its app (1, 2, …), for scene callbacks.
  public var scene: Int32?
  /// For view-controller and view records: the object's class and instance.
  public var object: ObjectRef?
  public var callback: Callback?
  public var notification: AppNotification?
  /// For callbacks and notifications: whether the script had a handler.
  public var handled: Bool?
  /// For app `state` records: the process states.
  public var from: AppState?
  public var to: AppState?
  /// For scene `state` records (those with a `scene`): the scene states.
  public var sceneFrom: SceneState?
  public var sceneTo: SceneState?
  public var action: DeviceAction?
  public var reason: KillReason?
  public var code: UInt32?
  public var detail: String?
  /// The memory in use, in MB, after an app's `state` change, and on
  /// `memory` records.
  public var usedMB: Double?
  /// The fields few records have, kept out of line so that a record stays
  /// small (a traced week holds a million of them).
  private var rare: Rare?

  /// Boxed: one allocation for the few records that have any of these.
  private indirect enum Rare: Equatable, Sendable {
    case fields(RareFields)
    var value: RareFields { if case .fields(let f) = self { return f }; fatalError() }
  }

  /// The rare fields, all at once (a writer reads them together).
  struct RareFields: Equatable, Sendable {
    var memoryLevel: MemoryLevel?
    var limitMB: Double?
    var warningMB: Double?
    var jetsamMB: Double?
    var unsaved: Int32?
    var task: Int32?
    var deadline: SimTime?
    var url: String?
    var duration: SimTime?
  }

  /// The rare fields, or nil when the record has none.
  var rareFields: RareFields? { rare?.value }

  /// The bytes the record holds out of line: its text, and its boxed fields
  /// with their URL (for the trace's budget).
  @inline(__always)
  var outOfLineBytes: Int {
    let text = detail?.utf8.count ?? 0
    return rare == nil ? text : text &+ boxedBytes()
  }

  @inline(never)
  private func boxedBytes() -> Int {
    MemoryLayout<RareFields>.stride &+ 16 &+ (rare?.value.url?.utf8.count ?? 0)
  }

  /// Changes the rare fields; the first change boxes them. (Plain closures,
  /// not key paths: a key path is looked up at run time on each use.)
  private mutating func updateRare(_ change: (inout RareFields) -> Void) {
    var f = rare?.value ?? RareFields()
    change(&f)
    rare = .fields(f)
  }

  /// For `memory` records: the level reached and the device's RAM, in MB.
  public var memoryLevel: MemoryLevel? { get { rare?.value.memoryLevel } set { updateRare { $0.memoryLevel = newValue } } }
  public var limitMB: Double? { get { rare?.value.limitMB } set { updateRare { $0.limitMB = newValue } } }
  /// For `memory` records: where the warning and critical (jetsam) levels begin, in MB.
  public var warningMB: Double? { get { rare?.value.warningMB } set { updateRare { $0.warningMB = newValue } } }
  public var jetsamMB: Double? { get { rare?.value.jetsamMB } set { updateRare { $0.jetsamMB = newValue } } }
  /// For `data_loss` records: how many unsaved changes were lost.
  public var unsaved: Int32? { get { rare?.value.unsaved } set { updateRare { $0.unsaved = newValue } } }
  /// For `expire` records: the task's number (its name is the `detail`) and
  /// when its process will be killed unless it ends its tasks.
  public var task: Int32? { get { rare?.value.task } set { updateRare { $0.task = newValue } } }
  public var deadline: SimTime? { get { rare?.value.deadline } set { updateRare { $0.deadline = newValue } } }
  /// For handled callbacks whose handler took virtual time (`ctx:work`): how long.
  public var duration: SimTime? { get { rare?.value.duration } set { updateRare { $0.duration = newValue } } }
  /// For callbacks that carry a URL.
  public var url: String? { get { rare?.value.url } set { updateRare { $0.url = newValue } } }

  /// The name of the state before, the app's or the scene's.
  public var fromName: String? { from?.description ?? sceneFrom?.description }
  /// The name of the state after, the app's or the scene's.
  public var toName: String? { to?.description ?? sceneTo?.description }

  public init(time: SimTime, seq: Int, kind: RecordKind) {
    self.time = time
    self.seq = seq
    self.kind = kind
  }
}
