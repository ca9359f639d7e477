/// The trace formats (docs/trace.md).
public enum TraceFormat: String, CaseIterable, Sendable {
  case text, jsonl
}

/// How selectors are spelled in the text format (`--names`).
public enum NameStyle: String, CaseIterable, Sendable {
  case objc, swift
}

/// Formats a trace, record by record, into bytes: what a `TraceStream` writes
/// with, and what text, JSONL and later formats implement. A format with a
/// document around its records (a JSON array, Perfetto's protobuf) writes it
/// in the header and footer.
public protocol TraceFormatter: Sendable {
  /// What comes before the first record.
  func header(for trace: Trace, into out: inout [UInt8])
  /// One record, with its line ending if the format has lines.
  func record(_ r: TraceRecord, in trace: Trace, into out: inout [UInt8])
  /// What comes after the last record.
  func footer(for trace: Trace, into out: inout [UInt8])
}

extension TraceFormatter {
  public func header(for trace: Trace, into out: inout [UInt8]) {}
  public func footer(for trace: Trace, into out: inout [UInt8]) {}
}

/// The running count of the records in one output file, shared by the
/// writers of the devices whose records go there: `seq` is unique within the
/// file (docs/trace.md).
public final class FileSequence: @unchecked Sendable {
  // One thread writes a file: `lifesim run` runs its devices on one.
  @exclusivity(unchecked) public private(set) var count = 0
  public init() {}
  func next() -> Int {
    count += 1
    return count
  }
}

/// Formats trace records as text lines or JSON lines (docs/trace.md).
public struct TraceWriter: TraceFormatter {
  public var format: TraceFormat
  public var names: NameStyle
  /// In a file with the records of several devices: the device's number,
  /// written as the record's `device` (JSONL).
  public var device: Int?
  /// The file's record count, when several devices write to it: `seq` then
  /// numbers records within the file and `device_seq` keeps the device's own
  /// (what `since` takes), where the two differ (JSONL).
  public var fileSequence: FileSequence?
  private let fragments = JSONFragments.shared

  public init(format: TraceFormat, names: NameStyle = .objc, device: Int? = nil,
              fileSequence: FileSequence? = nil) {
    self.format = format
    self.names = names
    self.device = device
    self.fileSequence = fileSequence
  }

