import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

/// The pictures: `lifesim diagram` and `lifesim timeline` write SVG
/// that is valid XML and that a real renderer (Debian's rsvg-convert, which
/// `./dev.sh` installs) turns into a PNG of the expected size that is not
/// blank; the committed pictures under docs/ are checked the same way.
struct PictureTests {
  static let dir: URL = {
    let d = FileManager.default.temporaryDirectory.appendingPathComponent("lifesim-pictures-\(getpid())")
    try? FileManager.default.createDirectory(at: d, withIntermediateDirectories: true)
    return d
  }()

  /// Parses the SVG as XML and returns its width and height attributes.
  static func checkXML(_ url: URL) throws -> (width: Double, height: Double) {
    final class Root: NSObject, XMLParserDelegate {
      var size: (Double, Double)?
      func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                  attributes: [String: String] = [:]) {
        if name == "svg", size == nil, let w = attributes["width"].flatMap(Double.init),
           let h = attributes["height"].flatMap(Double.init) {
          size = (w, h)
        }
      }
    }
    let parser = try #require(XMLParser(contentsOf: url))
    let root = Root()
    parser.delegate = root
    #expect(parser.parse(), "\(url.lastPathComponent): \(parser.parserError.map { "\($0)" } ?? "not XML")")
    let size = try #require(root.size, "\(url.lastPathComponent) has no svg element with a width and height")
    return size
  }

  /// Renders with rsvg-convert; checks the PNG's size (from its header) and
  /// that it is not blank: its decompressed pixel rows hold many values.
  static func checkRenders(_ svg: URL) throws {
    let (width, height) = try checkXML(svg)
    let png = dir.appendingPathComponent(svg.deletingPathExtension().lastPathComponent + "-\(UInt32.random(in: 0...UInt32.max)).png")
    defer { try? FileManager.default.removeItem(at: png) }
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = ["rsvg-convert", svg.path, "-o", png.path]
    let err = Pipe()
    p.standardError = err
    try p.run()
    p.waitUntilExit()
    let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(p.terminationStatus == 0, "rsvg-convert \(svg.lastPathComponent): \(message) (./dev.sh installs librsvg2-bin)")
    guard p.terminationStatus == 0 else { return }
    let check = """
      import struct, sys, zlib
      data = open(sys.argv[1], "rb").read()
      assert data[:8] == b"\\x89PNG\\r\\n\\x1a\\n", "not a PNG"
      width, height = struct.unpack(">II", data[16:24])
      i, idat = 8, b""
      while i < len(data):
          n = struct.unpack(">I", data[i:i+4])[0]
          if data[i+4:i+8] == b"IDAT": idat += data[i+8:i+8+n]
          i += 12 + n
      pixels = zlib.decompress(idat)
      print(width, height, len(set(pixels)))
      """
    let q = Process()
    q.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    q.arguments = ["python3", "-c", check, png.path]
    let out = Pipe()
    q.standardOutput = out
    try q.run()
    q.waitUntilExit()
    let fields = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      .split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    #expect(fields.count == 3, "\(png.lastPathComponent): could not read the PNG")
    guard fields.count == 3 else { return }
    #expect(Double(fields[0]) == width.rounded(.up) || abs(Double(fields[0]) - width) <= 1, "\(png.lastPathComponent) width")
    #expect(abs(Double(fields[1]) - height) <= 1, "\(png.lastPathComponent) height")
    #expect(fields[0] >= 300 && fields[1] >= 150, "\(png.lastPathComponent) is too small: \(fields)")
    #expect(fields[2] >= 32, "\(png.lastPathComponent) looks blank: \(fields[2]) distinct byte values")
  }

  @Test(arguments: [
    ["--machine", "process", "--ios", "12"], ["--machine", "process", "--ios", "17"],
    ["--machine", "process", "--ios", "17", "--model", "app"], ["--machine", "scene"], ["--machine", "vc"],
    ["--machine", "process", "--ios", "5"],
  ])
  func diagramsRender(arguments: [String]) throws {
    let svg = Self.dir.appendingPathComponent("diagram" + arguments.joined().filter { $0.isLetter || $0.isNumber } + ".svg")
    let r = try lifesim(["diagram"] + arguments + ["-o", svg.path])
    #expect(r.status == 0, "\(r.stderr)")
    try Self.checkRenders(svg)
  }

  @Test func diagramFormatsAndErrors() throws {
    let dot = try lifesim(["diagram", "--format", "dot", "--ios", "12"])
    #expect(dot.stdout.hasPrefix("digraph") && dot.stdout.contains("style=dashed"))
    let mermaid = try lifesim(["diagram", "--format", "mermaid", "--machine", "scene"])
    #expect(mermaid.stdout.contains("flowchart LR") && mermaid.stdout.contains(".->"))
    let old = try lifesim(["diagram", "--machine", "scene", "--ios", "12"])
    #expect(old.status == 2 && old.stderr.contains("scenes need iOS 13"))
    let bad = try lifesim(["diagram", "--machine", "window"])
    #expect(bad.status == 2)
  }

  /// A 24-virtual-hour run of 30 apps: lanes, markers, the memory band, the
  /// axis in hours; a range hides the lanes with nothing in it; an idle
  /// stretch is compressed with its length written.
  @Test func timelinesRender() throws {
    let day = try script("day.lua", ReadablePictureTests.busyDay)
    let trace = Self.dir.appendingPathComponent("day.jsonl")
    let run = try lifesim(["run", day, "--format", "jsonl", "-o", trace.path])
    #expect(run.status == 0, "\(run.stderr)")
    let svg = Self.dir.appendingPathComponent("day.svg")
    let r = try lifesim(["timeline", trace.path, "-o", svg.path])
    #expect(r.status == 0, "\(r.stderr)")
    try Self.checkRenders(svg)
    let text = try String(contentsOf: svg, encoding: .utf8)
    #expect(text.contains(">com.example.app01<") && text.contains(">12 h<"))
    #expect(text.contains("stroke=\"#D55E00\" stroke-width=\"3\""))  // a kill's cross
    #expect(text.contains("memory in use") && text.contains("jetsam "))
    #expect(text.contains("<title>") && text.contains("-[SceneDelegate sceneDidEnterBackground:]"))
    #expect(text.contains("data loss, 1 unsaved"))  // a jetsam kill of an app with unsaved changes
    // On a lane, a kill with its data loss shows both symbols, not the kill alone.
    let groups = text.components(separatedBy: "<g><title>").filter { $0.contains("killed (") && $0.contains("data loss") }
    #expect(groups.contains { $0.contains("stroke=\"#D55E00\" stroke-width=\"3\"") && $0.contains("fill=\"#CC79A7\"") },
            "a marker holding a kill and a data loss draws the cross and the triangle")
    // One hour late in the day: some apps have nothing there.
    let hour = Self.dir.appendingPathComponent("hour.svg")
    let ranged = try lifesim(["timeline", trace.path, "-o", hour.path, "--from", "1000", "--to", "4600"])
    #expect(ranged.status == 0, "\(ranged.stderr)")
    #expect(try String(contentsOf: hour, encoding: .utf8).contains("with nothing in range hidden"))
    try Self.checkRenders(hour)
    // The tour waits 40 s with nothing happening: compressed, its length written.
    let tour = Self.dir.appendingPathComponent("tour.svg")
    let t = try lifesim(["run", "Scripts/tour.lua", "--timeline", tour.path])
    #expect(t.status == 0, "\(t.stderr)")
    let tourText = try String(contentsOf: tour, encoding: .utf8)
    #expect(tourText.contains("idle stretch compressed") && tourText.contains(">+39.961 s<"))
    try Self.checkRenders(tour)
    // --from/--to widen the range before the idle stretches are found: nothing
    // from 0 to 500 s is one compressed stretch, and the axis speaks of the same times.
    let late = try script("late.lua", """
      local dev = lifesim.device{ ios = 12 }
      local app = dev:install{ bundle = "com.example.late" }
      dev:advance(500) dev:launch(app) dev:advance(60) dev:home() dev:advance(40) dev:kill(app)
      """)
    let lateTrace = Self.dir.appendingPathComponent("late.jsonl")
    _ = try lifesim(["run", late, "--format", "jsonl", "-o", lateTrace.path])
    let lateSVG = Self.dir.appendingPathComponent("late.svg")
    let l = try lifesim(["timeline", lateTrace.path, "-o", lateSVG.path, "--from", "0", "--to", "1000"])
    #expect(l.status == 0, "\(l.stderr)")
    let lateText = try String(contentsOf: lateSVG, encoding: .utf8)
    #expect(lateText.contains("nothing happens for 8 min"), "the empty start is compressed: \(lateText)")
    try Self.checkRenders(lateSVG)
  }

  /// batch --plot: three varying parameters cannot make one chart; the batch
  /// says so and still succeeds (its results are what matters); --where picks
  /// the points, and the chart renders.
  @Test func batchPlotsWithoutFailingTheBatch() throws {
    let exp = try script("three.lua", """
      return lifesim.experiment{
        name = "three", params = { a = { 1, 2 }, b = { 1, 2 }, c = { "x", "y" } }, seeds = 2, metrics = { "m" },
        run = function(p, seed) return { m = p.a * 10 + p.b + seed } end,
      }
      """)
    let csv = Self.dir.appendingPathComponent("three.csv")
    let svg = Self.dir.appendingPathComponent("three.svg")
    try? FileManager.default.removeItem(at: svg)
    let r = try lifesim(["batch", exp, "-o", csv.path, "--plot", "m", "--quiet", "--force"])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stderr.contains("no chart: the parameters c also vary; fix them with --where c=x"))
    #expect(!FileManager.default.fileExists(atPath: svg.path))
    let w = try lifesim(["batch", exp, "-o", csv.path, "--plot", "m", "--where", "c=y", "--quiet", "--force"])
    #expect(w.status == 0, "\(w.stderr)")
    try Self.checkRenders(svg)
    let bad = try lifesim(["batch", exp, "-o", csv.path, "--where", "c=y"])
    #expect(bad.status == 2 && bad.stderr.contains("--where selects the points of --plot"))
    // A value no point has is named, with the values there are.
    let nowhere = try lifesim(["plot", csv.path, "--metric", "m", "--where", "c=z", "-o", svg.path])
    #expect(nowhere.status == 2 && nowhere.stderr.contains("--where c=z: no point has that value; c takes x, y"),
            "\(nowhere.stderr)")
    // Series differ by dash and marker shape as well as colour.
    let chart = try String(contentsOf: svg, encoding: .utf8)
    #expect(chart.contains("stroke-dasharray") && chart.contains("width=\"8\" height=\"8\""), "\(chart)")
    // A chart that cannot be written is a failed write (exit 2); the results are kept.
    let unwritable = try lifesim(["batch", exp, "-o", csv.path, "--plot", "m", "--where", "c=y", "--force",
                                  "--plot-output", "/nonexistent/folder/m.svg", "--quiet"])
    #expect(unwritable.status == 2, "\(unwritable.stderr)")
    #expect(unwritable.stderr.contains("cannot write /nonexistent/folder/m.svg: No such file or directory (the results are in \(csv.path))"),
            "\(unwritable.stderr)")
  }

  /// A BGTaskScheduler task's run is a marker on its app's lane (reference §3.5).
  @Test func aTaskRunIsMarkedOnItsLane() throws {
    let feed = try script("feed.lua", """
      local dev = lifesim.device{ ios = 17 }
      local app = dev:install{ bundle = "com.example.feed", background_modes = { "fetch" },
                               background_tasks = { "com.example.feed.refresh" } }
      app:register_task("com.example.feed.refresh", function(ctx, task) ctx:work(2) task:complete(true) end)
      app:on("sceneDidEnterBackground:", function(ctx)
        ctx:submit_task{ id = "com.example.feed.refresh", kind = "refresh", earliest = 600 }
      end)
      dev:launch(app) dev:home() dev:advance(700)
      """)
    let svg = Self.dir.appendingPathComponent("feed.svg")
    let r = try lifesim(["run", feed, "--timeline", svg.path])
    #expect(r.status == 0, "\(r.stderr)")
    let text = try String(contentsOf: svg, encoding: .utf8)
    #expect(text.contains("runs BGAppRefreshTask com.example.feed.refresh, submitted at t=0"), "\(text)")
    try Self.checkRenders(svg)
  }

  /// A handler's work is a busy stretch on its app's lane, from the
  /// callback to where the work ended, here cut by a swipe (reference §3.8).
  @Test func aHandlersWorkIsABusyStretchOnItsLane() throws {
    let notes = try script("swipe.lua", """
      local dev = lifesim.device{ ios = 17 }
      local app = dev:install{ bundle = "com.example.notes" }
      app:on("sceneDidEnterBackground:", function(ctx) ctx:dirty(1) ctx:save{ seconds = 8 } end)
      dev:launch(app)
      dev:at(10, function() dev:home() end)
      dev:at(14, function() dev:switcher() dev:kill(app) end)
      dev:run()
      """)
    let svg = Self.dir.appendingPathComponent("swipe.svg")
    let r = try lifesim(["run", notes, "--timeline", svg.path])
    #expect(r.status == 0, "\(r.stderr)")
    let text = try String(contentsOf: svg, encoding: .utf8)
    #expect(text.contains("<title>main thread busy from t=10 s to t=14 s: -[SceneDelegate sceneDidEnterBackground:]</title>"), "\(text)")
    #expect(text.contains("main thread busy with a handler's work"))
    try Self.checkRenders(svg)
    // A range that begins inside the work draws it from the range's start.
    let trace = Self.dir.appendingPathComponent("swipe.jsonl")
    #expect(try lifesim(["run", notes, "--format", "jsonl", "-o", trace.path]).status == 0)
    let ranged = Self.dir.appendingPathComponent("swipe-ranged.svg")
    let r2 = try lifesim(["timeline", trace.path, "-o", ranged.path, "--from", "12", "--to", "20"])
    #expect(r2.status == 0, "\(r2.stderr)")
    let rangedText = try String(contentsOf: ranged, encoding: .utf8)
    #expect(rangedText.contains("main thread busy from t=12 s to t=14 s"), "\(rangedText)")
    // A trace where no handler works has no stretch, and no key for one.
    let idle = try script("idle.lua", "local dev = lifesim.device{ ios = 17 } dev:launch(dev:install{ bundle = \"a\" }) dev:home()")
    let plain = Self.dir.appendingPathComponent("idle.svg")
    #expect(try lifesim(["run", idle, "--timeline", plain.path]).status == 0)
    #expect(!(try String(contentsOf: plain, encoding: .utf8)).contains("main thread busy"))
  }

  @Test func timelineErrors() throws {
    let missing = try lifesim(["timeline", "/nonexistent.jsonl", "-o", Self.dir.appendingPathComponent("x.svg").path])
    #expect(missing.status == 2 && missing.stderr.contains("cannot read"))
    let text = try script("notjsonl.txt", "[t=0.000000] hello\n")
    let bad = try lifesim(["timeline", text, "-o", Self.dir.appendingPathComponent("y.svg").path])
    #expect(bad.status == 2 && bad.stderr.contains("not a lifesim JSONL record"))
    let streamed = try lifesim(["run", "Scripts/tour.lua", "--stream", "--timeline", "z.svg"])
    #expect(streamed.status == 2 && streamed.stderr.contains("--timeline needs the records kept"))
  }

  /// Memory stays flat in the length of the trace: a trace five times longer
  /// needs about the same peak (a 3.9-million-record trace peaked at 46 MB).
  @Test func timelineMemoryIsBounded() throws {
    func peak(days: Int) throws -> Int {
      let source = try script("long\(days).lua", """
        local dev = lifesim.device{ ios = 16, model = "iPhone 8", seed = 3 }
        for k = 1, 30 do dev:install{ bundle = string.format("com.example.app%02d", k), footprint_mb = 40 + (k * 67) % 201 } end
        lifesim.workload.user{ zipf = 1.1, switch_every = 30 }:drive(dev, { days = \(days) })
        """)
      let trace = Self.dir.appendingPathComponent("long\(days).jsonl")
      let run = try lifesim(["run", source, "--stream", "--format", "jsonl", "--max-time", "1e8", "-o", trace.path])
      #expect(run.status == 0, "\(run.stderr)")
      let report = Self.dir.appendingPathComponent("peak\(days)")
      let r = try lifesim(["timeline", trace.path, "-o", Self.dir.appendingPathComponent("long\(days).svg").path],
                          // Under AddressSanitizer freed memory sits in a quarantine that grows
                          // with the number of allocations: keep it small, or the peak measures it.
                          env: ["LIFESIM_PEAK_MEMORY_FILE": report.path, "ASAN_OPTIONS": "quarantine_size_mb=1"])
      #expect(r.status == 0, "\(r.stderr)")
      try? FileManager.default.removeItem(at: trace)
      return Int(try String(contentsOf: report, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }
    let short = try peak(days: 1), long = try peak(days: 5)
    #expect(short > 0 && long > 0)
    #expect(Double(long) < Double(short) * 1.2 + 4096, "peak \(short) kB for a day, \(long) kB for five")
  }
}

/// The pictures the documentation shows are committed under docs/pictures,
/// each SVG with its PNG (for pages that cannot show SVG), all made by one
/// command, `./dev.sh pictures`: regenerated here with the commands it lists,
/// the SVGs must be the same bytes, and each PNG what rsvg-convert makes of
/// its SVG. The diagrams are Graphviz's layout, which `./dev.sh` installs.
struct CommittedPictureTests {
  /// The `pictures` list of dev.sh: each picture's file and the lifesim arguments that make it.
  static func commands() throws -> [(file: String, arguments: [String])] {
    let script = try String(contentsOf: repoRoot.appendingPathComponent("dev.sh"), encoding: .utf8)
    let start = try #require(script.range(of: "pictures=(\n"), "dev.sh has no pictures list")
    let list = script[start.upperBound...].prefix { $0 != ")" }
    return list.split(separator: "\n").compactMap { line in
      let entry = line.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
      guard let colon = entry.firstIndex(of: ":") else { return nil }
      return (String(entry[..<colon]), entry[entry.index(after: colon)...].split(separator: " ").map(String.init))
    }
  }

  @Test func theCommittedPicturesAreCurrentAndRender() throws {
    #expect(try runTool(["dot", "-V"]).status == 0, "no Graphviz dot: ./dev.sh installs graphviz")
    let commands = try Self.commands()
    #expect(commands.count == 5, "\(commands)")
    for (file, arguments) in commands {
      let committed = repoRoot.appendingPathComponent("docs/pictures/" + file)
      let fresh = PictureTests.dir.appendingPathComponent("fresh-" + file)
      let r = try lifesim(arguments + [fresh.path])
      #expect(r.status == 0, "\(r.stderr)")
      let made = try String(contentsOf: fresh, encoding: .utf8)
      let kept = try String(contentsOf: committed, encoding: .utf8)
      #expect(made == kept, "docs/pictures/\(file) is out of date: run ./dev.sh pictures")
      try PictureTests.checkRenders(committed.standardizedFileURL)
      let png = committed.deletingPathExtension().appendingPathExtension("png")
      let rendered = PictureTests.dir.appendingPathComponent("fresh-" + png.lastPathComponent)
      #expect(try runTool(["rsvg-convert", committed.path, "-o", rendered.path]).status == 0)
      #expect(FileManager.default.contents(atPath: png.path) == FileManager.default.contents(atPath: rendered.path),
              "docs/pictures/\(png.lastPathComponent) is not rsvg-convert's rendering of \(file): run ./dev.sh pictures")
    }
  }
}
