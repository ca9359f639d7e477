import Foundation
import Testing

/// The pictures say what they show without a tooltip: a timeline names its
/// callbacks, writes the times at the ends of its compressed stretches and
/// their exact length, counts a mark's events per kind ("×2"), fits a
/// 1,400-pixel window, is titled by its scenario and draws no scene lane for
/// an app with one scene; its texts do not overlap, even in a busy day. The
/// diagrams are Graphviz's layout where dot is installed, with arrowheads
/// apart and the iOS 13+ process machine pointing to the scene machine; a
/// categorical plot joins no points. Each picture is also rendered by
/// rsvg-convert (PictureTests.checkRenders).
struct ReadablePictureTests {
  /// A text element of an SVG: where it is, its size and its words.
  struct Text {
    var x, y, size: Double
    var anchor: String
    var content: String

    /// Its box, from an average advance a little under the pictures' own
    /// estimate (so that a touch of two generous estimates is no overlap).
    var box: (x0: Double, y0: Double, x1: Double, y1: Double) {
      let w = Double(content.count) * size * 0.5
      let x0 = anchor == "middle" ? x - w / 2 : anchor == "end" ? x - w : x
      return (x0, y - size * 0.75, x0 + w, y)
    }

    func overlaps(_ o: Text) -> Bool {
      let a = box, b = o.box
      return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1
    }
  }

  static func texts(_ svg: String, defaultSize: Double = 12) -> [Text] {
    let pattern = try! NSRegularExpression(pattern: "<text ([^>]*)>([^<]*)</text>")
    func attribute(_ name: String, _ attributes: String) -> String? {
      guard let r = attributes.range(of: " \(name)=\"") ?? (attributes.hasPrefix("\(name)=\"") ? attributes.range(of: "\(name)=\"") : nil)
      else { return nil }
      return String(attributes[r.upperBound...].prefix { $0 != "\"" })
    }
    let ns = svg as NSString
    return pattern.matches(in: svg, range: NSRange(location: 0, length: ns.length)).compactMap { m in
      let attributes = " " + ns.substring(with: m.range(at: 1))
      let content = ns.substring(with: m.range(at: 2))
        .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
        .replacingOccurrences(of: "&#45;", with: "-").replacingOccurrences(of: "&#39;", with: "'")  // dot's escapes
        .replacingOccurrences(of: "&amp;", with: "&")
      guard let x = attribute("x", attributes).flatMap(Double.init), let y = attribute("y", attributes).flatMap(Double.init)
      else { return nil }
      return Text(x: x, y: y, size: attribute("font-size", attributes).flatMap(Double.init) ?? defaultSize,
                  anchor: attribute("text-anchor", attributes) ?? "start", content: content)
    }
  }

  static func width(_ svg: String) -> Double {
    guard let r = svg.range(of: " width=\"") else { return .infinity }
    return Double(svg[r.upperBound...].prefix { $0 != "\"" }) ?? .infinity
  }

  /// Pairs of texts that overlap (the title and its summary line aside).
  static func collisions(_ texts: [Text]) -> [String] {
    let drawn = texts.filter { $0.y > 50 }
    var found: [String] = []
    for i in drawn.indices {
      for j in drawn.indices where j > i && drawn[i].overlaps(drawn[j]) {
        found.append("'\(drawn[i].content)' at (\(drawn[i].x), \(drawn[i].y)) and '\(drawn[j].content)' at (\(drawn[j].x), \(drawn[j].y))")
      }
    }
    return found
  }

  static let upload = """
    -- An upload that outlives its background time: the task expires, and jetsam takes the edit.
    local dev = lifesim.device{ ios = 17, memory_mb = 2048 }
    local notes = dev:install{ bundle = "com.example.notes", footprint_mb = 600 }
    local mail = dev:install{ bundle = "com.example.mail", footprint_mb = 500 }
    local game = dev:install{ bundle = "com.example.game", footprint_mb = 300 }
    notes:on("sceneDidEnterBackground:", function(ctx)
      ctx:dirty(2)
      ctx:begin_background_task("upload", function(t) t:finish() end)
    end)
    game:on("sceneDidBecomeActive:", function(ctx) ctx:allocate(600) end)
    dev:advance(5.5)
    dev:launch(notes)
    dev:home()
    dev:advance(49.954)
    dev:launch(mail)
    dev:home()
    dev:launch(game)
    dev:advance(2)
    """

