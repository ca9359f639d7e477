import Foundation
import Testing

/// `lifesim bench` runs every figure and prints each with its reference. Its
/// numbers are checked by running it (docs/performance.md), never here: a
/// timed test would fail on a busy machine.
struct BenchTests {
  @Test func everyFigureRunsAndNamesItsReference() throws {
    // A small experiment keeps the test short in a debug build.
    let experiment = try script("bench-experiment.lua", """
      return lifesim.experiment{ name = "small", params = { n = { 1, 2 } }, run = function(p, seed)
        local dev = lifesim.device{ ios = 17, trace = false }
        local app = dev:install{ bundle = "a" }
        for _ = 1, p.n do dev:launch(app) dev:home() end
        return { opens = dev.stats.opens }
      end }
      """)
    let r = try lifesim(["bench", "--repeat", "1", "--seeds", "1", "--records", "2000", "--batch-runs", "20",
                         "--jobs", "2", "--experiment", experiment])
    #expect(r.status == 0, "\(r.stderr)")
    // A debug build on a busy machine may not separate the handler's cost from
    // noise; then the figure says so instead of a rate.
    #expect(r.stdout.contains("the cost of lua_pcall from C") || r.stdout.contains("dispatch") && r.stdout.contains("not measured"),
            "\(r.stdout)")
    #expect(!r.stdout.contains("inf"))
    for line in ["dispatch", "engine", "records/s (no Lua, trace off)",
                 "trace", "JSONL records/s", "experiment, --jobs 1", "experiment, --jobs 2", "runs/s of bench-experiment.lua",
                 "memory, 7-day 30-app run", "memory, 2,000 records", "memory, 20-run batch", "2 runs",
                 "explore, depth 7, one core", "distinct states/s", "explore, steps per distinct state",
                 "(47,771 steps, 6,423 distinct)"] {
      #expect(r.stdout.contains(line), "no '\(line)' in:\n\(r.stdout)")
    }
  }

  /// --check turns a missed target into exit status 1, after every figure is
  /// printed. The explore figure misses its target (50,000 distinct states a
  /// second) by a wide margin, the more so in a debug build.
  @Test func checkFailsOnAMissedTarget() throws {
    let r = try lifesim(["bench", "--only", "explore", "--repeat", "1", "--check"])
    #expect(r.status == 1, "\(r.stdout)\n\(r.stderr)")
    #expect(r.stdout.contains("explore, depth 7, one core"), "\(r.stdout)")
    #expect(r.stderr.contains("a figure missed its target: explore, depth 7, one core"), "\(r.stderr)")
    let unchecked = try lifesim(["bench", "--only", "explore", "--repeat", "1"])
    #expect(unchecked.status == 0, "\(unchecked.stderr)")
  }

  @Test func badOptionsAreUsageErrors() throws {
    let r = try lifesim(["bench", "--only", "speed"])
    #expect(r.status == 2)
    #expect(r.stderr.contains("--only takes dispatch, engine, trace, experiment, explore, memory"))
  }
}

/// `lifesim run --stream`: the same bytes, written as they are made.
struct StreamTests {
  @Test func aStreamedRunWritesTheSameTrace() throws {
    let path = try script("week.lua", """
      local dev = lifesim.device{ ios = 17, memory_mb = 1000 }
      for k = 1, 8 do dev:install{ bundle = "com.example.app" .. k, footprint_mb = 80 + 40 * k } end
      lifesim.workload.user{ zipf = 1.1, switch_every = 120, session = 900 }:drive(dev, { days = 1 })
      """)
    for format in ["text", "jsonl"] {
      let whole = try lifesim(["run", path, "--format", format])
      let streamed = try lifesim(["run", path, "--format", format, "--stream"])
      #expect(whole.status == 0 && streamed.status == 0, "\(streamed.stderr)")
      #expect(streamed.stdout == whole.stdout)
      #expect(!whole.stdout.isEmpty)
    }
  }

