import Foundation
import Testing

/// `lifesim run --format chrome`: Trace Event Format JSON for
/// Perfetto and chrome://tracing. Checked on the trace of every script under
/// `Scripts/`: valid JSON, every event well formed, no pid 0, complete events
/// with a duration, `B`/`E` pairs that nest, and no two slices on one thread
/// that overlap without nesting (Perfetto would move one to an overflow track).
struct ChromeTraceTests {
  struct Slice {
    var start: Int64
    var end: Int64
    var name: String
  }

  /// The problems of one document; empty when it is well formed.
  static func problems(in data: Data) -> [String] {
    guard let top = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
          let events = top["traceEvents"] as? [[String: Any]] else { return ["not a JSON object with traceEvents"] }
    var found: [String] = []
    var slices: [String: [Slice]] = [:]
    var open: [String: [String]] = [:]  // B events waiting for their E, by thread
    var namedProcesses = Set<Int>(), usedProcesses = Set<Int>()
    for e in events {
      guard let ph = e["ph"] as? String, let pid = e["pid"] as? Int, let tid = e["tid"] as? Int,
            let ts = (e["ts"] as? NSNumber)?.int64Value, let name = e["name"] as? String else {
        found.append("malformed event \(e)")
        continue
      }
      if pid == 0 { found.append("pid 0: \(e)") }
      let thread = "\(pid)/\(tid)"
      switch ph {
      case "M":
        if name == "process_name" { namedProcesses.insert(pid) }
      case "X":
        usedProcesses.insert(pid)
        guard let dur = (e["dur"] as? NSNumber)?.int64Value, dur >= 0 else {
          found.append("X without a duration: \(e)")
          continue
        }
        slices[thread, default: []].append(Slice(start: ts, end: ts + dur, name: name))
      case "B":
        open[thread, default: []].append(name)
      case "E":
        if open[thread]?.popLast() == nil { found.append("E without B on \(thread)") }
      case "i", "I", "C":
        usedProcesses.insert(pid)
      default:
        found.append("unexpected phase \(ph)")
      }
    }
    for (thread, names) in open where !names.isEmpty { found.append("B without E on \(thread): \(names)") }
    for pid in usedProcesses.subtracting(namedProcesses) { found.append("process \(pid) has no name") }
    for (thread, list) in slices {
      // Longest first among equal starts: a slice must end within the one it starts in.
      var stack: [Slice] = []
      for s in list.sorted(by: { ($0.start, -$0.end) < ($1.start, -$1.end) }) {
        while let last = stack.last, last.end <= s.start {
          stack.removeLast()
        }
        if let last = stack.last, s.end > last.end {
          found.append("overlap on \(thread): \(last.name) [\(last.start), \(last.end)] and \(s.name) [\(s.start), \(s.end)]")
        }
        stack.append(s)
      }
    }
    return found
  }

  /// The memory counter moves with every change of the memory in use, not
  /// only with the memory level: the tour never changes level.
  @Test func theMemoryCounterFollowsAppStates() throws {
    let r = try lifesim(["run", "Scripts/tour.lua", "--format", "chrome"])
    #expect(r.status == 0, "\(r.stderr)")
    let top = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
    let events = try #require(top["traceEvents"] as? [[String: Any]])
    let counter = events.filter { $0["ph"] as? String == "C" && $0["name"] as? String == "memory (MB)" }
    let values = counter.compactMap { ($0["args"] as? [String: Any])?["used"] as? Double }
    #expect(values.count >= 2 && Set(values).count >= 2, "\(counter)")
    #expect(zip(values, values.dropFirst()).allSatisfy { $0 != $1 }, "a repeated value adds no point: \(values)")
  }

