import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A small experiment: two params, a constraint, seeds, and runs that use the
/// workload, math.random, pairs and tostring, so that anything depending on the
/// worker's history would show. The point mode = "bad" fails on seed 2.
let smallExperiment = """
  local function run(p, seed)
    if p.mode == "bad" and seed == 2 then error("seed 2 of the bad mode fails") end
    local dev = lifesim.device{ ios = 17, memory_mb = p.memory_mb, trace = false }
    for k = 1, 6 do dev:install{ bundle = "app" .. k, footprint_mb = 50 * k } end
    lifesim.workload.user{ zipf = 1.0, switch_every = 60 }:drive(dev, { minutes = p.minutes })
    local keys = {}
    for k in pairs({ a = 1, b = 2, c = 3 }) do keys[#keys + 1] = k end
    local s = dev.stats
    return { cold = s.cold_opens / s.opens, kills = s.jetsam_kills, draw = math.random(1000),
             label = table.concat(keys) .. tostring({}) }
  end
  return lifesim.experiment{
    name = "small",
    params = { memory_mb = { 400, 800 }, minutes = { 30, 60 }, mode = { "good", "bad" } },
    constraint = function(p) return not (p.mode == "bad" and p.memory_mb == 800) end,
    seeds = 3,
    run = run,
  }
  """


struct BatchTests {
  @Test(arguments: ["csv", "jsonl"])
  func jobsAndShardsGiveTheSameBytes(format: String) throws {
    let exp = try script("small_\(format).lua", smallExperiment)
    let one = tempPath("one.\(format)"), four = tempPath("four.\(format)")
    let s0 = tempPath("s0.\(format)"), s1 = tempPath("s1.\(format)"), merged = tempPath("merged.\(format)")
    let a = try lifesim(["batch", exp, "--jobs", "1", "-o", one])
    #expect(a.status == 1, "a run fails, so the batch exits 1: \(a.stderr)")
    #expect(a.stderr.contains("2 of 18 runs failed"), "\(a.stderr)")
    #expect(a.stdout.contains("small: 18 runs at 6 points, 2 failed"), "\(a.stdout)")
    _ = try lifesim(["batch", exp, "--jobs", "4", "-o", four])
    _ = try lifesim(["batch", exp, "--jobs", "2", "--shard", "0/2", "-o", s0])
    _ = try lifesim(["batch", exp, "--jobs", "3", "--shard", "1/2", "-o", s1])
    let m = try lifesim(["merge", s1, s0, "-o", merged])
    #expect(m.status == 0, "\(m.stderr)")
    let reference = contents(one)
    // The header line, (CSV) the column line, and 18 runs.
    #expect(reference.split(separator: "\n").count == (format == "csv" ? 20 : 19))
    #expect(contents(four) == reference)
    #expect(contents(merged) == reference)
    #expect(contents(s0) != reference)
    // Rows carry params, seed, status, metrics, and the failing run's error.
    #expect(reference.contains("seed 2 of the bad mode fails"))
    let header = reference.prefix { $0 != "\n" }
    #expect(header.hasPrefix(format == "csv" ? "# lifesim {\"experiment\":\"small\",\"sha256\":\"" : "{\"lifesim_results\":{\"experiment\":\"small\","))
    #expect(header.contains("\"params\":[{\"name\":\"memory_mb\",\"values\":[400,800]},{\"name\":\"minutes\",\"values\":[30,60]},{\"name\":\"mode\",\"values\":[\"good\",\"bad\"]}],\"seeds\":3,\"runs\":18"), "\(header)")
    if format == "csv" {
      #expect(reference.dropFirst(header.count + 1).hasPrefix("run,memory_mb,minutes,mode,seed,status,cold,draw,kills,label,error\n"))
      #expect(reference.contains("\n0,400,30,good,1,ok,"))
    } else {
      #expect(reference.dropFirst(header.count + 1).hasPrefix("{\"run\":0,\"params\":{\"memory_mb\":400,\"minutes\":30,\"mode\":\"good\"},\"seed\":1,\"status\":\"ok\",\"metrics\":{\"cold\":"))
      #expect(reference.contains("\"status\":\"error\",\"metrics\":{},\"error\":"))
    }
  }

