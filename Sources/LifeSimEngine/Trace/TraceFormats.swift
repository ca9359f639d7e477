/// The trace formats, one row each: what `run --format`, a script's trace
/// query and the streamed trace read. A new format is its row and its writer.
public struct TraceFormatRow: Sendable, CustomStringConvertible {
  /// The name users give (`--format chrome`).
  public let name: String
  /// The file extensions it is written with, the usual one first.
  public let extensions: [String]
  /// What it is, where its name does not say (for help texts), or nil.
  public let note: String?
  /// Whether it can be written record by record, as the run makes them.
  public let streams: Bool
  /// Whether a script can ask for its trace in it, as one string.
  public let queryable: Bool
  /// Whether a line of text (what `print` writes) may go among its records
  /// without breaking the file.
  public let takesText: Bool
  /// A writer of one output file, in the selector style asked for.
  public let file: @Sendable (NameStyle) -> TraceFile

  public var description: String { name }

  /// Every format, in the order help texts list them.
  public static let all: [TraceFormatRow] = [
    TraceFormatRow(name: "text", extensions: ["txt"], note: nil, streams: true, queryable: true, takesText: true) {
      LineFile(format: .text, names: $0)
    },
    TraceFormatRow(name: "jsonl", extensions: ["jsonl"], note: nil, streams: true, queryable: true, takesText: false) {
      LineFile(format: .jsonl, names: $0)
    },
    TraceFormatRow(name: "chrome", extensions: ["json"], note: "Trace Event Format JSON for Perfetto and chrome://tracing",
                   streams: true, queryable: true, takesText: false) { _ in ChromeFile() },
  ]

  /// The format of that name.
  public static func named(_ name: String) -> TraceFormatRow? { all.first { $0.name == name } }

  /// "text, jsonl or chrome": the names of `rows`, for messages.
  public static func list(_ rows: [TraceFormatRow], or: String = " or ") -> String {
    let names = rows.map(\.name)
    guard names.count > 1 else { return names.first ?? "" }
    return names.dropLast().joined(separator: ", ") + or + names.last!
  }

  /// The records of `trace` from `since` as one file of this format, alone in it.
  public func render(_ trace: Trace, since: Int = 1, names: NameStyle = .objc) -> String {
    let writer = file(names)
    var out: [UInt8] = []
    writer.opening(into: &out)
    let f = writer.formatter(for: nil, number: 1, count: 1)
    f.header(for: trace, into: &out)
    for r in trace.records where r.seq >= since { f.record(r, in: trace, into: &out) }
    f.footer(for: trace, into: &out)
    writer.closing(into: &out)
    return String(decoding: out, as: UTF8.self)
  }
}

/// One output file of a format, holding the records of one device or more:
/// what opens it, a formatter per device, and what closes it.
public protocol TraceFile: AnyObject, Sendable {
  /// What comes before the first device's records.
  func opening(into out: inout [UInt8])
  /// The formatter of device `number` (from 1) of the `count` the file holds;
  /// `count` is nil when the records are streamed (the devices are not known
  /// yet). `device`, when given, is the one whose records these are.
  func formatter(for device: Device?, number: Int, count: Int?) -> TraceFormatter
  /// What comes after the last device's records.
  func closing(into out: inout [UInt8])
}

extension TraceFile {
  public func opening(into out: inout [UInt8]) {}
  public func closing(into out: inout [UInt8]) {}
}

/// A file of text or JSON lines. With several devices, `seq` counts the
/// file's records and each record names its device: in JSONL as `device`;
/// in text by a `# device` line before each device's records, or, streamed,
/// `[device N]` before each record of a second device onwards.
final class LineFile: TraceFile {
  let format: TraceFormat
  let names: NameStyle
  let sequence = FileSequence()

  init(format: TraceFormat, names: NameStyle) {
    self.format = format
    self.names = names
  }

  func formatter(for device: Device?, number: Int, count: Int?) -> TraceFormatter {
    let writer = TraceWriter(format: format, names: names)
    guard let count else { return DeviceTagged(base: writer, number: number, sequence: sequence) }
    guard count > 1 else { return writer }
    var many = writer
    many.device = number
    many.fileSequence = sequence
    guard format == .text, let device else { return many }
    return Preceded(base: many, line: "# device \(number): iOS \(device.profile.version), seed \(device.seed)\n")
  }
}

/// A device's records after a line of its own.
struct Preceded: TraceFormatter {
  var base: TraceWriter
  var line: String

  func header(for trace: Trace, into out: inout [UInt8]) {
    out.append(text: line)
    base.header(for: trace, into: &out)
  }

  func record(_ r: TraceRecord, in trace: Trace, into out: inout [UInt8]) { base.record(r, in: trace, into: &out) }
}

/// The records of a second device onwards, tagged with its number:
/// `[device 2] [t=…] …` in text, `{"device":2,…}` in JSONL, where `seq`
/// counts the file's records and `device_seq` keeps the device's own when they
/// differ. The first device's records carry no number (it is made before any
/// other), so a run with one device writes what it writes without streaming.
struct DeviceTagged: TraceFormatter {
  var base: TraceWriter
  var number: Int

  init(base: TraceWriter, number: Int, sequence: FileSequence) {
    self.base = base
    self.number = number
    self.base.fileSequence = sequence
    if number > 1 && base.format == .jsonl { self.base.device = number }
  }

  func record(_ r: TraceRecord, in trace: Trace, into out: inout [UInt8]) {
    if number > 1 && base.format == .text {
      out.append(literal: "[device ")
      out.append(decimal: number)
      out.append(literal: "] ")
    }
    base.record(r, in: trace, into: &out)
  }
}

/// A Trace Event Format document: every device's events in one JSON array.
final class ChromeFile: TraceFile {
  let document = ChromeDocument()

  func opening(into out: inout [UInt8]) { document.header(into: &out) }

  func formatter(for device: Device?, number: Int, count: Int?) -> TraceFormatter {
    ChromeTraceWriter(document: document, device: number)
  }

  func closing(into out: inout [UInt8]) { document.footer(into: &out) }
}
