import LifeSimEngine

import LifeSimPlatform

/// One trace record, as much of it as a timeline draws.
public struct TimelineEvent: Sendable {
  public enum Kind: Sendable {
    case state, callback, notification, kill, dataLoss, expire, memory, action, log, warning, snapshot, other
  }
  public var time: Int64 = 0  // microseconds
  public var device = 1
  public var kind = Kind.other
  public var app: String?
  public var scene: Int?
  /// For state records, the new state.
  public var to: String?
  /// A callback's selector, a notification's name, an action's name.
  public var name: String?
  public var reason: String?
  public var detail: String?
  public var usedMB: Double?
  public var limitMB: Double?
  public var warningMB: Double?
  public var jetsamMB: Double?
  public var unsaved: Int?
  public var duration: Int64 = 0

  public init() {}

  /// The event of an engine record (for `lifesim run --timeline`).
  public init(_ r: TraceRecord, in trace: Trace, device: Int) {
    time = r.time.microseconds
    self.device = device
    switch r.kind {
    case .state: kind = .state
    case .callback: kind = .callback
    case .notification: kind = .notification
    case .kill: kind = .kill
    case .dataLoss: kind = .dataLoss
    case .expire: kind = .expire
    case .memory: kind = .memory
    case .action: kind = .action
    case .log: kind = .log
    case .warning: kind = .warning
    case .snapshot: kind = .snapshot
    case .wait: kind = .other
    }
    app = r.app.map(trace.name(of:))
    scene = r.scene.map(Int.init)
    to = r.toName
    if let c = r.callback {
      name = r.object.map { "-[\(trace.className(of: $0)) \(c.selector)]" } ?? "-[\(c.receiver.className) \(c.selector)]"
    }
    if let n = r.notification { name = n.name }
    if let a = r.action { name = a.description }
    reason = r.reason?.description
    detail = r.detail
    usedMB = r.usedMB
    limitMB = r.limitMB
    warningMB = r.warningMB
    jetsamMB = r.jetsamMB
    unsaved = r.unsaved.map(Int.init)
    duration = r.duration?.microseconds ?? 0
  }
}

/// Reads a JSONL trace line by line (memory stays flat whatever its length),
/// keeping the fields a timeline draws. The records are the flat objects
/// `lifesim run --format jsonl` writes (docs/trace.md).
public struct JSONLTraceReader {
  public let path: String

  public init(path: String) { self.path = path }

  public struct ReadError: Error, CustomStringConvertible {
    public let description: String
  }

  /// The latest virtual time a record may name, its duration included, in
  /// seconds: the bound of `--from` and `--to`, which whole microseconds in
  /// 64 bits hold with room for the drawing's arithmetic (the engine's clock
  /// ends at half of it).
  public static let maxSeconds = 9e12
  /// The largest whole number a count field (`device`, `scene`, `unsaved`)
  /// may hold: the engine writes them from 32 bits.
  public static let maxCount = Double(Int32.max)

  /// A field whose value the timeline cannot take, named for the refusal.
  struct FieldError: Error {
    let field: String
    let message: String
  }

  /// Calls `body` with each record, in order. The records of one device must
  /// come in time order, as lifesim writes them: the timeline draws each lane
  /// as it reads it.
  public func forEach(_ body: (TimelineEvent) throws -> Void) throws {
    guard let file = fopen(path, "rb") else { throw ReadError(description: "cannot read \(path)") }
    defer { fclose(file) }
    var line: UnsafeMutablePointer<CChar>?
    var capacity = 0
    defer { free(line) }
    var number = 0
    var lastTime: [Int: Int64] = [:]
    while true {
      let n = getline(&line, &capacity, file)
      if n < 0 { break }
      number += 1
      guard let line, n > 1 else { continue }
      let bytes = UnsafeRawBufferPointer(start: line, count: n).bindMemory(to: UInt8.self)
      let parsed: TimelineEvent?
      do {
        parsed = try Self.parse(bytes)
      } catch let f as FieldError {
        throw ReadError(description: "\(path):\(number): field \"\(f.field)\" \(f.message)")
      }
      guard let e = parsed else {
        throw ReadError(description: "\(path):\(number): not a lifesim JSONL record (lifesim run --format jsonl writes them)")
      }
      if let before = lastTime[e.device], e.time < before {
        throw ReadError(description: "\(path):\(number): the record at \(Self.seconds(e.time)) s comes before device \(e.device)'s "
          + "previous one, at \(Self.seconds(before)) s: a trace's records are in time order on each device (as lifesim run "
          + "--format jsonl writes them); draw each trace on its own")
      }
      lastTime[e.device] = e.time
      try body(e)
    }
  }