  /// A merge with a shard missing names the runs no part has, leaves no
  /// output, and merges what there is only with --allow-partial.
  @Test func aMergeWithAMissingShardNamesTheRuns() throws {
    let exp = try script("small_gap.lua", smallExperiment)
    let s0 = tempPath("gap0.csv"), s2 = tempPath("gap2.csv"), merged = tempPath("gap.csv")
    _ = try lifesim(["batch", exp, "--shard", "0/3", "-o", s0, "--quiet"])
    _ = try lifesim(["batch", exp, "--shard", "2/3", "-o", s2, "--quiet"])
    let m = try lifesim(["merge", s0, s2, "-o", merged])
    #expect(m.status == 2)
    #expect(m.stderr.contains("runs are in no part (runs "), "\(m.stderr)")
    #expect(m.stderr.contains("--allow-partial"))
    #expect(!FileManager.default.fileExists(atPath: merged))
    let p = try lifesim(["merge", s0, s2, "-o", merged, "--allow-partial"])
    #expect(p.status == 0, "\(p.stderr)")
    #expect(contents(merged).split(separator: "\n").count == 2 + 12)  // the header lines and two shards' runs
    // The last shard missing is a gap too: the header gives the grid's size.
    let early = try lifesim(["merge", s0, "-o", merged])
    #expect(early.status == 2)
    #expect(early.stderr.contains("12 runs are in no part (runs 1–2, 4–5,"), "\(early.stderr)")
  }

  /// A shard's file resumed as the whole batch would get runs out of order:
  /// refused, and the file is left as it was. Rows out of order are refused
  /// by summary too.
  @Test func resumingAnotherShardsFileIsRefused() throws {
    let exp = try script("small_resume_shard.lua", smallExperiment)
    let part = tempPath("resume_shard.csv")
    _ = try lifesim(["batch", exp, "--shard", "0/3", "-o", part, "--quiet"])
    let before = contents(part)
    let r = try lifesim(["batch", exp, "-o", part, "--resume", "--quiet"])
    #expect(r.status == 2)
    #expect(r.stderr.contains("holds run 15 but not run 1: resuming would write rows out of run order"), "\(r.stderr)")
    #expect(contents(part) == before)
    // The same shard resumes (nothing left to do), and its rows stay as they were.
    let same = try lifesim(["batch", exp, "--shard", "0/3", "-o", part, "--resume", "--quiet"])
    #expect(same.status == 0, "nothing left to run, none failed now: \(same.stderr)")
    #expect(contents(part) == before)
    // Rows out of run order (two parts concatenated by hand) are refused by summary.
    let s1 = tempPath("resume_shard1.csv")
    _ = try lifesim(["batch", exp, "--shard", "1/3", "-o", s1, "--quiet"])
    let catted = tempPath("catted.csv")
    let rows1 = contents(s1).split(separator: "\n").dropFirst(2).joined(separator: "\n")
    try (before + rows1 + "\n").write(toFile: catted, atomically: true, encoding: .utf8)
    let sum = try lifesim(["summary", catted])
    #expect(sum.status == 2 && sum.stderr.contains("the rows are not in run order"), "\(sum.stderr)")
  }

