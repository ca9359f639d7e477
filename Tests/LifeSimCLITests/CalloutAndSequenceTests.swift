import Foundation
import Testing

/// A timeline printed or pasted as a PNG has no tooltips: a mark whose
/// callbacks do not fit beside it is numbered and listed under the picture.
/// `timeline --sequence` draws the trace as a UML sequence diagram. Both are
/// rendered by rsvg-convert and read back from their SVG text.
struct CalloutAndSequenceTests {
  static func tour() throws -> (jsonl: URL, svg: URL) {
    let dir = PictureTests.dir
    let jsonl = dir.appendingPathComponent("tour-\(UUID().uuidString).jsonl")
    let svg = dir.appendingPathComponent("tour-\(UUID().uuidString).svg")
    let r = try lifesim(["run", "Scripts/tour.lua", "--format", "jsonl", "-o", jsonl.path, "--timeline", svg.path])
    #expect(r.status == 0, "\(r.stderr)")
    return (jsonl, svg)
  }

  /// The short names of the callbacks and notifications of a JSONL trace, per device, in order.
  static func callbacks(_ jsonl: URL) throws -> [(device: Int, time: Double, name: String)] {
    try String(contentsOf: jsonl, encoding: .utf8).split(separator: "\n").compactMap { line in
      guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
            let kind = object["kind"] as? String, kind == "callback" || kind == "notification",
            let name = object["callback"] as? String else { return nil }
      return ((object["device"] as? Int) ?? 1, (object["t"] as? Double) ?? 0, name)
    }
  }

