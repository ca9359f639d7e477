/// The trace formats of SPEC §3.
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
  public private(set) var count = 0
  public init() {}
  func next() -> Int {
    count += 1
    return count
  }
}

/// Formats trace records as text lines or JSON lines (SPEC §3, docs/trace.md).
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
    line(r, in: trace, into: &out)
    out.append(0x0A)
  }

  /// Appends one record, without a newline.
  public func line(_ r: TraceRecord, in trace: Trace, into out: inout [UInt8]) {
    switch format {
    case .text: text(r, trace, &out)
    case .jsonl: json(r, trace, &out)
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
      out.append(text: trace.name(of: app))
    }
    switch r.kind {
    case .callback:
      guard let c = r.callback else { break }
      let name = names == .objc ? c.selector : c.swiftName
      let receiver = r.object.map(trace.className(of:)) ?? c.receiver.className
      if names == .objc {
        out.append(literal: " -[")
        out.append(text: receiver)
        out.append(0x20)
        out.append(text: name)
        out.append(0x5D)
      } else {
        out.append(0x20)
        out.append(text: receiver)
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
      out.append(text: d)
    }
  }

  // MARK: - jsonl

  private func json(_ r: TraceRecord, _ trace: Trace, _ out: inout [UInt8]) {
    out.append(0x7B)  // {
    if let device {
      out.append(literal: "\"device\":")
      out.append(decimal: device)
      out.append(0x2C)
    }
    out.append(literal: "\"t\":")
    r.time.append(to: &out)
    out.append(literal: ",\"seq\":")
    let seq = fileSequence?.next() ?? r.seq
    out.append(decimal: seq)
    if seq != r.seq {
      out.append(literal: ",\"device_seq\":")
      out.append(decimal: r.seq)
    }
    out.append(literal: ",\"kind\":\"")
    out.append(text: r.kind.description)
    out.append(0x22)
    if let app = r.app {
      out.append(literal: ",\"app\":")
      out.append(jsonString: trace.name(of: app))
    }
    if let s = r.scene {
      out.append(literal: ",\"scene\":")
      out.append(decimal: Int(s))
    }
    if let o = r.object {
      if o.isView { out.append(literal: ",\"view\":") } else { out.append(literal: ",\"vc\":") }
      out.append(jsonString: trace.className(of: o))
      out.append(literal: ",\"instance\":")
      out.append(decimal: Int(o.instance))
    }
    // Selectors, notification names and the other enumerations need no escape.
    if let c = r.callback { field(",\"callback\":\"", c.selector, &out) }
    if let n = r.notification {
      // `callback` is the name's old place, kept for readers of format 1.
      field(",\"callback\":\"", n.name, &out)
      field(",\"notification\":\"", n.name, &out)
    }
    if let h = r.handled {
      if h { out.append(literal: ",\"handled\":true") } else { out.append(literal: ",\"handled\":false") }
    }
    if let d = r.duration {
      out.append(literal: ",\"duration\":")
      d.append(to: &out)
    }
    if let f = r.fromName { field(",\"from\":\"", f, &out) }
    if let t = r.toName { field(",\"to\":\"", t, &out) }
    if let a = r.action { field(",\"action\":\"", a.description, &out) }
    if let reason = r.reason { field(",\"reason\":\"", reason.description, &out) }
    if let code = r.code {
      out.append(literal: ",\"code\":\"")
      hex(code, &out)
      out.append(0x22)
    }
    if r.kind == .kill, r.reason == .watchdog, let d = r.detail {
      out.append(literal: ",\"watchdog\":")
      out.append(jsonString: d)
    }
    if let level = r.memoryLevel { field(",\"level\":\"", level.description, &out) }
    number(",\"used_mb\":", r.usedMB, &out)
    number(",\"limit_mb\":", r.limitMB, &out)
    number(",\"warning_mb\":", r.warningMB, &out)
    number(",\"jetsam_mb\":", r.jetsamMB, &out)
    if let n = r.unsaved {
      out.append(literal: ",\"unsaved\":")
      out.append(decimal: Int(n))
    }
    if r.kind == .expire {
      if let name = r.detail {
        out.append(literal: ",\"task\":")
        out.append(jsonString: name)
      }
      if let id = r.task {
        out.append(literal: ",\"task_id\":")
        out.append(decimal: Int(id))
      }
      if let deadline = r.deadline {
        out.append(literal: ",\"deadline\":")
        deadline.append(to: &out)
      }
    }
    if let url = r.url ?? (r.action == .openURL ? r.detail : nil) {
      out.append(literal: ",\"url\":")
      out.append(jsonString: url)
    }
    if let d = r.detail {
      out.append(literal: ",\"detail\":")
      out.append(jsonString: d)
    }
    out.append(0x7D)  // }
  }

  /// `key` (which opens the quotes), then `value`, then the closing quote.
  private func field(_ key: StaticString, _ value: String, _ out: inout [UInt8]) {
    out.append(literal: key)
    out.append(text: value)
    out.append(0x22)
  }

  /// `key` (with its colon), then the number, when there is one.
  private func number(_ key: StaticString, _ value: Double?, _ out: inout [UInt8]) {
    guard let value else { return }
    out.append(literal: key)
    out.append(number: value)
  }

  /// "0x" and eight lowercase hex digits.
  private func hex(_ code: UInt32, _ out: inout [UInt8]) {
    let digits: StaticString = "0123456789abcdef"
    out.append(literal: "0x")
    digits.withUTF8Buffer { d in
      for shift in stride(from: 28, through: 0, by: -4) { out.append(d[Int((code >> UInt32(shift)) & 0xF)]) }
    }
  }
}

/// `s` as XML text or a double-quoted attribute value: `&`, `<`, `>` and `"`
/// escaped, and the control characters XML 1.0 cannot hold (all below U+0020
/// but tab, newline and return) replaced by U+FFFD. For the SVG pictures, the
/// plots and the JUnit report.
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
    default: out.unicodeScalars.append(u.value < 0x20 ? "\u{FFFD}" : u)
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
