import Foundation
import Testing

/// An experiment whose runs change what they find: a file-level local, a
/// global set when the file loads, a library table, a catalogue table at file
/// level, and garbage for the collector; and that returns what it found,
/// `collectgarbage("count")` first. If runs shared their state, each metric
/// would count the runs the worker made before.
let leakyExperiment = """
  local calls = 0
  total = 0
  local catalogue = {}
  for k = 1, 5 do catalogue[k] = { bundle = "app" .. k, footprint_mb = 40 * k } end

  local function run(p, seed)
    local memory = collectgarbage("count")
    calls = calls + 1
    total = total + p.x
    string.tally = (string.tally or 0) + 1
    catalogue[1].footprint_mb = catalogue[1].footprint_mb + 10
    local dev = lifesim.device{ ios = 17, memory_mb = 1000, trace = false }
    for _, c in ipairs(catalogue) do dev:install{ bundle = c.bundle, footprint_mb = c.footprint_mb } end
    lifesim.workload.user{ zipf = 1.0, switch_every = 60 }:drive(dev, { minutes = 10 * p.x })
    local junk = {}
    for i = 1, 300 * seed do junk[i] = { i, tostring(i) } end
    return { calls = calls, total = total, tally = string.tally, footprint = catalogue[1].footprint_mb,
             memory = memory, opens = dev.stats.opens }
  end

  return lifesim.experiment{ name = "leaky", params = { x = { 1, 2, 3 } }, seeds = 4, run = run }
  """

struct BatchIsolationTests {
  /// A fresh path for each output: no batch writes over another's file.
  static func output(_ name: String) -> String { tempPath("\(UUID().uuidString.prefix(8))-\(name)") }

