import Foundation
import Testing

/// What users hit in their first hour: a force-quit of an app with nothing to
/// quit, a tab in a printed line, a device method called by another tool's
/// name, `batch --quiet`, a resume with other seeds, and a plot of a few
/// versions.
struct SmallThingsTests {
  func script(_ text: String) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("lifesim-small-\(UUID().uuidString).lua")
    try text.write(to: url, atomically: true, encoding: .utf8)
    return url
  }

  @Test func aForceQuitOfNoProcessIsNotedNotLoggedAsAKill() throws {
    let never = try script("""
      local dev = lifesim.device{ ios = 17 }
      local app = dev:install{ bundle = "com.example.a" }
      dev:kill(app)
      """)
    defer { try? FileManager.default.removeItem(at: never) }
    let r = try lifesim(["run", never.path])
    #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
    #expect(r.stdout.contains("com.example.a action kill (not running, and no card in the switcher: nothing to swipe away)"),
            "\(r.stdout)")
    #expect(r.stdout.split(separator: "\n").filter { $0.contains(" kill ") }.count == 1, "one line, the action: \(r.stdout)")

    // Jetsam ended its process, its card stays: the swipe removes the card only, and says so.
    let card = try script("""
      local dev = lifesim.device{ ios = 17 }
      local app = dev:install{ bundle = "com.example.a" }
      dev:launch(app); dev:home(); dev:memory_pressure()
      assert(app.state == "notRunning")
      dev:kill(app)
      """)
    defer { try? FileManager.default.removeItem(at: card) }
    let c = try lifesim(["run", card.path])
    #expect(c.status == 0, "\(c.stderr)")
    #expect(c.stdout.contains("com.example.a action kill (not running: only its card leaves the switcher)"), "\(c.stdout)")
  }

  /// Under --unsafe a batch loads its file again for each run: a file its
  /// top level opened and a run closed is not revived by the next run.
  @Test func anUnsafeBatchLoadsItsFileForEachRun() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lifesim-unsafe-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    try """
      local f = io.open("log.txt", "a")
      return lifesim.experiment{ name = "files", params = { n = { 1, 2 } }, seeds = 2,
        run = function(p, seed) f:write(p.n, " ", seed, "\\n"); f:close(); return { v = p.n } end }
      """.write(to: dir.appendingPathComponent("files.lua"), atomically: true, encoding: .utf8)
    let r = try lifesim(["batch", "files.lua", "--unsafe", "-o", "out.csv", "--jobs", "1", "--quiet"], in: dir)
    #expect(r.status == 0 && r.stderr.isEmpty, "\(r.status): \(r.stderr)")
    let log = try String(contentsOf: dir.appendingPathComponent("log.txt"), encoding: .utf8)
    #expect(log.split(separator: "\n").count == 4, "\(log)")
  }

  @Test func aPrintedTabIsATab() throws {
    let url = try script("local dev = lifesim.device{}\nprint(\"a\", 1)\nprint(\"line\\nbreak\")\n")
    defer { try? FileManager.default.removeItem(at: url) }
    let r = try lifesim(["run", url.path])
    #expect(r.stdout.contains("log a\t1\n"), "\(r.stdout)")
    #expect(r.stdout.contains("log line\\nbreak\n"), "a newline still cannot end a record's line")
  }

  @Test func aDeviceMethodByAnotherNameIsSuggested() throws {
    let url = try script("local dev = lifesim.device{}\nlocal app = dev:install{ bundle = 'com.example.a' }\ndev:swipe_away(app)\n")
    defer { try? FileManager.default.removeItem(at: url) }
    let r = try lifesim(["run", url.path])
    #expect(r.status == 2 && r.stderr.contains("device has no field 'swipe_away' (did you mean 'kill'?)"), "\(r.stderr)")
    let typo = try script("local dev = lifesim.device{}\ndev:hoem()\n")
    defer { try? FileManager.default.removeItem(at: typo) }
    #expect(try lifesim(["run", typo.path]).stderr.contains("(did you mean 'home'?)"), "a near spelling still wins")
  }

  static let grid = """
    return lifesim.experiment{
      name = "small", params = { ios = { 12, 13, 17, 26 } }, seeds = 2,
      run = function(p, seed) return { v = p.ios + seed } end,
    }
    """

  @Test func quietPrintsNothingButErrorsAndAResumeNamesItsSeeds() throws {
    let exp = try script(Self.grid)
    let out = FileManager.default.temporaryDirectory.appendingPathComponent("lifesim-small-\(UUID().uuidString).csv")
    defer { try? FileManager.default.removeItem(at: exp); try? FileManager.default.removeItem(at: out) }
    let q = try lifesim(["batch", exp.path, "-o", out.path, "--quiet"])
    #expect(q.status == 0 && q.stdout.isEmpty && q.stderr.isEmpty, "\(q.stdout)\(q.stderr)")
    let again = try lifesim(["batch", exp.path, "-o", out.path, "--resume", "--seeds", "3", "--quiet"])
    #expect(again.status == 2, "\(again.stderr)")
    #expect(again.stderr.contains("was written with --seeds 2, not 3: run with --seeds 2 to continue it"), "\(again.stderr)")

    // A few versions are categories in order, equally spaced; --x-continuous puts them to scale.
    let svg = out.deletingPathExtension().appendingPathExtension("svg")
    defer { try? FileManager.default.removeItem(at: svg) }
    func tickXs(_ extra: [String]) throws -> [Double] {
      let p = try lifesim(["plot", out.path, "--metric", "v", "-o", svg.path] + extra)
      #expect(p.status == 0, "\(p.stderr)")
      let text = try String(contentsOf: svg, encoding: .utf8)
      // The x labels: text anchored in the middle just under the plot.
      return ["12", "13", "17", "26"].compactMap { label in
        text.range(of: "text-anchor=\"middle\">\(label)</text>").flatMap { r in
          let before = text[..<r.lowerBound]
          let x = before.range(of: "<text x=\"", options: .backwards).map { before[$0.upperBound...].prefix { $0 != "\"" } }
          return x.flatMap { Double($0) }
        }
      }
    }
    let ordinal = try tickXs([])
    #expect(ordinal.count == 4, "\(ordinal)")
    if ordinal.count == 4 {
      #expect(abs((ordinal[1] - ordinal[0]) - (ordinal[3] - ordinal[2])) < 0.2, "equally spaced: \(ordinal)")
    }
    let scaled = try tickXs(["--x-continuous"])
    #expect(!scaled.elementsEqual(ordinal), "to scale, the ticks move: \(scaled)")
  }
}
