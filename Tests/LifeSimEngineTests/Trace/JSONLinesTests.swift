import Foundation
import Testing
@testable import LifeSimEngine

/// The JSONL writer formats a record through a pointer into room it sizes
/// first. These records reach its corners: every field at once,
/// strings that need escapes, a string too long for the room on the stack,
/// and numbers of every length; each line must parse back to its values.
struct JSONLinesTests {
  /// One record in a trace that names one app and one class.
  static func line(app: String = "com.example.a", className: String = "FeedViewController",
                   _ fill: (inout TraceRecord) -> Void) -> String {
    var trace = Trace()
    trace.appNames = [app]
    let cls = trace.classIndex(of: className)
    trace.append({ r in
      r.app = AppID(0)
      r.object = ObjectRef(isView: false, classIndex: cls, instance: 2)
      fill(&r)
    }, kind: .callback, at: SimTime(microseconds: 12_345_678))
    return TraceWriter(format: .jsonl).render(trace)
  }

  static func parse(_ line: String) throws -> [String: Any] {
    #expect(line.hasSuffix("\n") && line.filter { $0 == "\n" }.count == 1, "one line: \(line)")
    let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
    return try #require(object as? [String: Any])
  }

  @Test func aRecordWithEveryFieldParsesBackToItsValues() throws {
    let detail = "say \"hi\"\\ then\nnew line\ttab\u{01}\u{1F} and ünïcödé"
    let text = Self.line { r in
      r.scene = 3
      r.callback = .didFinishLaunching
      r.handled = true
      r.duration = SimTime(microseconds: 2_000_001)
      r.from = .background
      r.to = .inactive
      r.reason = .watchdog
      r.code = 0x8badf00d
      r.detail = detail
      r.usedMB = 1234.5
      r.limitMB = 2048
      r.warningMB = -0.25
      r.jetsamMB = 1e300
      r.memoryLevel = .critical
      r.unsaved = 7
      r.url = "myapp://open?q=\"x\""
    }
    let o = try Self.parse(text)
    #expect(o["t"] as? Double == 12.345678)
    #expect(text.hasPrefix("{\"t\":12.345678,\"seq\":1,\"kind\":\"callback\",\"app\":\"com.example.a\",\"scene\":3,"))
    #expect(o["vc"] as? String == "FeedViewController")
    #expect(o["instance"] as? Int == 2)
    #expect(o["callback"] as? String == "application:didFinishLaunchingWithOptions:")
    #expect(o["handled"] as? Bool == true)
    #expect(text.contains("\"duration\":2.000001,"))
    #expect(o["from"] as? String == "background")
    #expect(o["to"] as? String == "inactive")
    #expect(o["reason"] as? String == "watchdog")
    #expect(o["code"] as? String == "0x8badf00d")
    #expect(o["detail"] as? String == detail)
    #expect(text.contains("\\u0001") && text.contains("\\u001f") && text.contains("\\\"hi\\\"\\\\ then\\n"))
    #expect(o["level"] as? String == "critical")
    #expect(text.contains("\"used_mb\":1234.5,\"limit_mb\":2048,\"warning_mb\":-0.25,\"jetsam_mb\":1e+300,"))
    #expect(o["unsaved"] as? Int == 7)
    #expect(o["url"] as? String == "myapp://open?q=\"x\"")
  }