  @Test func everyScriptGivesAWellFormedDocument() throws {
    let scripts = try #require(FileManager.default.enumerator(atPath: repoRoot.appendingPathComponent("Scripts").path))
      .compactMap { $0 as? String }.filter { $0.hasSuffix(".lua") }.sorted()
    let out = FileManager.default.temporaryDirectory.appendingPathComponent("lifesim-chrome-\(getpid()).json")
    defer { try? FileManager.default.removeItem(at: out) }
    var events = 0
    for name in scripts {
      _ = try lifesim(["run", "Scripts/" + name, "--format", "chrome", "-o", out.path])
      let data = try Data(contentsOf: out)
      let problems = Self.problems(in: data)
      #expect(problems.isEmpty, "\(name): \(problems.prefix(5))")
      events += ((try? JSONSerialization.jsonObject(with: data) as? [String: Any])?["traceEvents"] as? [Any])?.count ?? 0
    }
    #expect(events > 10_000)
  }

  @Test func theCheckerCatchesOverlapsAndMissingFields() {
    let overlapping = #"{"traceEvents":[{"ph":"M","name":"process_name","pid":1,"tid":0,"ts":0,"args":{"name":"a"}},{"ph":"X","name":"a","pid":1,"tid":1,"ts":0,"dur":10},{"ph":"X","name":"b","pid":1,"tid":1,"ts":5,"dur":10}]}"#
    #expect(Self.problems(in: Data(overlapping.utf8)).contains { $0.hasPrefix("overlap") })
    let nested = #"{"traceEvents":[{"ph":"M","name":"process_name","pid":1,"tid":0,"ts":0,"args":{"name":"a"}},{"ph":"X","name":"a","pid":1,"tid":1,"ts":0,"dur":10},{"ph":"X","name":"b","pid":1,"tid":1,"ts":5,"dur":5},{"ph":"X","name":"c","pid":1,"tid":1,"ts":10,"dur":0}]}"#
    #expect(Self.problems(in: Data(nested.utf8)).isEmpty)
    let bad = #"{"traceEvents":[{"ph":"X","name":"a","pid":0,"tid":1,"ts":0},{"ph":"B","name":"b","pid":2,"tid":1,"ts":0}]}"#
    let found = Self.problems(in: Data(bad.utf8))
    #expect(found.contains { $0.hasPrefix("pid 0") })
    #expect(found.contains { $0.hasPrefix("X without a duration") })
    #expect(found.contains { $0.hasPrefix("B without E") })
  }

  /// Work in a handler makes a slice as long as the work; states are slices
  /// on their own thread; a second device's pids start at 1001; --stream
  /// writes the same document.
  @Test func slicesLastTheirWorkAndDevicesGetTheirOwnPids() throws {
    let path = try script("chrome.lua", """
      local a = lifesim.device{ ios = 12 }
      local app = a:install{ bundle = "com.example.a" }
      app:on("applicationDidEnterBackground:", function(ctx) ctx:work(3) end)
      a:launch(app)
      a:home()
      a:advance(60)
      local b = lifesim.device{ ios = 17 }
      b:launch(b:install{ bundle = "com.example.b" })
      print("done")
      """)
    let whole = try lifesim(["run", path, "--format", "chrome"])
    #expect(whole.status == 0, "\(whole.stderr)")
    #expect(Self.problems(in: Data(whole.stdout.utf8)).isEmpty)
    let top = try #require(try JSONSerialization.jsonObject(with: Data(whole.stdout.utf8)) as? [String: Any])
    let events = try #require(top["traceEvents"] as? [[String: Any]])
    let background = try #require(events.first { ($0["name"] as? String) == "-[AppDelegate applicationDidEnterBackground:]" })
    #expect((background["dur"] as? Int) == 3_000_000)
    #expect(events.contains { ($0["name"] as? String) == "suspended" && ($0["ph"] as? String) == "X" && ($0["tid"] as? Int) == 1 })
    #expect(events.contains { ($0["pid"] as? Int) == 1002 && ($0["name"] as? String) == "process_name" })
    #expect(events.contains { ($0["name"] as? String) == "done" && ($0["ph"] as? String) == "i" })
    // Streamed, the first device's open states close when the run ends, after
    // the second device's events: the same events, in another order.
    let streamed = try lifesim(["run", path, "--format", "chrome", "--stream"])
    func lines(_ text: String) -> [Substring] {
      text.split(separator: "\n").map { $0.hasSuffix(",") ? $0.dropLast() : $0 }.sorted()
    }
    #expect(lines(streamed.stdout) == lines(whole.stdout))
  }
}
