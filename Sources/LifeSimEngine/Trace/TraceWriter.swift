/// The trace formats of SPEC §3.
public enum TraceFormat: String, CaseIterable, Sendable {
  case text, jsonl
}

/// How selectors are spelled in the text format (`--names`).
public enum NameStyle: String, CaseIterable, Sendable {
  case objc, swift
}

/// Formats a trace, record by record: what a `TraceStream` writes with, and what
/// text, JSONL and later formats implement. A format with a document around its
/// records (a JSON array, Perfetto's protobuf) writes it in the header and footer.
public protocol TraceFormatter: Sendable {
  /// What comes before the first record.
  func header(for trace: Trace, into out: inout String)
  /// One record, with its line ending if the format has lines.
  func record(_ r: TraceRecord, in trace: Trace, into out: inout String)
  /// What comes after the last record.
  func footer(for trace: Trace, into out: inout String)
}

extension TraceFormatter {
  public func header(for trace: Trace, into out: inout String) {}
  public func footer(for trace: Trace, into out: inout String) {}
}

/// Formats trace records as text lines or JSON lines.
public struct TraceWriter: TraceFormatter {
  public var format: TraceFormat
  public var names: NameStyle

  public init(format: TraceFormat, names: NameStyle = .objc) {
    self.format = format
    self.names = names
  }

  /// Writes every record of `trace` from `since` into one string, a line each.
  public func render(_ trace: Trace, since: Int = 1) -> String {
    var out = ""
    for r in trace.records where r.seq >= since {
      record(r, in: trace, into: &out)
    }
    return out
  }

  /// One record and its newline.
  public func record(_ r: TraceRecord, in trace: Trace, into out: inout String) {
    line(r, in: trace, into: &out)
    out.append("\n")
  }

  /// Appends one record, without a newline.
  public func line(_ r: TraceRecord, in trace: Trace, into out: inout String) {
    switch format {
    case .text: text(r, trace, &out)
    case .jsonl: json(r, trace, &out)
    }
  }

  // MARK: - text

  private func text(_ r: TraceRecord, _ trace: Trace, _ out: inout String) {
    out.append("[t=")
    r.time.append(to: &out)
    out.append("]")
    if let app = r.app { out += " " + trace.name(of: app) }
    switch r.kind {
    case .callback:
      guard let c = r.callback else { break }
      let name = names == .objc ? c.selector : c.swiftName
      let receiver = r.object.map(trace.className(of:)) ?? c.receiver.className
      out += names == .objc ? " -[\(receiver) \(name)]" : " \(receiver).\(name)"
      // A second object of a class, and a second window, are named.
      if let o = r.object, o.instance > 1 { out += " #\(o.instance)" }
      if let scene = r.scene, scene > 1 { out += " scene \(scene)" }
    case .notification:
      out += " notification " + (r.notification?.name ?? "?")
    case .state:
      if let scene = r.scene { out += " scene \(scene)" }
      out += " state \(r.fromName ?? "?") -> \(r.toName ?? "?")"
    case .action:
      out += " action " + (r.action?.description ?? "?")
    case .kill, .dataLoss:
      out += " " + r.kind.description
      if let reason = r.reason { out += " reason=\(reason)" }
      if let code = r.code { out += " code=" + hex(code) }
    default:
      out += " " + r.kind.description
    }
    if let d = r.detail { out += " " + d }
  }

  // MARK: - jsonl

  private func json(_ r: TraceRecord, _ trace: Trace, _ out: inout String) {
    out.append("{\"t\":")
    r.time.append(to: &out)
    out.append(",\"seq\":")
    out.append(String(r.seq))
    out.append(",\"kind\":\"")
    out.append(r.kind.description)
    out.append("\"")
    if let app = r.app { out += ",\"app\":"; jsonString(trace.name(of: app), &out) }
    if let s = r.scene { out += ",\"scene\":\(s)" }
    if let o = r.object {
      out += o.isView ? ",\"view\":" : ",\"vc\":"
      jsonString(trace.className(of: o), &out)
      out += ",\"instance\":\(o.instance)"
    }
    if let c = r.callback { out += ",\"callback\":\"\(c.selector)\"" }
    if let n = r.notification { out += ",\"callback\":\"\(n.name)\"" }
    if let h = r.handled { out += ",\"handled\":\(h)" }
    if let f = r.fromName { out += ",\"from\":\"\(f)\"" }
    if let t = r.toName { out += ",\"to\":\"\(t)\"" }
    if let a = r.action { out += ",\"action\":\"\(a)\"" }
    if let reason = r.reason { out += ",\"reason\":\"\(reason)\"" }
    if let code = r.code { out += ",\"code\":\"\(hex(code))\"" }
    if let d = r.detail { out += ",\"detail\":"; jsonString(d, &out) }
    out += "}"
  }

  private func hex(_ code: UInt32) -> String {
    let digits = String(code, radix: 16)
    return "0x" + String(repeating: "0", count: max(0, 8 - digits.count)) + digits
  }
}

/// Appends `s` as a JSON string literal.
public func jsonString(_ s: String, _ out: inout String) {
  // Most strings (bundle ids, class names) need no escape: append them whole.
  if !s.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) {
    out.append("\"")
    out.append(s)
    out.append("\"")
    return
  }
  out.append("\"")
  for u in s.unicodeScalars {
    switch u {
    case "\"": out += "\\\""
    case "\\": out += "\\\\"
    case "\n": out += "\\n"
    case "\r": out += "\\r"
    case "\t": out += "\\t"
    case _ where u.value < 0x20:
      let h = String(u.value, radix: 16)
      out += "\\u" + String(repeating: "0", count: 4 - h.count) + h
    default: out.unicodeScalars.append(u)
    }
  }
  out.append("\"")
}