  /// Microseconds as the seconds a trace writes ("12.500000").
  static func seconds(_ us: Int64) -> String {
    let sign = us < 0 ? "-" : "", m = us.magnitude
    let fraction = String(m % 1_000_000)
    return "\(sign)\(m / 1_000_000).\(String(repeating: "0", count: 6 - fraction.count))\(fraction)"
  }

  /// A time field in seconds as whole microseconds, refused beyond
  /// `0...maxSeconds` (and NaN, which the range leaves out).
  static func microseconds(_ seconds: Double, _ field: String) throws -> Int64 {
    guard seconds >= 0, seconds <= maxSeconds else {
      throw FieldError(field: field, message: "must be a time between 0 and 9e12 seconds, got \(seconds)")
    }
    return Int64((seconds * 1_000_000).rounded())
  }

  /// A count field as an `Int`, refused unless whole and in `0...maxCount`.
  static func count(_ value: Double, _ field: String) throws -> Int {
    guard value >= 0, value <= maxCount, value == value.rounded() else {
      throw FieldError(field: field, message: "must be a whole number between 0 and \(Int32.max), got \(value)")
    }
    return Int(value)
  }

  /// A memory field in MB: a finite number ≥ 0.
  static func megabytes(_ value: Double, _ field: String) throws -> Double {
    guard value >= 0, value.isFinite else {
      throw FieldError(field: field, message: "must be a finite number of MB ≥ 0, got \(value)")
    }
    return value
  }