  /// Writes every record of `trace` from `since` into one string, a line each.
  public func render(_ trace: Trace, since: Int = 1) -> String {
    var out: [UInt8] = []
    for r in trace.records where r.seq >= since {
      record(r, in: trace, into: &out)
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// One record and its newline.
  public func record(_ r: TraceRecord, in trace: Trace, into out: inout [UInt8]) {
    switch format {
    case .text:
      text(r, trace, &out)
      out.append(0x0A)
    case .jsonl: json(r, trace, &out, newline: true)
    }
  }

  /// Appends one record, without a newline.
  public func line(_ r: TraceRecord, in trace: Trace, into out: inout [UInt8]) {
    switch format {
    case .text: text(r, trace, &out)
    case .jsonl: json(r, trace, &out, newline: false)
    }
  }

  /// Appends one record to a string, without a newline (the REPL, `compare`).
  public func line(_ r: TraceRecord, in trace: Trace, into out: inout String) {
    var bytes: [UInt8] = []
    line(r, in: trace, into: &bytes)
    out += String(decoding: bytes, as: UTF8.self)
  }

  // MARK: - text

  private func text(_ r: TraceRecord, _ trace: Trace, _ out: inout [UInt8]) {
    out.append(literal: "[t=")
    r.time.append(to: &out)
    out.append(0x5D)  // ]
    if let app = r.app {
      out.append(0x20)
      out.append(line: trace.name(of: app))
    }
    switch r.kind {
    case .callback:
      guard let c = r.callback else { break }
      let name = names == .objc ? c.selector : c.swiftName
      let receiver = r.object.map(trace.className(of:)) ?? c.receiver.className
      if names == .objc {
        out.append(literal: " -[")
        out.append(line: receiver)
        out.append(0x20)
        out.append(text: name)
        out.append(0x5D)
      } else {
        out.append(0x20)
        out.append(line: receiver)
        out.append(0x2E)
        out.append(text: name)
      }
      // A second object of a class, and a second window, are named.
      if let o = r.object, o.instance > 1 {
        out.append(literal: " #")
        out.append(decimal: Int(o.instance))
      }
      if let scene = r.scene, scene > 1 {
        out.append(literal: " scene ")
        out.append(decimal: Int(scene))
      }
    case .notification:
      out.append(literal: " notification ")
      out.append(text: r.notification?.name ?? "?")
    case .state:
      if let scene = r.scene {
        out.append(literal: " scene ")
        out.append(decimal: Int(scene))
      }
      out.append(literal: " state ")
      out.append(text: r.fromName ?? "?")
      out.append(literal: " -> ")
      out.append(text: r.toName ?? "?")
    case .action:
      out.append(literal: " action ")
      out.append(text: r.action?.description ?? "?")
    case .kill, .dataLoss:
      out.append(0x20)
      out.append(text: r.kind.description)
      if let reason = r.reason {
        out.append(literal: " reason=")
        out.append(text: reason.description)
      }
      if let code = r.code {
        out.append(literal: " code=")
        hex(code, &out)
      }
    default:
      out.append(0x20)
      out.append(text: r.kind.description)
    }
    if let d = r.detail {
      out.append(0x20)
      out.append(line: d)
    }
  }

  // MARK: - jsonl

  private func json(_ r: TraceRecord, _ trace: Trace, _ out: inout [UInt8], newline: Bool) {
    // As `[UInt8].write(atMost:)` does, spelled out: a closure that captures
    // the record makes the compiler copy it and its strings (60 % more
    // instructions a record). On the stack for the usual record (1 KB or less).
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: jsonBound(r, trace)) { room in
      let start = room.baseAddress!
      var c = ByteCursor(start, end: start + room.count)
      json(r, trace, &c, newline: newline)
      out.append(contentsOf: UnsafeBufferPointer(start: start, count: c.p - start))
    }
  }

  /// At most how many bytes `json` writes for `r`: every key and number at its
  /// longest (about 550 bytes), the fixed names it has, and 6 bytes a byte of
  /// each string (escapes), the detail counted three times (it may be written
  /// as `watchdog`, as `task`, as `url` and as itself, though no record the
  /// engine makes has more than two of these).
  private func jsonBound(_ r: TraceRecord, _ trace: Trace) -> Int {
    let f = fragments
    var names = f.fragment(.kind, r.kind.rawValue).count
    if let x = r.callback { names += f.fragment(.callback, x.rawValue).count }
    if let x = r.notification { names += f.fragment(.notification, x.rawValue).count }
    if let x = r.from { names += f.fragment(.appFrom, x.rawValue).count }
    if let x = r.sceneFrom { names += f.fragment(.sceneFrom, x.rawValue).count }
    if let x = r.to { names += f.fragment(.appTo, x.rawValue).count }
    if let x = r.sceneTo { names += f.fragment(.sceneTo, x.rawValue).count }
    if let x = r.action { names += f.fragment(.action, x.rawValue).count }
    if let x = r.reason { names += f.fragment(.reason, x.rawValue).count }
    var strings = 0
    if let app = r.app { strings += trace.name(of: app).utf8.count }
    if let o = r.object { strings += trace.className(of: o).utf8.count }
    if let d = r.detail { strings += 3 * d.utf8.count }
    if let rare = r.rareFields {
      if let x = rare.memoryLevel { names += f.fragment(.level, x.rawValue).count }
      if let u = rare.url { strings += u.utf8.count }
    }
    return 640 + names + 6 * strings
  }

  private func json(_ r: TraceRecord, _ trace: Trace, _ c: inout ByteCursor, newline: Bool) {
    let f = fragments
    let rare = r.rareFields
    c.byte(0x7B)  // {
    if let device {
      c.literal("\"device\":")
      c.decimal(Int64(device))
      c.byte(0x2C)
    }
    c.literal("\"t\":")
    c.time(r.time)
    c.literal(",\"seq\":")
    let seq = fileSequence?.next() ?? r.seq
    c.decimal(Int64(seq))
    if seq != r.seq {
      c.literal(",\"device_seq\":")
      c.decimal(Int64(r.seq))
    }
    c.bytes(f.fragment(.kind, r.kind.rawValue))
    if let app = r.app {
      c.literal(",\"app\":")
      c.jsonString(trace.name(of: app))
    }
    if let s = r.scene {
      c.literal(",\"scene\":")
      c.decimal(Int64(s))
    }
    if let o = r.object {
      if o.isView { c.literal(",\"view\":") } else { c.literal(",\"vc\":") }
      c.jsonString(trace.className(of: o))
      c.literal(",\"instance\":")
      c.decimal(Int64(o.instance))
    }
    if let x = r.callback { c.bytes(f.fragment(.callback, x.rawValue)) }
    if let x = r.notification { c.bytes(f.fragment(.notification, x.rawValue)) }
    if let h = r.handled {
      if h { c.literal(",\"handled\":true") } else { c.literal(",\"handled\":false") }
    }
    if let d = rare?.duration {
      c.literal(",\"duration\":")
      c.time(d)
    }
    if let x = r.from { c.bytes(f.fragment(.appFrom, x.rawValue)) }
    if let x = r.sceneFrom, r.from == nil { c.bytes(f.fragment(.sceneFrom, x.rawValue)) }
    if let x = r.to { c.bytes(f.fragment(.appTo, x.rawValue)) }
    if let x = r.sceneTo, r.to == nil { c.bytes(f.fragment(.sceneTo, x.rawValue)) }
    if let x = r.action { c.bytes(f.fragment(.action, x.rawValue)) }
    if let x = r.reason { c.bytes(f.fragment(.reason, x.rawValue)) }
    if let code = r.code {
      c.literal(",\"code\":\"0x")
      let digits: StaticString = "0123456789abcdef"
      var shift: UInt32 = 32
      while shift > 0 {
        shift -= 4
        c.byte(digits.utf8Start[Int((code >> shift) & 0xF)])
      }
      c.byte(0x22)
    }
    if r.kind == .kill, r.reason == .watchdog, let detail = r.detail {
      c.literal(",\"watchdog\":")
      c.jsonString(detail)
    }
    if let x = rare?.memoryLevel { c.bytes(f.fragment(.level, x.rawValue)) }
    c.number(",\"used_mb\":", r.usedMB)
    c.number(",\"limit_mb\":", rare?.limitMB)
    c.number(",\"warning_mb\":", rare?.warningMB)
    c.number(",\"jetsam_mb\":", rare?.jetsamMB)
    if let n = rare?.unsaved {
      c.literal(",\"unsaved\":")
      c.decimal(Int64(n))
    }
    if r.kind == .expire {
      if let detail = r.detail {
        c.literal(",\"task\":")
        c.jsonString(detail)
      }
      if let id = rare?.task {
        c.literal(",\"task_id\":")
        c.decimal(Int64(id))
      }
      if let deadline = rare?.deadline {
        c.literal(",\"deadline\":")
        c.time(deadline)
      }
    }
    if let url = rare?.url ?? (r.action == .openURL ? r.detail : nil) {
      c.literal(",\"url\":")
      c.jsonString(url)
    }
    if let detail = r.detail {
      c.literal(",\"detail\":")
      c.jsonString(detail)
    }
    c.byte(0x7D)  // }
    if newline { c.byte(0x0A) }
  }

  /// "0x" and eight lowercase hex digits.
  private func hex(_ code: UInt32, _ out: inout [UInt8]) {
    let digits: StaticString = "0123456789abcdef"
    out.append(literal: "0x")
    var shift: UInt32 = 32
    while shift > 0 {
      shift -= 4
      out.append(digits.utf8Start[Int((code >> shift) & 0xF)])
    }
  }
}

/// `s` as XML text or a double-quoted attribute value: `&`, `<`, `>` and `"`
/// escaped, and the control characters XML 1.0 cannot hold (all below U+0020
/// but tab, newline and return, and U+FFFE and U+FFFF) replaced by U+FFFD.
/// For the SVG pictures, the plots and the JUnit report.
public func xmlEscaped(_ s: String) -> String {
  var out = ""
  out.reserveCapacity(s.utf8.count)
  for u in s.unicodeScalars {
    switch u {
    case "&": out += "&amp;"
    case "<": out += "&lt;"
    case ">": out += "&gt;"
    case "\"": out += "&quot;"
    case "\n", "\t", "\r": out.unicodeScalars.append(u)
    // A Swift string holds no lone surrogate, the last thing XML 1.0 forbids.
    default: out.unicodeScalars.append(u.value < 0x20 || u.value == 0xFFFE || u.value == 0xFFFF ? "\u{FFFD}" : u)
    }
  }
  return out
}

/// Appends `s` as a JSON string literal.
public func jsonString(_ s: String, _ out: inout String) {
  var bytes: [UInt8] = []
  bytes.append(jsonString: s)
  out += String(decoding: bytes, as: UTF8.self)
}
