import Foundation
import Testing

/// `lifesim timeline` reads every number of a JSONL trace through a checked
/// conversion: one out of range is refused with its line and field, and one
/// in range cannot overflow the drawing's arithmetic later.
struct TimelineNumberBoundsTests {
  private static let dir: URL = {
    let d = FileManager.default.temporaryDirectory.appendingPathComponent("lifesim-timeline-bounds-\(getpid())")
    try? FileManager.default.createDirectory(at: d, withIntermediateDirectories: true)
    return d
  }()

  private func timeline(_ name: String, _ lines: [String]) throws -> (Result, String) {
    let trace = Self.dir.appendingPathComponent("\(name).jsonl").path
    try (lines.joined(separator: "\n") + "\n").write(toFile: trace, atomically: true, encoding: .utf8)
    let svg = Self.dir.appendingPathComponent("\(name).svg").path
    unlink(svg)
    return (try lifesim(["timeline", trace, "-o", svg]), svg)
  }

  private static let launch = #"{"device":1,"t":0.000000,"seq":1,"kind":"state","app":"a","from":"notRunning","to":"active"}"#

  @Test(arguments: [
    ("t", #"{"device":1,"t":HUGE,"seq":2,"kind":"log","detail":"x"}"#),
    ("duration", #"{"device":1,"t":1.0,"seq":2,"kind":"callback","app":"a","callback":"x","duration":HUGE}"#),
    ("scene", #"{"device":1,"t":1.0,"seq":2,"kind":"state","app":"a","scene":HUGE,"to":"foregroundActive"}"#),
    ("device", #"{"device":HUGE,"t":1.0,"seq":2,"kind":"log","detail":"x"}"#),
    ("unsaved", #"{"device":1,"t":1.0,"seq":2,"kind":"data_loss","app":"a","unsaved":HUGE}"#),
    ("used_mb", #"{"device":1,"t":1.0,"seq":2,"kind":"memory","used_mb":HUGE}"#),
  ])
  func aNumberOutOfRangeIsRefusedWithItsLineAndField(field: String, template: String) throws {
    // A finite figure of MB is drawn, however large (below).
    for huge in field == "used_mb" ? ["1e400", "-1e300", "-3"] : ["1e30", "1e300", "-1e300", "1e400", "-3"] {
      let (r, svg) = try timeline("huge-\(field)", [Self.launch, template.replacingOccurrences(of: "HUGE", with: huge)])
      #expect(r.status == 2, "\(field) = \(huge): \(r.status) \(r.stderr)")
      #expect(r.stderr.contains("huge-\(field).jsonl:2: field \"\(field)\" must be"), "\(field) = \(huge): \(r.stderr)")
      #expect(!FileManager.default.fileExists(atPath: svg))
    }
  }

  @Test func aFractionOfACountIsRefused() throws {
    let (r, _) = try timeline("fraction", [Self.launch, #"{"device":1.5,"t":1.0,"seq":2,"kind":"log","detail":"x"}"#])
    #expect(r.status == 2 && r.stderr.contains(#":2: field "device" must be a whole number between 0 and 2147483647, got 1.5"#), "\(r.stderr)")
  }

  /// The largest times each parse, but their sum would not fit: refused as the
  /// record's end.
  @Test func aTimePlusDurationBeyondTheRangeIsRefused() throws {
    let (r, _) = try timeline("sum", [
      Self.launch,
      #"{"device":1,"t":9e12,"seq":2,"kind":"callback","app":"a","callback":"x","duration":9e12}"#,
    ])
    #expect(r.status == 2, "\(r.stderr)")
    #expect(r.stderr.contains(#"sum.jsonl:2: field "duration" ends the record after 9e12 seconds"#), "\(r.stderr)")
  }

  /// Times at the ends of the range, and memory figures near the largest
  /// double, are drawn (they used to stop the program with a signal).
  @Test func extremeValuesInRangeAreDrawn() throws {
    let (r, svg) = try timeline("extremes", [
      Self.launch,
      #"{"device":1,"t":1.0,"seq":2,"kind":"memory","app":"a","used_mb":1.7e308,"limit_mb":1e308,"jetsam_mb":1.79e308,"warning_mb":1e300}"#,
      #"{"device":1,"t":8.999e12,"seq":3,"kind":"callback","app":"a","callback":"x","duration":5e8}"#,
      #"{"device":1,"t":9e12,"seq":4,"kind":"state","app":"a","from":"active","to":"background","used_mb":1e308}"#,
    ])
    #expect(r.status == 0, "\(r.status) \(r.stderr)")
    let text = contents(svg)
    #expect(text.contains("1.79e+308 MB"), "\(text.prefix(2000))")
    #expect(!text.contains("nan"))
  }

  /// A record earlier than the one before it on the same device is refused:
  /// the lanes are drawn as they are read.
  @Test func aRecordBackInTimeIsRefused() throws {
    let (r, _) = try timeline("back", [
      Self.launch,
      #"{"device":1,"t":5.0,"seq":2,"kind":"state","app":"a","from":"active","to":"background"}"#,
      #"{"device":2,"t":1.0,"seq":1,"kind":"state","app":"a","from":"notRunning","to":"active"}"#,
      #"{"device":1,"t":2.5,"seq":3,"kind":"state","app":"a","from":"background","to":"active"}"#,
    ])
    #expect(r.status == 2, "\(r.stderr)")
    #expect(r.stderr.contains("back.jsonl:4: the record at 2.500000 s comes before device 1's previous one, at 5.000000 s"), "\(r.stderr)")
  }

  /// Memory does not grow with the width times the lanes: 600 lanes at
  /// 20,000 pixels need about what they need at 1,050 (a per-pixel array of
  /// each lane's states took 280 MB more).
  @Test func manyLanesAtAGreatWidthKeepMemoryFlat() throws {
    let trace = Self.dir.appendingPathComponent("lanes.jsonl").path
    var lines: [String] = []
    for k in 0..<600 {
      let app = "com.example.app" + String(k)
      lines.append(#"{"device":1,"t":\#(k).0,"seq":\#(2 * k + 1),"kind":"state","app":"\#(app)","from":"notRunning","to":"active"}"#)
      lines.append(#"{"device":1,"t":\#(k).5,"seq":\#(2 * k + 2),"kind":"state","app":"\#(app)","from":"active","to":"background"}"#)
    }
    try (lines.joined(separator: "\n") + "\n").write(toFile: trace, atomically: true, encoding: .utf8)
    func peak(width: Int) throws -> Int {
      let report = Self.dir.appendingPathComponent("peak\(width)").path
      let svg = Self.dir.appendingPathComponent("lanes\(width).svg").path
      let r = try lifesim(["timeline", trace, "-o", svg, "--width", String(width)],
                          env: ["LIFESIM_PEAK_MEMORY_FILE": report, "ASAN_OPTIONS": "quarantine_size_mb=1"])
      #expect(r.status == 0, "\(r.stderr)")
      // Every lane is drawn.
      #expect(contents(svg).components(separatedBy: "<title>active</title></rect>").count == 601)
      return Int(contents(report).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }
    let narrow = try peak(width: 1050), wide = try peak(width: 20_000)
    #expect(narrow > 0 && wide > 0)
    #expect(wide < narrow + 32_768, "peak \(narrow) kB at 1,050 pixels, \(wide) kB at 20,000")
  }
}