  @Test func everyCallbackOfTheREADMEsTourIsNamedInText() throws {
    let (jsonl, svg) = try Self.tour()
    defer { for u in [jsonl, svg] { try? FileManager.default.removeItem(at: u) } }
    try PictureTests.checkRenders(svg)
    let text = try String(contentsOf: svg, encoding: .utf8)
    let drawn = ReadablePictureTests.texts(text).map(\.content).joined(separator: "\n")
    // In a text element (what a PNG shows), not only in a tooltip's <title>.
    #expect(drawn.contains("sceneDidEnterBackground:"), "\(drawn)")
    for (_, _, name) in try Self.callbacks(jsonl) {
      #expect(drawn.contains(name), "\(name) is not written in the picture")
    }
    // The marks that could not name theirs carry the number of their line in the list.
    #expect(drawn.contains("The callbacks of the numbered marks"))
    #expect(drawn.contains("application:willFinishLaunchingWithOptions: and 12 more [1]") && drawn.contains("\n[1] 0 s, 1 (iOS 17): com.example.notes: application:willFinishLaunchingWithOptions:,"),
            "\(drawn)")
    #expect(ReadablePictureTests.collisions(ReadablePictureTests.texts(text)).isEmpty,
            "\(ReadablePictureTests.collisions(ReadablePictureTests.texts(text)))")
  }

  @Test func aSequenceDiagramHasARowPerCallbackInTheTracesOrder() throws {
    let (jsonl, timeline) = try Self.tour()
    let svg = PictureTests.dir.appendingPathComponent("sequence-\(UUID().uuidString).svg")
    defer { for u in [jsonl, timeline, svg] { try? FileManager.default.removeItem(at: u) } }
    let r = try lifesim(["timeline", jsonl.path, "--sequence", "-o", svg.path])
    #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
    try PictureTests.checkRenders(svg)
    let text = try String(contentsOf: svg, encoding: .utf8)
    let texts = ReadablePictureTests.texts(text)
    // The columns: per device the user, iOS, the app and (iOS 17) its scene, head and foot.
    for head in ["1: user", "1: iOS", "1: com.example.notes", "1: com.example.notes scene 1", "2: user", "2: iOS", "2: com.example.notes"] {
      #expect(texts.filter { $0.content == head }.count == 2, "\(head) heads its column at the top and the bottom")
    }
    // One row per callback and notification, top to bottom in time, the
    // devices' records merged (at one time, device 1's first).
    let records = try Self.callbacks(jsonl).enumerated()
      .sorted { ($0.element.time, $0.element.device, $0.offset) < ($1.element.time, $1.element.device, $1.offset) }
    let expected = records.map(\.element.name)
    let rows = texts.filter { t in expected.contains(t.content) }.sorted { $0.y < $1.y }.map(\.content)
    #expect(rows == expected, "\(rows)")
    // The user's actions and the kills have their rows too.
    #expect(texts.contains { $0.content == "home" } && texts.contains { $0.content.hasPrefix("killed (user)") }, "\(texts.map(\.content))")
    #expect(ReadablePictureTests.collisions(texts).isEmpty, "\(ReadablePictureTests.collisions(texts))")

    // A range, and what the sequence view does not take.
    let part = try lifesim(["timeline", jsonl.path, "--sequence", "--to", "1", "-o", svg.path])
    #expect(part.status == 0)
    let early = ReadablePictureTests.texts(try String(contentsOf: svg, encoding: .utf8)).map(\.content)
    #expect(early.contains("sceneDidEnterBackground:") && !early.contains("sceneDidDisconnect:"), "\(early)")
    let width = try lifesim(["timeline", jsonl.path, "--sequence", "--width", "800", "-o", svg.path])
    #expect(width.status == 2 && width.stderr.contains("--width is the time axis's"), "\(width.stderr)")
  }

  /// Two devices: the rows are merged in time order, and every column is
  /// named with its device; an empty range is said.
  @Test func twoDevicesMergeInTimeAndAnEmptyRangeIsSaid() throws {
    let trace = PictureTests.dir.appendingPathComponent("two-\(UUID().uuidString).jsonl")
    let svg = PictureTests.dir.appendingPathComponent("two-\(UUID().uuidString).svg")
    defer { for u in [trace, svg] { try? FileManager.default.removeItem(at: u) } }
    let two = try script("sequence-two.lua", """
      local a = lifesim.device{ ios = 17 }
      local b = lifesim.device{ ios = 17 }
      local x = a:install{ bundle = "com.example.x" }
      local y = b:install{ bundle = "com.example.y" }
      a:launch(x); a:advance(100); a:home()
      b:launch(y); b:advance(40); b:home()
      """)
    #expect(try lifesim(["run", two, "--format", "jsonl", "-o", trace.path]).status == 0)
    #expect(try lifesim(["timeline", trace.path, "--sequence", "-o", svg.path]).status == 0)
    let texts = ReadablePictureTests.texts(try String(contentsOf: svg, encoding: .utf8))
    let homes = texts.filter { $0.content == "home" }.sorted { $0.y < $1.y }
    let times = texts.filter { $0.content.hasSuffix(" s") && $0.anchor == "end" }.sorted { $0.y < $1.y }.map(\.content)
    #expect(homes.count == 2 && times == ["0 s", "40 s", "100 s"], "\(times)")
    #expect(texts.contains { $0.content == "1: com.example.x scene 1" } && texts.contains { $0.content == "2: com.example.y scene 1" }, "\(texts.map(\.content))")
    #expect(texts.contains { $0.content.hasPrefix("0 s to 100 s") }, "\(texts.map(\.content))")

    for extra in [["--sequence"], []] {
      let empty = try lifesim(["timeline", trace.path, "--from", "1e6", "-o", svg.path] + extra)
      #expect(empty.status == 0 && empty.stderr.contains("lifesim timeline: warning: no "), "\(extra): \(empty.stderr)")
    }
  }

  @Test func aLongTraceSaysWhatTheSequenceLeavesOut() throws {
    let trace = PictureTests.dir.appendingPathComponent("day-\(UUID().uuidString).jsonl")
    let svg = PictureTests.dir.appendingPathComponent("day-\(UUID().uuidString).svg")
    defer { for u in [trace, svg] { try? FileManager.default.removeItem(at: u) } }
    let day = try script("sequence-day.lua", """
      local dev = lifesim.device{ ios = 17, seed = 3 }
      for k = 1, 4 do dev:install{ bundle = "com.example.app" .. k } end
      lifesim.workload.user{ switch_every = 60 }:drive(dev, { hours = 6 })
      """)
    #expect(try lifesim(["run", day, "--format", "jsonl", "-o", trace.path]).status == 0)
    let r = try lifesim(["timeline", trace.path, "--sequence", "-o", svg.path])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stderr.contains("lifesim timeline: warning: … ") && r.stderr.contains("more records after the first 1200 rows: draw a shorter range with --from and --to"),
            "\(r.stderr)")
    let text = try String(contentsOf: svg, encoding: .utf8)
    #expect(text.contains("more records after the first 1200 rows"))
    try PictureTests.checkRenders(svg)
  }
}