  /// A kill by the watchdog names its watchdog; an expiration its task; an
  /// open_url action without a URL of its own writes its detail as the URL.
  @Test func killExpirationAndOpenURLFields() throws {
    var trace = Trace()
    trace.appNames = ["a"]
    trace.append({ r in
      r.app = AppID(0)
      r.reason = .watchdog
      r.detail = "launch"
    }, kind: .kill, at: .zero)
    trace.append({ r in
      r.app = AppID(0)
      r.task = 4
      r.detail = "upload \"photos\"\r"
      r.deadline = SimTime(microseconds: -1_500_000)
    }, kind: .expire, at: .zero)
    trace.append({ r in
      r.app = AppID(0)
      r.action = .openURL
      r.detail = "myapp://item/7"
    }, kind: .action, at: .zero)
    trace.append({ r in
      r.app = AppID(0)
      r.callback = .didBecomeActive
      r.handled = false
    }, kind: .callback, at: .zero)
    let text = TraceWriter(format: .jsonl).render(trace)
    #expect(text.hasSuffix("}\n") && text.split(separator: "\n").count == 4)
    let lines = try text.split(separator: "\n").map { line -> [String: Any] in
      try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }
    #expect(lines[0]["watchdog"] as? String == "launch")
    #expect(lines[1]["task"] as? String == "upload \"photos\"\r")
    #expect(lines[1]["task_id"] as? Int == 4)
    #expect(text.contains(#""task":"upload \"photos\"\r","task_id":4,"deadline":-1.500000,"#))
    #expect(text.contains(#"{"t":0.000000,"seq":3,"kind":"action","app":"a","action":"open_url","url":"myapp://item/7","detail":"myapp://item/7"}"#))
    #expect(text.contains(#""callback":"applicationDidBecomeActive:","handled":false}"#))
  }

  /// A file of several devices: the device's number first, and `device_seq`
  /// where the file's count and the device's differ. `line` has no newline.
  @Test func deviceNumbersAndSequences() throws {
    var trace = Trace()
    trace.append({ $0.detail = "x" }, kind: .log, at: .zero)
    let sequence = FileSequence()
    _ = sequence.next()
    #expect(TraceWriter(format: .jsonl, device: 2, fileSequence: sequence).render(trace)
      == #"{"device":2,"t":0.000000,"seq":2,"device_seq":1,"kind":"log","detail":"x"}"# + "\n")
    #expect(TraceWriter(format: .jsonl, device: Int.min).render(trace)
      == #"{"device":-9223372036854775808,"t":0.000000,"seq":1,"kind":"log","detail":"x"}"# + "\n")
    var line = ""
    TraceWriter(format: .jsonl, device: Int.max).line(trace.records[0], in: trace, into: &line)
    #expect(line == #"{"device":9223372036854775807,"t":0.000000,"seq":1,"kind":"log","detail":"x"}"#)
  }

  /// Strings longer than the 1 KB the stack holds, full of escapes (each byte
  /// written as six), take the heap room; the line is the same either way.
  @Test func longStringsNeedingEscapes() throws {
    let app = String(repeating: "app.", count: 300)
    let cls = String(repeating: "V", count: 2_000)
    let detail = String(repeating: "\u{02}\"", count: 1_500)
    let text = Self.line(app: app, className: cls) { $0.detail = detail; $0.url = String(repeating: "\\", count: 900) }
    let o = try Self.parse(text)
    #expect(o["app"] as? String == app)
    #expect(o["vc"] as? String == cls)
    #expect(o["detail"] as? String == detail)
    #expect(o["url"] as? String == String(repeating: "\\", count: 900))
  }

  /// The eight-bytes-at-a-time test agrees with the byte-by-byte one: every
  /// byte value at every position, among fillers below 0x20, in ASCII and
  /// above 0x7F (UTF-8), and the borrows between them.
  @Test func theWordTestAgreesWithTheByteTest() {
    func escapes(_ b: UInt8) -> Bool { b < 0x20 || b == 0x22 || b == 0x5C }
    var disagreements = 0
    for filler: UInt8 in [0x00, 0x1F, 0x20, 0x21, 0x23, 0x41, 0x5B, 0x5D, 0x7F, 0x80, 0xA2, 0xDC, 0xFF] {
      for v in 0...255 {
        for position in 0..<8 {
          var bytes = [UInt8](repeating: filler, count: 8)
          bytes[position] = UInt8(v)
          let word = bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
          if ByteCursor.needsEscape(word) != bytes.contains(where: escapes) { disagreements += 1 }
        }
      }
    }
    #expect(disagreements == 0)
  }

