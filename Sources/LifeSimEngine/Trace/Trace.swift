/// The record of everything that happened on a device, in order.
///
/// Records are appended to one contiguous array; after warm-up that costs no
/// allocation per event. Queries filter it; writers format it.
public struct Trace: Sendable {
  /// The records, in sequence order; `records[i].seq == i + 1`.
  public private(set) var records: ContiguousArray<TraceRecord> = []
  /// Bundle ids, indexed by `AppID`.
  public internal(set) var appNames: [String] = []
  /// When false, nothing is recorded (for batch runs that only need metrics).
  public var isEnabled = true

  public init() {}

  /// The sequence number the next record will get: `since` for later queries.
  public var nextSeq: Int { records.count + 1 }

  mutating func append(_ make: (inout TraceRecord) -> Void, kind: RecordKind, at time: SimTime) {
    guard isEnabled else { return }
    var r = TraceRecord(time: time, seq: records.count + 1, kind: kind)
    make(&r)
    records.append(r)
  }

  /// The bundle id of an app.
  public func name(of app: AppID) -> String { appNames[Int(app.index)] }

  /// Filters records: every criterion is optional.
  public func records(app: AppID? = nil, kind: RecordKind? = nil, since: Int = 1) -> [TraceRecord] {
    let start = max(0, since - 1)
    guard start < records.count else { return [] }
    return records[start...].filter { r in
      (app == nil || r.app == app) && (kind == nil || r.kind == kind)
    }
  }

  /// The selectors of the callbacks delivered, in order (SPEC §2 `trace:callbacks`).
  public func callbacks(app: AppID? = nil, since: Int = 1) -> [String] {
    records(app: app, kind: .callback, since: since).compactMap { $0.callback?.selector }
  }
}