  /// One flat JSON object into an event; nil when it is not one, a
  /// `FieldError` when a number the timeline reads is out of its range.
  /// Keys are compared as bytes, and a value becomes a `String` only when the
  /// event keeps it: the reader runs over millions of lines.
  static func parse(_ b: UnsafeBufferPointer<UInt8>) throws -> TimelineEvent? {
    var i = 0
    func skipSpace() { while i < b.count, b[i] == 0x20 || b[i] == 0x09 || b[i] == 0x0A || b[i] == 0x0D { i += 1 } }
    /// A string's bytes (without the quotes) and whether it has escapes.
    func stringRange() -> (Range<Int>, escaped: Bool)? {
      guard i < b.count, b[i] == 0x22 else { return nil }
      i += 1
      let start = i
      var escaped = false
      while i < b.count {
        if b[i] == 0x22 { i += 1; return (start..<(i - 1), escaped) }
        if b[i] == 0x5C { escaped = true; i += 1 }
        i += 1
      }
      return nil
    }
    func decode(_ r: Range<Int>, escaped: Bool) -> String? {
      let slice = UnsafeBufferPointer(rebasing: b[r])
      guard escaped else { return String(decoding: slice, as: UTF8.self) }
      var bytes: [UInt8] = []
      var k = r.lowerBound
      while k < r.upperBound {
        let c = b[k]
        guard c == 0x5C, k + 1 < r.upperBound else { bytes.append(c); k += 1; continue }
        k += 1
        switch b[k] {
        case 0x6E: bytes.append(0x0A)
        case 0x74: bytes.append(0x09)
        case 0x72: bytes.append(0x0D)
        case 0x62: bytes.append(0x08)
        case 0x66: bytes.append(0x0C)
        case 0x75:
          guard k + 4 < r.upperBound,
                let v = UInt32(String(decoding: UnsafeBufferPointer(rebasing: b[(k + 1)...(k + 4)]), as: UTF8.self), radix: 16)
          else { return nil }
          k += 4
          var scalar = v
          // A surrogate pair: the low half follows as another \u escape.
          if (0xD800..<0xDC00).contains(v), k + 6 < r.upperBound, b[k + 1] == 0x5C, b[k + 2] == 0x75,
             let low = UInt32(String(decoding: UnsafeBufferPointer(rebasing: b[(k + 3)...(k + 6)]), as: UTF8.self), radix: 16),
             (0xDC00..<0xE000).contains(low) {  // else the high half stands alone: U+FFFD, and the escape after it is read on its own
            scalar = 0x10000 + ((v - 0xD800) << 10) + (low - 0xDC00)
            k += 6
          }
          bytes.append(contentsOf: Array(String(Unicode.Scalar(scalar).map(Character.init) ?? "\u{FFFD}").utf8))
        default: bytes.append(b[k])  // \" \\ \/
        }
        k += 1
      }
      return String(decoding: bytes, as: UTF8.self)
    }
    func number() -> Double? {
      let start = i
      while i < b.count, (0x30...0x39).contains(b[i]) || b[i] == 0x2D || b[i] == 0x2B || b[i] == 0x2E || b[i] == 0x65 || b[i] == 0x45 {
        i += 1
      }
      return Double(String(decoding: UnsafeBufferPointer(rebasing: b[start..<i]), as: UTF8.self))
    }
    func equals(_ r: Range<Int>, _ s: StaticString) -> Bool {
      guard r.count == s.utf8CodeUnitCount else { return false }
      let p = s.utf8Start
      for k in 0..<r.count where b[r.lowerBound + k] != p[k] { return false }
      return true
    }
    skipSpace()
    guard i < b.count, b[i] == 0x7B else { return nil }
    i += 1
    var e = TimelineEvent()
    var kindRange: Range<Int>?
    var callback: String?, notification: String?, action: String?, vc: String?, view: String?
    while true {
      skipSpace()
      if i < b.count, b[i] == 0x7D { break }
      guard let (key, _) = stringRange() else { return nil }
      skipSpace()
      guard i < b.count, b[i] == 0x3A else { return nil }
      i += 1
      skipSpace()
      guard i < b.count else { return nil }
      var text: (Range<Int>, escaped: Bool)?, value: Double?
      switch b[i] {
      case 0x22: text = stringRange(); if text == nil { return nil }
      case 0x74: i += 4  // true
      case 0x66: i += 5  // false
      case 0x6E: i += 4  // null
      default: value = number(); if value == nil { return nil }
      }
      func string() -> String? { text.flatMap { decode($0.0, escaped: $0.escaped) } }
      switch key.count {
      case 1 where equals(key, "t"): e.time = try microseconds(value ?? 0, "t")
      case 2 where equals(key, "to"): e.to = string()
      case 2 where equals(key, "vc"): vc = string()
      case 3 where equals(key, "app"): e.app = string()
      case 4 where equals(key, "kind"): kindRange = text?.0
      case 4 where equals(key, "view"): view = string()
      case 5 where equals(key, "scene"): e.scene = try value.map { try count($0, "scene") }
      case 6 where equals(key, "device"): e.device = try count(value ?? 1, "device")
      case 6 where equals(key, "action"): action = string()
      case 6 where equals(key, "reason"): e.reason = string()
      case 6 where equals(key, "detail"): e.detail = string()
      case 7 where equals(key, "used_mb"): e.usedMB = try value.map { try megabytes($0, "used_mb") }
      case 7 where equals(key, "unsaved"): e.unsaved = try value.map { try count($0, "unsaved") }
      case 8 where equals(key, "callback"): callback = string()
      case 8 where equals(key, "limit_mb"): e.limitMB = try value.map { try megabytes($0, "limit_mb") }
      case 8 where equals(key, "duration"): e.duration = try microseconds(value ?? 0, "duration")
      case 9 where equals(key, "jetsam_mb"): e.jetsamMB = try value.map { try megabytes($0, "jetsam_mb") }
      case 10 where equals(key, "warning_mb"): e.warningMB = try value.map { try megabytes($0, "warning_mb") }
      case 12 where equals(key, "notification"): notification = string()
      default: break
      }
      skipSpace()
      if i < b.count, b[i] == 0x2C { i += 1; continue }
      skipSpace()
      guard i < b.count, b[i] == 0x7D else { return nil }
      break
    }
    guard let k = kindRange else { return nil }
    // The drawing adds a record's duration to its time: their sum stays in range too.
    if e.duration > 0, e.time > Int64(maxSeconds * 1_000_000) - e.duration {
      throw FieldError(field: "duration", message: "ends the record after 9e12 seconds (t \(seconds(e.time)) + duration \(seconds(e.duration)))")
    }
    if equals(k, "state") { e.kind = .state }
    else if equals(k, "callback") { e.kind = .callback }
    else if equals(k, "notification") { e.kind = .notification }
    else if equals(k, "kill") { e.kind = .kill }
    else if equals(k, "data_loss") { e.kind = .dataLoss }
    else if equals(k, "expire") { e.kind = .expire }
    else if equals(k, "memory") { e.kind = .memory }
    else if equals(k, "action") { e.kind = .action }
    else if equals(k, "log") { e.kind = .log }
    else if equals(k, "warning") { e.kind = .warning }
    else if equals(k, "snapshot") { e.kind = .snapshot }
    else { e.kind = .other }
    if let callback, e.kind == .callback {
      let receiver = vc ?? view ?? (callback.hasPrefix("scene") ? "SceneDelegate" : "AppDelegate")
      e.name = "-[\(receiver) \(callback)]"
    } else {
      e.name = notification ?? action ?? callback
    }
    return e
  }
}