  @Test func aTimelineIsReadableWithoutHovering() throws {
    let file = try script("upload_expires.lua", Self.upload)
    let svgURL = PictureTests.dir.appendingPathComponent("upload-expires.svg")
    let r = try lifesim(["run", file, "--timeline", svgURL.path])
    #expect(r.status == 0, "\(r.stderr)")
    let svg = try String(contentsOf: svgURL, encoding: .utf8)
    let texts = Self.texts(svg)
    let words = texts.map(\.content)
    // Titled by the scenario's opening comment, not by a path.
    #expect(svg.contains("<title>An upload that outlives its background time</title>"), "\(svg.prefix(400))")
    #expect(words.first == "An upload that outlives its background time")
    #expect(!words.contains { $0.contains("upload_expires") || $0.contains("/") })
    // Fits a 1,400-pixel window, with the scrollbar's room.
    #expect(Self.width(svg) <= 1360, "width \(Self.width(svg))")
    // Callbacks named on the picture, not only in tooltips.
    #expect(words.contains { $0.hasPrefix("application:willFinishLaunchingWithOptions:") }, "\(words)")
    // One scene per app: no scene lane repeats the app's.
    #expect(!words.contains { $0.contains("scene 1") }, "\(words)")
    // The expiration at 30.5 s can be read off the axis; each compressed
    // stretch has the times of its ends written, and its exact length.
    #expect(words.contains("30.5 s"), "\(words)")
    let gaps = svg.components(separatedBy: "<title>nothing happens for ").dropFirst().map { $0.prefix { $0 != "<" } }
    #expect(gaps.count == 2, "\(gaps)")
    for gap in gaps {
      // "24.953 s, from 5.524 s to 30.477 s; compressed"
      let parts = gap.components(separatedBy: ", from ")
      let length = parts[0]
      let ends = parts[1].replacingOccurrences(of: "; compressed", with: "").components(separatedBy: " to ")
      #expect(words.contains("+" + length), "the length \(length) is written: \(words)")
      #expect(length.hasPrefix("24.9") && length.hasSuffix(" s"), "the length keeps its decimals: \(length)")
      for end in ends { #expect(words.contains(end), "the end \(end) is on the axis: \(words)") }
    }
    #expect(!words.contains("24 s"))
    // Counts say what they count: "×N", never a bare number; the kill and its
    // data loss (2 unsaved) are one event each, so no number stands beside them.
    #expect(!words.contains { !$0.isEmpty && $0.allSatisfy(\.isNumber) }, "\(words)")
    #expect(words.contains { $0.hasPrefix("×") })
    let killGroup = try #require(svg.components(separatedBy: "<g><title>").first { $0.contains("killed (") })
    #expect(killGroup.contains("data loss, 2 unsaved") && !killGroup.contains("×"), "\(killGroup)")
    #expect(words.contains("3 events in one mark"), "the key says what ×N means")
    #expect(Self.collisions(texts).isEmpty, "\(Self.collisions(texts))")
    try PictureTests.checkRenders(svgURL)
  }

  /// 24 virtual hours of 30 apps, each with one scene that leaves an edit unsaved in the background.
  static let busyDay = """
    local dev = lifesim.device{ ios = 16, model = "iPhone 8", seed = 7 }
    for k = 1, 30 do
      local app = dev:install{ bundle = string.format("com.example.app%02d", k), footprint_mb = 40 + (k * 67) % 201 }
      app:on("sceneDidEnterBackground:", function(ctx) ctx:dirty(1) end)
    end
    lifesim.workload.user{ zipf = 1.1, switch_every = 180, session = 1800, idle = 3600 }:drive(dev, { hours = 24 })
    """

  /// A day of 30 apps: many marks, counts and names, the memory band's
  /// scale beside its marks; no two texts overlap.
  @Test func aBusyTimelineHasNoCollidingTexts() throws {
    let day = try script("busy_day.lua", Self.busyDay)
    let trace = PictureTests.dir.appendingPathComponent("busy-day.jsonl")
    #expect(try lifesim(["run", day, "--format", "jsonl", "-o", trace.path]).status == 0)
    let svgURL = PictureTests.dir.appendingPathComponent("busy-day.svg")
    let r = try lifesim(["timeline", trace.path, "-o", svgURL.path])
    #expect(r.status == 0, "\(r.stderr)")
    let svg = try String(contentsOf: svgURL, encoding: .utf8)
    let texts = Self.texts(svg)
    #expect(texts.first?.content == "busy-day", "titled by the trace's name, without folder and extension")
    #expect(Self.width(svg) <= 1360)
    #expect(texts.contains { $0.content.hasSuffix(" MB") && $0.content.first?.isNumber == true }, "the memory scale")
    #expect(texts.filter { $0.content.hasPrefix("×") }.count > 50)
    #expect(texts.contains { $0.content.hasPrefix("sceneWillEnterForeground:") })
    #expect(!texts.contains { $0.content.contains("scene 1") })
    let collisions = Self.collisions(texts)
    #expect(collisions.isEmpty, "\(collisions.count) collisions: \(collisions.prefix(10))")
    try PictureTests.checkRenders(svgURL)
  }

  /// dot's SVG: each edge is a group whose polygon is its arrowhead.
  static func arrowheads(_ svg: String) -> [(x: Double, y: Double)] {
    svg.components(separatedBy: "class=\"edge\"").dropFirst().compactMap { edge in
      guard let r = edge.range(of: "<polygon"), let p = edge[r.upperBound...].range(of: "points=\"") else { return nil }
      let points = edge[p.upperBound...].prefix { $0 != "\"" }.split(separator: " ").compactMap { pair -> (Double, Double)? in
        let xy = pair.split(separator: ",").compactMap { Double($0) }
        return xy.count == 2 ? (xy[0], xy[1]) : nil
      }
      guard !points.isEmpty else { return nil }
      return (points.map(\.0).reduce(0, +) / Double(points.count), points.map(\.1).reduce(0, +) / Double(points.count))
    }
  }

  @Test func diagramsAreGraphvizsLayoutWithArrowheadsApart() throws {
    #expect(try runTool(["dot", "-V"]).status == 0, "no Graphviz dot: ./dev.sh installs graphviz")
    for (arguments, scene) in [(["--ios", "17"], true), (["--ios", "12"], false), (["--machine", "scene"], false),
                               (["--machine", "vc"], false)] {
      let r = try lifesim(["diagram"] + arguments)
      #expect(r.status == 0, "\(r.stderr)")
      #expect(r.stdout.contains("Generated by graphviz"), "dot is the default where it is installed")
      let words = Self.texts(r.stdout, defaultSize: 14).map(\.content)
      #expect(words.contains { $0.hasPrefix("iOS ") }, "the title")
      // Every label line is text on the picture.
      #expect(words.contains { $0.contains("(silent)") })
      let heads = Self.arrowheads(r.stdout)
      #expect(heads.count >= 10, "\(arguments): \(heads.count) arrowheads")
      for i in heads.indices {
        for j in heads.indices where j > i {
          let d = ((heads[i].x - heads[j].x) * (heads[i].x - heads[j].x) + (heads[i].y - heads[j].y) * (heads[i].y - heads[j].y)).squareRoot()
          #expect(d > 6, "\(arguments): arrowheads \(i) and \(j) pile up at \(heads[i])")
        }
      }
      // iOS 13+: the process machine points to the scenes', and the scene
      // callbacks come with its activate and enterBackground.
      #expect(words.contains("sceneDidBecomeActive: (scene)") == scene, "\(arguments): \(words)")
      #expect(words.contains("sceneDidEnterBackground: (scene)") == scene)
      #expect(words.contains { $0.contains("--machine scene") } == scene)
      let svg = PictureTests.dir.appendingPathComponent("dot" + arguments.joined().filter(\.isLetter) + ".svg")
      try r.stdout.write(to: svg, atomically: true, encoding: .utf8)
      try PictureTests.checkRenders(svg)
    }
  }

  /// Without dot: the built-in layout, with opaque labels, the note, and the
  /// ends of the arcs at a state apart; asking for Graphviz then is an error.
  @Test func withoutGraphvizTheBuiltInLayoutIsUsed() throws {
    let bare = ["PATH": "/nonexistent"]
    let r = try lifesim(["diagram", "--ios", "17"], env: bare)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(!r.stdout.contains("graphviz") && r.stdout.contains("arrow-silent"))
    #expect(!r.stdout.contains("fill-opacity=\"0.92\""), "label boxes are opaque")
    let words = Self.texts(r.stdout).map(\.content)
    #expect(words.contains("sceneDidBecomeActive: (scene)"))
    #expect(words.contains { $0.contains("--machine scene") })
    // Where the arcs end: each "C … x y" path's last point.
    let ends = r.stdout.components(separatedBy: "<path d=\"M ").dropFirst().compactMap { path -> (Double, Double)? in
      let numbers = path.prefix { $0 != "\"" }.split(separator: " ").compactMap { Double($0) }
      return numbers.count >= 8 ? (numbers[numbers.count - 2], numbers[numbers.count - 1]) : nil
    }
    #expect(ends.count >= 14)
    for i in ends.indices {
      for j in ends.indices where j > i {
        #expect(abs(ends[i].0 - ends[j].0) >= 12 || abs(ends[i].1 - ends[j].1) >= 12, "arcs \(i) and \(j) end together")
      }
    }
    let forced = try lifesim(["diagram", "--layout", "graphviz"], env: bare)
    #expect(forced.status == 2 && forced.stderr.contains("--layout graphviz: no dot on PATH"), "\(forced.stderr)")
    #expect(!forced.stderr.contains("USAGE"))
  }

  /// A categorical x has no order: its points are not joined; a numeric x's are.
  @Test func aCategoricalXIsDrawnAsPoints() throws {
    let exp = try script("categorical.lua", """
      return lifesim.experiment{
        name = "categorical", params = { mode = { "cold", "warm", "resume" }, n = { 1, 2, 3 } }, seeds = 2, metrics = { "m" },
        run = function(p, seed) return { m = #p.mode + p.n + seed / 10 } end,
      }
      """)
    let csv = PictureTests.dir.appendingPathComponent("categorical.csv")
    #expect(try lifesim(["batch", exp, "-o", csv.path, "--quiet", "--force"]).status == 0)
    let byMode = PictureTests.dir.appendingPathComponent("by-mode.svg")
    let r = try lifesim(["plot", csv.path, "--metric", "m", "--x", "mode", "--series", "n", "-o", byMode.path])
    #expect(r.status == 0, "\(r.stderr)")
    let chart = try String(contentsOf: byMode, encoding: .utf8)
    #expect(!chart.contains("<polyline"), "categorical points are joined")
    #expect(chart.contains(">resume</text>") && chart.components(separatedBy: "<circle").count - 1 >= 3)
    try PictureTests.checkRenders(byMode)
    let byN = PictureTests.dir.appendingPathComponent("by-n.svg")
    #expect(try lifesim(["plot", csv.path, "--metric", "m", "--x", "n", "--series", "mode", "-o", byN.path]).status == 0)
    #expect(try String(contentsOf: byN, encoding: .utf8).components(separatedBy: "<polyline").count - 1 == 3)
  }
}