  /// The rows of a CSV result file, as column -> value.
  static func rows(_ text: String) -> [[String: String]] {
    let lines = text.split(separator: "\n").filter { !$0.hasPrefix("#") }
    guard let columns = lines.first?.split(separator: ",", omittingEmptySubsequences: false).map(String.init) else { return [] }
    return lines.dropFirst().map { line in
      Dictionary(uniqueKeysWithValues: zip(columns, line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)))
    }
  }

  /// `--jobs 1` and `--jobs 2`, three times each, and two shards merged:
  /// the same bytes, whatever the script does to the state it runs in.
  static func expectSameBytes(_ exp: String, extra: [String] = []) throws -> String {
    var files: [String] = []
    for jobs in ["1", "2"] {
      for _ in 0..<3 {
        let out = output("jobs\(jobs).csv")
        let r = try lifesim(["batch", exp, "--jobs", jobs, "--quiet", "-o", out] + extra)
        #expect(r.status == 0, "--jobs \(jobs): \(r.stderr)")
        files.append(out)
      }
    }
    let s0 = output("s0.csv"), s1 = output("s1.csv"), merged = output("merged.csv")
    #expect(try lifesim(["batch", exp, "--jobs", "2", "--shard", "0/2", "--quiet", "-o", s0] + extra).status == 0)
    #expect(try lifesim(["batch", exp, "--jobs", "1", "--shard", "1/2", "--quiet", "-o", s1] + extra).status == 0)
    let m = try lifesim(["merge", s1, s0, "-o", merged])
    #expect(m.status == 0, "\(m.stderr)")
    files.append(merged)
    let reference = contents(files[0])
    for f in files.dropFirst() { #expect(contents(f) == reference, "\(f) differs from \(files[0]):\n\(contents(f))\n---\n\(reference)") }
    return reference
  }

  @Test func everyRunStartsFromTheStateAfterLoading() throws {
    let exp = try script("leaky.lua", leakyExperiment)
    let reference = try Self.expectSameBytes(exp)
    let rows = Self.rows(reference)
    #expect(rows.count == 12, "\(reference)")
    for row in rows {
      #expect(row["status"] == "ok", "\(row)")
      // Each run saw the state the file left, not the last run's.
      #expect(row["calls"] == "1", "\(row)")
      #expect(row["total"] == row["x"], "\(row)")
      #expect(row["tally"] == "1", "\(row)")
      #expect(row["footprint"] == "50", "\(row)")
      // The collector's count is the same at the start of every run.
      #expect(row["memory"] == rows[0]["memory"], "\(row)")
    }
    #expect(Double(rows[0]["memory"] ?? "") ?? 0 > 0, "\(rows[0])")
  }

  /// The bytes of the state after loading are the same in every process:
  /// a run in a batch of one run reads the collector's count that it reads
  /// in a batch of many.
  @Test func theCollectorsCountIsTheSameInEveryProcess() throws {
    let exp = try script("leaky_count.lua", leakyExperiment)
    let out = Self.output("all.csv")
    #expect(try lifesim(["batch", exp, "--jobs", "2", "--quiet", "-o", out]).status == 0)
    let all = Self.rows(contents(out))
    let last = Self.output("last.csv")
    // Run 11 alone: shard 11 of 12.
    #expect(try lifesim(["batch", exp, "--shard", "11/12", "--quiet", "-o", last]).status == 0)
    let alone = Self.rows(contents(last))
    #expect(alone.count == 1 && all.count == 12)
    #expect(alone.first?["memory"] == all.last?["memory"], "\(alone) vs \(all.last ?? [:])")
    #expect(alone.first == all.last)
  }

  /// Globals a run sets are gone before the next run: accepted, and
  /// never seen by a later run.
  @Test func aGlobalSetByARunDoesNotReachTheNext() throws {
    let exp = try script("global_isolated.lua", """
      return lifesim.experiment{ name = "g", seeds = 4,
        run = function(p, seed)
          local before = counter
          counter = (counter or 0) + 1
          return { n = counter, seen = before == nil and 0 or 1 }
        end }
      """)
    let reference = try Self.expectSameBytes(exp)
    let rows = Self.rows(reference)
    #expect(rows.count == 4)
    for row in rows {
      #expect(row["status"] == "ok" && row["n"] == "1" && row["seen"] == "0", "\(row)")
    }
  }

  /// Weak tables are blocked in the sandbox; with --unsafe, where they are
  /// allowed, a weak table at file level starts empty in every run, and what
  /// the collector took from it depends on that run alone.
  @Test func aWeakTableStartsEmptyInEveryRun() throws {
    let exp = try script("weak.lua", """
      local cache = setmetatable({}, { __mode = "v" })
      local n = 0
      return lifesim.experiment{ name = "weak", params = { x = { 1, 2 } }, seeds = 3,
        run = function(p, seed)
          local found = 0
          for _ in pairs(cache) do found = found + 1 end
          for i = 1, 500 * seed do n = n + 1; cache[n] = { i } end
          local kept = 0
          for _ in pairs(cache) do kept = kept + 1 end
          return { found = found, kept = kept, memory = collectgarbage("count") }
        end }
      """)
    let reference = try Self.expectSameBytes(exp, extra: ["--unsafe"])
    let rows = Self.rows(reference)
    #expect(rows.count == 6)
    for row in rows { #expect(row["status"] == "ok" && row["found"] == "0", "\(row)") }
  }

  /// Under an address-space limit that leaves no room for a worker's saved
  /// state, the worker loads the file again for each run: slower, and the
  /// same bytes.
  @Test(.enabled(if: !binaryIsSanitized, "a sanitizer reserves more address space than the limit"))
  func withoutRoomForTheSavedStateRunsStillStartFresh() throws {
    let exp = try script("leaky_limited.lua", leakyExperiment)
    let free = Self.output("free.csv"), limited = Self.output("limited.csv")
    #expect(try lifesim(["batch", exp, "--jobs", "1", "--quiet", "-o", free]).status == 0)
    let r = try runTool(["/bin/sh", "-c", "ulimit -v 1000000; exec \"$0\" \"$@\"", binary.path,
                         "batch", exp, "--jobs", "4", "--quiet", "-o", limited], timeout: 120)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stderr.contains("it loads \(exp) again before each run instead"), "\(r.stderr)")
    #expect(contents(limited) == contents(free))
  }

  /// The memory cap means what it means in one run: a run past it fails
  /// with the cap's message, and the runs after it start as the others do.
  @Test func theMemoryCapIsPerRun() throws {
    let exp = try script("greedy.lua", """
      return lifesim.experiment{ name = "greedy", seeds = 4,
        run = function(p, seed)
          local memory = collectgarbage("count")
          if seed == 2 then
            local t = {}
            for i = 1, 1e7 do t[i] = ("x"):rep(64) .. i end
          end
          return { memory = memory }
        end }
      """)
    let out = Self.output("greedy.csv")
    let r = try lifesim(["batch", exp, "--jobs", "1", "--max-memory", "16", "--quiet", "-o", out])
    #expect(r.status == 1, "\(r.stderr)")
    let rows = Self.rows(contents(out))
    #expect(rows.count == 4)
    #expect(rows.map { $0["status"] ?? "" } == ["ok", "error", "ok", "ok"], "\(contents(out))")
    #expect(contents(out).contains("greedy.lua:6: not enough memory: the script exceeded its memory cap of 16 MB (--max-memory)"),
            "\(contents(out))")
    #expect(rows[0]["memory"] == rows[2]["memory"] && rows[2]["memory"] == rows[3]["memory"], "\(rows)")
  }

  /// An error the batch finds in what `run` returned names where `run` is.
  @Test func aBadResultNamesTheRunFunctionsPlace() throws {
    let exp = try script("bad_result.lua", """
      local function run(p, seed)
        return seed
      end
      return lifesim.experiment{ name = "bad", seeds = 1, run = run }
      """)
    let out = Self.output("bad.csv")
    let r = try lifesim(["batch", exp, "--quiet", "-o", out])
    #expect(r.status == 1)
    #expect(contents(out).contains("bad_result.lua:1: run must return a table of metrics"), "\(contents(out))")
  }
}

/// `lifesim bench` shows what starting each run from the state after loading costs.
struct IsolationBenchTests {
  @Test func theBenchShowsTheCostOfAFreshStatePerRun() throws {
    let experiment = try script("bench-isolation.lua", """
      return lifesim.experiment{ name = "small", params = { n = { 1, 2 } }, seeds = 2, run = function(p, seed)
        local dev = lifesim.device{ ios = 17, trace = false }
        local app = dev:install{ bundle = "a" }
        for _ = 1, p.n do dev:launch(app) dev:home() end
        return { opens = dev.stats.opens }
      end }
      """)
    let r = try lifesim(["bench", "--only", "experiment", "--repeat", "1", "--jobs", "2", "--experiment", experiment])
    #expect(r.status == 0, "\(r.stderr)")
    let line = r.stdout.split(separator: "\n").first { $0.contains("experiment, fresh state per run") }
    #expect(line?.contains("µs per run (") == true && line?.contains("% of a run at --jobs 1)") == true
              && line?.contains("target ≤ 2 %") == true, "\(r.stdout)")
  }
}