  @Test func queriesAreRefusedAndSecondDevicesTagged() throws {
    let file = try script("stream.lua", """
      local a, b = lifesim.device{ ios = 12 }, lifesim.device{ ios = 12 }
      a:launch(a:install{ bundle = "x" })
      b:launch(b:install{ bundle = "y" })
      print(a.trace.count)
      local ok, err = pcall(function() return a.trace:callbacks() end)
      print(ok, err)
      """)
    let r = try lifesim(["run", file, "--stream", "--format", "jsonl"])
    #expect(r.status == 0, "\(r.stderr)")
    // The second device's records name it; `seq` counts the file's records
    // and `device_seq` keeps the device's own; print() is a log record.
    #expect(r.stdout.contains("{\"device\":2,\"t\":0.000000,\"seq\":9,\"device_seq\":1,\"kind\":\"action\",\"app\":\"y\""))
    #expect(r.stdout.contains("{\"t\":0.000000,\"seq\":1,\"kind\":\"action\",\"app\":\"x\""))
    #expect(r.stdout.contains("trace:callbacks: this device streams its trace as it is made and keeps no records"))
    #expect(r.stdout.contains("\"kind\":\"log\",\"detail\":\"8\"}"))
    var seqs = Set<Int>()
    for line in r.stdout.split(separator: "\n") {
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      let seq = try #require(object?["seq"] as? Int, "not a record: \(line)")
      #expect(seqs.insert(seq).inserted, "seq \(seq) twice")
    }
    #expect(seqs.count == 18)
  }

  /// Without --stream too: two devices in one JSONL file have `device` and a
  /// file-wide `seq`; a print inside a handler is a log record of that app,
  /// between the callbacks around it, in text and JSONL.
  @Test func keptTracesTagDevicesAndPrintsInHandlers() throws {
    let file = try script("two_devices.lua", """
      local a, b = lifesim.device{ ios = 12 }, lifesim.device{ ios = 17 }
      local x = a:install{ bundle = "x" }
      x:on("applicationDidBecomeActive:", function(ctx) print("x is active") end)
      a:launch(x)
      b:launch(b:install{ bundle = "y" })
      """)
    let r = try lifesim(["run", file, "--format", "jsonl"])
    #expect(r.status == 0, "\(r.stderr)")
    var seqs: [Int] = [], devices = Set<Int>()
    var kinds: [String] = []
    for line in r.stdout.split(separator: "\n") {
      let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      seqs.append(try #require(object["seq"] as? Int))
      devices.insert(object["device"] as? Int ?? 1)
      if object["app"] as? String == "x" { kinds.append((object["kind"] as? String ?? "") + ":" + (object["callback"] as? String ?? object["detail"] as? String ?? "")) }
    }
    #expect(Set(seqs).count == seqs.count, "seq is unique in the file")
    #expect(devices == [1, 2])
    let log = try #require(kinds.firstIndex(of: "log:x is active"), "\(kinds)")
    #expect(kinds[log - 1].hasSuffix("applicationDidBecomeActive:"), "the log comes inside its callback: \(kinds)")
    let text = try lifesim(["run", file])
    #expect(text.stdout.contains("x is active"), "\(text.stdout)")
    // A timeline of both devices draws the first device's memory and says so.
    let trace = FileManager.default.temporaryDirectory.appendingPathComponent("two-\(getpid()).jsonl")
    let svg = FileManager.default.temporaryDirectory.appendingPathComponent("two-\(getpid()).svg")
    defer { try? FileManager.default.removeItem(at: trace); try? FileManager.default.removeItem(at: svg) }
    try r.stdout.write(to: trace, atomically: true, encoding: .utf8)
    let t = try lifesim(["timeline", trace.path, "-o", svg.path])
    #expect(t.status == 0, "\(t.stderr)")
    #expect(try String(contentsOf: svg, encoding: .utf8).contains("memory in use (device 1)"))
  }
}
