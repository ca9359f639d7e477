/// The record of everything that happened on a device, in order.
///
/// Records are appended to a contiguous array, which after warm-up costs no
/// allocation per event; a copy of the trace shares it, and each copy's next
/// record starts an array of its own (`TraceRecords`). Queries filter the
/// records; writers format them.
public struct Trace: Sendable {
  /// The records, in sequence order; `records[i].seq == i + 1`.
  public private(set) var records = TraceRecords()
  /// Bundle ids, indexed by `AppID`.
  public internal(set) var appNames: [String] = []
  /// View-controller and view class names, indexed by `ObjectRef.classIndex`.
  public internal(set) var classNames: [String] = []
  private var classIndexes: [String: Int32] = [:]
  /// When false, nothing is recorded (for batch runs that only need metrics).
  public var isEnabled = true
  /// Where each record goes as it is made, if anywhere (`lifesim run --stream`).
  public var stream: TraceStream?
  /// When false, records go only to the stream: memory stays flat however long
  /// the run, and the trace answers no queries (`keepsRecords` says so).
  public var keepsRecords = true
  /// Records made so far, kept or not.
  public private(set) var count = 0
  /// What the kept records and the names hold, in bytes: each record's
  /// size and the bytes of its text. Streamed records that are not kept
  /// count nothing.
  public private(set) var bytesKept = 0
  /// The budget `bytesKept` also counts in, shared with other devices: past
  /// its limit the device stops at its next action or checkpoint
  /// (`SimulationError.traceFull`).
  public internal(set) var budget: MemoryBudget? {
    didSet {
      oldValue?.add(-bytesKept)
      budget?.add(bytesKept)
      counter = budget?.counter
    }
  }
  /// The budget's counter, read on each record without touching the object
  /// (a trace, like its device, is used by one thread at a time).
  nonisolated(unsafe) private var counter: UnsafeMutablePointer<Int>?
  /// What one record costs, besides its text.
  static let recordBytes = MemoryLayout<TraceRecord>.stride

  public init() {}

  /// The sequence number the next record will get: `since` for later queries.
  public var nextSeq: Int { count + 1 }

  mutating func append(_ make: (inout TraceRecord) -> Void, kind: RecordKind, at time: SimTime) {
    guard isEnabled else { return }
    count += 1
    var r = TraceRecord(time: time, seq: count, kind: kind)
    make(&r)
    if let stream {
      if held > 0 { pending.append(r) } else { stream.write(r, in: self) }
    }
    if keepsRecords {
      count(Trace.recordBytes &+ r.outOfLineBytes)
      records.append(consume r)
    }
  }

  /// Counts a name the trace keeps (a bundle id, a class name), and `extra`
  /// bytes the device keeps with it (an app's entry).
  mutating func keep(name: String, extra: Int = 0) { count(16 &+ name.utf8.count &+ extra) }

  @inline(__always)
  private mutating func count(_ n: Int) {
    bytesKept &+= n
    if let counter { counter.pointee &+= n }
  }

  // A handler's duration is known when it returns, after its callback's
  // record was made: while any handler runs, streamed records wait here.
  private var held = 0
  private var pending: [TraceRecord] = []

  /// The sequence number of the last record made (0 when none, or when the
  /// trace is off).
  var lastSeq: Int { isEnabled ? count : 0 }

  /// Streamed records wait from here until the matching `release()`.
  mutating func hold() { held += 1 }

  @inline(__always)
  mutating func release() {
    held -= 1
    if held == 0, !pending.isEmpty { writePending() }
  }

  @inline(never)
  private mutating func writePending() {
    guard let stream else { return }
    for r in pending { stream.write(r, in: self) }
    pending.removeAll(keepingCapacity: true)
  }

  /// Sets how long the handler of record `seq` took (`ctx:work`).
  mutating func setDuration(of seq: Int, _ duration: SimTime) {
    guard seq > 0 else { return }
    if keepsRecords, seq <= records.count, records[seq - 1].seq == seq { records.update(seq - 1) { $0.duration = duration } }
    if let first = pending.first?.seq, seq >= first, seq - first < pending.count { pending[seq - first].duration = duration }
  }

  /// The bundle id of an app.
  public func name(of app: AppID) -> String { appNames[Int(app.index)] }

  /// The class name of an object.
  public func className(of object: ObjectRef) -> String { classNames[Int(object.classIndex)] }

  /// The index of a class name, added on first use.
  mutating func classIndex(of name: String) -> Int32 {
    if let i = classIndexes[name] { return i }
    let i = Int32(classNames.count)
    keep(name: name)
    classNames.append(name)
    classIndexes[name] = i
    return i
  }

  /// Filters records: every criterion is optional.
  public func records(app: AppID? = nil, kind: RecordKind? = nil, since: Int = 1) -> [TraceRecord] {
    let start = max(0, since - 1)
    guard start < records.count else { return [] }
    return records[start...].filter { r in
      (app == nil || r.app == app) && (kind == nil || r.kind == kind)
    }
  }

  /// The selectors of the callbacks delivered, in order (`trace:callbacks`).
  /// `objectClass` keeps those of view controllers or views of that class.
  public func callbacks(app: AppID? = nil, since: Int = 1, objectClass: String? = nil) -> [String] {
    let wanted = objectClass.map { classIndexes[$0] ?? -1 }
    return records(app: app, kind: .callback, since: since).compactMap { r in
      if let wanted, r.object?.classIndex != wanted { return nil }
      return r.callback?.selector
    }
  }
}