  /// A byte that needs an escape, at each place in a string longer than two
  /// words (in the first word, across words, in the tail).
  @Test func anEscapeAtEveryPlace() throws {
    for position in 0..<20 {
      for special in ["\"", "\\", "\n", "\u{1F}"] {
        var chars = Array(repeating: "a", count: 20)
        chars[position] = special
        let app = chars.joined()
        #expect(try Self.parse(Self.line(app: app) { _ in })["app"] as? String == app)
      }
    }
  }

  /// Integers of every length and sign, and times around whole seconds.
  @Test(arguments: [Int64(0), 9, 10, 99, 100, 101, 999_999, 1_000_000, 1_234_567_890_123, Int64(Int32.max),
                    -1, -10, -999_999, -1_000_001, Int64(Int32.min), Int64.max, Int64.min])
  func numbersOfEveryLength(n: Int64) throws {
    let small = Int32(truncatingIfNeeded: n)
    let text = Self.line { r in
      r.scene = small
      r.unsaved = small
      r.duration = SimTime(microseconds: n)
      if abs(Double(n)) < 1e15 { r.usedMB = Double(n) }
    }
    let o = try Self.parse(text)
    #expect(o["scene"] as? Int == Int(small))
    #expect(text.contains(",\"scene\":\(small),"))
    #expect(text.contains(",\"unsaved\":\(small)}"))
    if abs(Double(n)) < 1e15 { #expect(text.contains(",\"used_mb\":\(n),")) }
    // Seconds, a point, six digits, worked out here rather than by the writer's own code.
    let m = n.magnitude, fraction = String(m % 1_000_000)
    let seconds = (n < 0 ? "-" : "") + "\(m / 1_000_000)." + String(repeating: "0", count: 6 - fraction.count) + fraction
    #expect(text.contains(",\"duration\":\(seconds),"))
  }

  @Test func timesAtTheEndsOfTheirRange() throws {
    var trace = Trace()
    trace.append({ _ in }, kind: .log, at: SimTime(microseconds: .max))
    trace.append({ _ in }, kind: .log, at: SimTime(microseconds: .min))
    trace.append({ _ in }, kind: .log, at: SimTime(microseconds: -1))
    #expect(TraceWriter(format: .jsonl).render(trace) == """
      {"t":9223372036854.775807,"seq":1,"kind":"log"}
      {"t":-9223372036854.775808,"seq":2,"kind":"log"}
      {"t":-0.000001,"seq":3,"kind":"log"}

      """)
  }

  /// The fixed names come from one table; each must match the enumeration's own name.
  @Test func fixedNamesMatchTheirEnumerations() throws {
    for kind in RecordKind.allCases {
      var trace = Trace()
      trace.append({ _ in }, kind: kind, at: .zero)
      #expect(TraceWriter(format: .jsonl).render(trace).contains("\"kind\":\"\(kind.description)\""))
    }
    for c in Callback.allCases {
      #expect(Self.line { $0.callback = c }.contains(",\"callback\":\"\(c.selector)\"}"))
    }
    for n in AppNotification.allCases {
      #expect(Self.line { $0.notification = n }.contains(",\"callback\":\"\(n.name)\",\"notification\":\"\(n.name)\""))
    }
    for s in SceneState.allCases {
      #expect(Self.line { $0.sceneFrom = s; $0.sceneTo = s }.contains(",\"from\":\"\(s)\",\"to\":\"\(s)\""))
    }
    for s in AppState.allCases {
      #expect(Self.line { $0.from = s; $0.to = s }.contains(",\"from\":\"\(s)\",\"to\":\"\(s)\""))
    }
    for l in MemoryLevel.allCases { #expect(Self.line { $0.memoryLevel = l }.contains(",\"level\":\"\(l)\"}")) }
    for a in DeviceAction.allCases { #expect(Self.line { $0.action = a }.contains(",\"action\":\"\(a)\"")) }
    for k in KillReason.allCases { #expect(Self.line { $0.reason = k }.contains(",\"reason\":\"\(k)\"")) }
  }
}