  /// merge never overwrites one of its parts, and a refused merge leaves an
  /// existing output as it was.
  @Test func mergeKeepsItsInputsAndAnOldOutput() throws {
    let exp = try script("small_merge_keep.lua", smallExperiment)
    let parts = (0..<3).map { tempPath("keep\($0).csv") }
    for (i, p) in parts.enumerated() { _ = try lifesim(["batch", exp, "--shard", "\(i)/3", "-o", p, "--quiet"]) }
    let first = contents(parts[0])
    let into = try lifesim(["merge"] + parts + ["-o", parts[0]])
    #expect(into.status == 2 && into.stderr.contains("is the part"), "\(into.stderr)")
    #expect(contents(parts[0]) == first)
    let out = tempPath("keep-merged.csv")
    try "an earlier merge\n".write(toFile: out, atomically: true, encoding: .utf8)
    let gap = try lifesim(["merge", parts[0], parts[2], "-o", out])
    #expect(gap.status == 2)
    #expect(contents(out) == "an earlier merge\n", "a refused merge leaves the old output")
    let ok = try lifesim(["merge"] + parts + ["-o", out])
    #expect(ok.status == 0, "\(ok.stderr)")
    #expect(contents(out).split(separator: "\n").count == 2 + 18)
    // Parts that repeat a run are refused, and the old output stays.
    let copy = tempPath("keep0-copy.csv")
    try first.write(toFile: copy, atomically: true, encoding: .utf8)
    let before = contents(out)
    let overlap = try lifesim(["merge", parts[0], copy, parts[1], parts[2], "-o", out])
    #expect(overlap.status == 2 && overlap.stderr.contains("run 0 is in both"), "\(overlap.stderr)")
    #expect(overlap.stderr.contains("the parts overlap"))
    #expect(contents(out) == before)
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: URL(fileURLWithPath: out).deletingLastPathComponent().path)
      .filter { $0.contains(".merging-") }
    #expect(leftovers.isEmpty, "\(leftovers)")
  }

  /// Slurm's and Kubernetes' indexes give the same shards as --shard.
  @Test func shardsFromTheEnvironment() throws {
    let exp = try script("small_env.lua", smallExperiment)
    let explicit = tempPath("explicit.csv"), slurm = tempPath("slurm.csv"), k8s = tempPath("k8s.csv")
    _ = try lifesim(["batch", exp, "--shard", "1/3", "-o", explicit, "--quiet"])
    let s = try lifesim(["batch", exp, "-o", slurm],
                        env: ["SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_COUNT": "3"])
    #expect(s.stderr.contains("shard 1/3 (from SLURM_ARRAY_TASK_ID=2)"), "\(s.stderr)")
    let k = try lifesim(["batch", exp, "--shards", "3", "-o", k8s], env: ["JOB_COMPLETION_INDEX": "1"])
    #expect(k.stderr.contains("shard 1/3 (from JOB_COMPLETION_INDEX=1)"), "\(k.stderr)")
    #expect(contents(slurm) == contents(explicit))
    #expect(contents(k8s) == contents(explicit))
    let missing = try lifesim(["batch", exp, "-o", k8s], env: ["JOB_COMPLETION_INDEX": "1"])
    #expect(missing.status == 2)
    #expect(missing.stderr.contains("--shards N"), "\(missing.stderr)")
  }

  /// SIGKILL in the middle, then --resume: the same file as a batch never killed.
  @Test func killedThenResumedEqualsUninterrupted() throws {
    let exp = try script("slow.lua", """
      return lifesim.experiment{
        name = "slow",
        params = { memory_mb = { 300, 500, 700, 900 } },
        seeds = 40,
        run = function(p, seed)
          local dev = lifesim.device{ memory_mb = p.memory_mb, trace = false }
          for k = 1, 8 do dev:install{ bundle = "app" .. k, footprint_mb = 40 * k } end
          lifesim.workload.user{ switch_every = 30 }:drive(dev, { hours = 3 })
          return { cold = dev.stats.cold_opens, kills = dev.stats.jetsam_kills }
        end,
      }
      """)
    let whole = tempPath("whole.csv"), killed = tempPath("killed.csv")
    let w = try lifesim(["batch", exp, "-o", whole, "--quiet"])
    #expect(w.status == 0, "\(w.stderr)")

    let p = Process()
    p.executableURL = binary
    p.arguments = ["batch", exp, "-o", killed, "--jobs", "2", "--quiet"]
    p.currentDirectoryURL = repoRoot
    p.standardOutput = FileHandle.nullDevice
    p.standardError = FileHandle.nullDevice
    try p.run()
    // Wait for some rows, then kill without warning.
    var rows = 0
    for _ in 0..<2000 where rows < 20 {
      usleep(10_000)
      rows = contents(killed).split(separator: "\n").count - 1
    }
    kill(p.processIdentifier, SIGKILL)
    p.waitUntilExit()
    let partial = contents(killed).split(separator: "\n").count - 1
    #expect(partial >= 20 && partial < 160, "the kill must land mid-batch: \(partial) rows")

    let r = try lifesim(["batch", exp, "-o", killed, "--resume"])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stderr.contains("runs were already in"), "\(r.stderr)")
    #expect(contents(killed) == contents(whole))
    // Resuming a finished file runs nothing and changes nothing.
    let again = try lifesim(["batch", exp, "-o", killed, "--resume"])
    #expect(again.stderr.contains("160 runs were already in"), "\(again.stderr)")
    #expect(contents(killed) == contents(whole))
  }

  /// Rows are written and dropped: ten times the runs, about the same memory.
  @Test func memoryStaysFlatAsRunsGrow() throws {
    let source = { (seeds: Int) in """
      return lifesim.experiment{
        name = "tiny", params = { x = { 1, 2 } }, seeds = \(seeds),
        run = function(p, seed)
          local dev = lifesim.device{ trace = false }
          dev:launch(dev:install{ bundle = "a" })
          return { x = p.x * seed, a = 1, b = 2, c = 3, d = string.rep("a label that takes room ", 40) .. seed }
        end,
      }
      """ }
    let small = try script("tiny_small.lua", source(500)), large = try script("tiny_large.lua", source(5000))
    func peak(_ exp: String) throws -> Int {
      // Under AddressSanitizer, freed memory waits in a quarantine that grows
      // with the number of frees; without one, the peak is the program's own.
      let r = try lifesim(["batch", exp, "-o", tempPath("tiny.jsonl"), "--jobs", "2", "--force"],
                          env: ["ASAN_OPTIONS": "quarantine_size_mb=0"])
      #expect(r.status == 0, "\(r.stderr)")
      guard let range = r.stderr.range(of: #"peak memory (\d+) MB"#, options: .regularExpression) else { return -1 }
      return Int(r.stderr[range].split(separator: " ")[2]) ?? -1
    }
    let p1 = try peak(small), p2 = try peak(large)
    #expect(p1 > 0 && p2 > 0)
    // Holding the 10,000 rows (each with a 1 kB label) would take over 10 MB more.
    #expect(p2 <= p1 + 6, "1,000 runs: \(p1) MB; 10,000 runs: \(p2) MB")
  }

  @Test func summaryPlotAndBadInput() throws {
    let exp = try script("small_plot.lua", smallExperiment)
    let out = tempPath("plot.csv"), svg = tempPath("plot.svg")
    let twoParams = try script("two_params.lua", smallExperiment.replacingOccurrences(of: "{ 30, 60 }", with: "{ 30 }"))
    let b = try lifesim(["batch", twoParams, "-o", out, "--quiet", "--plot", "cold", "--plot-output", svg])
    #expect(b.status == 1, "\(b.stderr)")
    let chart = contents(svg)
    #expect(chart.hasPrefix("<svg"))
    #expect(chart.contains(">memory_mb</text>"), "the x axis: the numeric param")
    #expect(chart.contains(">mode</text>"), "the legend: the other param")
    _ = try lifesim(["batch", exp, "-o", out, "--quiet", "--force"])
    let s = try lifesim(["summary", out])
    #expect(s.status == 0)
    #expect(s.stdout.contains("95% CI"))
    let p = try lifesim(["plot", out, "--metric", "cold", "--x", "minutes", "-o", svg])
    #expect(p.status == 2, "memory_mb also varies")
    #expect(p.stderr.contains("--where"), "\(p.stderr)")
    let q = try lifesim(["plot", out, "--metric", "cold", "--x", "minutes", "--series", "mode", "--where", "memory_mb=400", "-o", svg])
    #expect(q.status == 0, "\(q.stderr)")
    #expect(contents(svg).contains(">mode</text>"))
    #expect(try lifesim(["plot", out, "--metric", "colt", "-o", svg]).stderr.contains("metrics: cold"))
    #expect(try lifesim(["batch", exp, "--shard", "2/2"]).status == 2)
    #expect(try lifesim(["batch", exp, "-o", "results.txt"]).status == 2)
    let notExp = try script("not_an_experiment.lua", "local x = 1")
    let n = try lifesim(["batch", notExp, "-o", out])
    #expect(n.status == 2)
    #expect(n.stderr.contains("return lifesim.experiment"), "\(n.stderr)")
    // A resumed file must be this experiment's.
    let other = try script("other.lua", smallExperiment.replacingOccurrences(of: "seeds = 3", with: "seeds = 2"))
    let mismatch = try lifesim(["batch", other, "-o", out, "--resume"])
    #expect(mismatch.status == 2)
    #expect(mismatch.stderr.contains("different experiment"), "\(mismatch.stderr)")
  }
}
