import Foundation
import Testing
@testable import LifeSimEngine

/// A streamed trace writes, record by record, the bytes the whole-trace writer
/// writes at the end; without kept records its memory does not grow.
struct TraceStreamTests {
  /// A day of a user on a small device, traced: launches, kills, memory levels.
  static func day(stream: TraceStream? = nil, keep: Bool = true) throws -> Device {
    let dev = Device(profile: try OSProfile(version: 17), seed: 7, memoryMB: 1000)
    if let stream { dev.stream(to: stream, keepingRecords: keep) }
    var apps: [AppID] = []
    for k in 1...8 {
      apps.append(try dev.install(AppConfig(bundle: "com.example.\(k)", footprintMB: Double(80 + 40 * k))))
    }
    var user = UserModel(apps: apps)
    user.sessionMean = .seconds(900)
    try dev.drive(user, for: .seconds(86_400))
    dev.finishStream()
    return dev
  }

  @Test(arguments: [TraceFormat.text, .jsonl])
  func streamedBytesEqualTheWholeTrace(format: TraceFormat) throws {
    let whole = TraceWriter(format: format).render(try Self.day().trace)
    var chunks: [String] = []
    let stream = TraceStream(formatter: TraceWriter(format: format), chunkSize: 4096) {
      chunks.append(String(decoding: $0, as: UTF8.self))
    }
    let streamed = try Self.day(stream: stream, keep: false)
    #expect(chunks.count > 1, "a day's trace should take several chunks")
    #expect(chunks.joined() == whole)
    #expect(streamed.trace.records.isEmpty)
    #expect(streamed.trace.count == whole.split(separator: "\n").count)
    #expect(streamed.mark() == streamed.trace.count + 1)
  }

  @Test func keptRecordsAndAStreamAgree() throws {
    var text = ""
    let stream = TraceStream(formatter: TraceWriter(format: .jsonl)) { text += String(decoding: $0, as: UTF8.self) }
    let dev = try Self.day(stream: stream, keep: true)
    #expect(text == TraceWriter(format: .jsonl).render(dev.trace))
    #expect(dev.trace.records.count == dev.trace.count)
  }

  /// A handler that works (ctx:work) gives its callback's record a duration,
  /// also in a streamed trace, where records wait until the handler returns.
  @Test func aWorkingHandlerGivesItsRecordADuration() throws {
    func run(stream: Bool) throws -> (Device, String) {
      let dev = Device(profile: try OSProfile(version: 12), seed: 1)
      var text = ""
      if stream {
        dev.stream(to: TraceStream(formatter: TraceWriter(format: .jsonl), chunkSize: 0) {
          text += String(decoding: $0, as: UTF8.self)
        }, keepingRecords: true)
      }
      let app = try dev.install(AppConfig(bundle: "a"))
      let host = RecordingHost()
      host.onHandle = { d, device in
        if d.callback == .didBecomeActive { try device.work(.seconds(2)) }
      }
      dev.host = host
      defer { dev.host = nil }
      dev.setHandled(.didBecomeActive, for: app)
      dev.setHandled(.didFinishLaunching, for: app)
      try dev.launch(app)
      dev.finishStream()
      return (dev, text)
    }
    let (kept, _) = try run(stream: false)
    let active = try #require(kept.trace.records.first { $0.callback == .didBecomeActive })
    #expect(active.duration == .seconds(2))
    #expect(kept.trace.records.first { $0.callback == .didFinishLaunching }?.duration == nil)
    let (streamed, text) = try run(stream: true)
    #expect(text == TraceWriter(format: .jsonl).render(streamed.trace))
    #expect(text.contains(#""callback":"applicationDidBecomeActive:","handled":true,"duration":2.000000"#))
  }

  /// A format with a document around its records gets its header and footer,
  /// also when there are no records.
  @Test func headerAndFooterFrameTheRecords() throws {
    struct Bracketed: TraceFormatter {
      func header(for trace: Trace, into out: inout [UInt8]) { out.append(literal: "[") }
      func record(_ r: TraceRecord, in trace: Trace, into out: inout [UInt8]) {
        out.append(decimal: r.seq)
        out.append(literal: ",")
      }
      func footer(for trace: Trace, into out: inout [UInt8]) { out.append(literal: "]") }
    }
    var text = ""
    let dev = Device(profile: try OSProfile(version: 12), seed: 1)
    dev.stream(to: TraceStream(formatter: Bracketed()) { text += String(decoding: $0, as: UTF8.self) }, keepingRecords: false)
    dev.finishStream()
    #expect(text == "[]")
    text = ""
    let busy = Device(profile: try OSProfile(version: 12), seed: 1)
    busy.stream(to: TraceStream(formatter: Bracketed()) { text += String(decoding: $0, as: UTF8.self) }, keepingRecords: false)
    let app = try busy.install(AppConfig(bundle: "a"))
    try busy.launch(app)
    busy.finishStream()
    #expect(text.hasPrefix("[1,2,"))
    #expect(text.hasSuffix(",]"))
  }

  @Test func bytesAreAppendedAsTheStringFormsWouldBe() {
    for n in [0, 7, 10, 99, 1234567, -5, Int.max, Int.min + 1] {
      var out: [UInt8] = []
      out.append(decimal: n)
      #expect(String(decoding: out, as: UTF8.self) == String(n))
    }
    for s in ["plain", "quote\"d", "back\\slash", "new\nline", "tab\t", "bell\u{07}", "é ü 漢"] {
      var bytes: [UInt8] = []
      bytes.append(jsonString: s)
      // Whatever the escapes, JSON reads back the same string.
      let decoded = try? JSONDecoder().decode(String.self, from: Data(bytes))
      #expect(decoded == s, "\(s)")
    }
    for t in [SimTime.zero, SimTime(microseconds: 1), SimTime(seconds: 86_400.5)!, SimTime(microseconds: -2_500_000)] {
      var out: [UInt8] = []
      t.append(to: &out)
      #expect(String(decoding: out, as: UTF8.self) == t.description)
    }
  }
}
