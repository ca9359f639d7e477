import Foundation
import LifeSimBatch
import LifeSimEngine
import LifeSimLua
import LifeSimPlatform

/// One figure of `lifesim bench`: a rate, and its ratio to a reference
/// measured in the same run.
public struct BenchFigure: Sendable {
  public var name: String
  /// The median of the repetitions.
  public var value: Double
  public var unit: String
  /// The reference's value in the same unit, and what it is.
  public var reference: Double?
  public var referenceName: String?
  /// The figure's target, as text ("≤ 3×"), and whether it is met.
  public var target: String?
  public var met: Bool?

  public var ratio: Double? { reference.map { value / $0 } }

  public init(name: String, value: Double, unit: String, reference: Double? = nil, referenceName: String? = nil,
              target: String? = nil, met: Bool? = nil) {
    self.name = name
    self.value = value
    self.unit = unit
    self.reference = reference
    self.referenceName = referenceName
    self.target = target
    self.met = met
  }
}

/// The measurements of `lifesim bench` (docs/performance.md says what each
/// means and what it was before and after the engine work). Wall-clock time
/// is fine here: benchmarks never feed a trace or a result.
public struct Bench {
  public var repetitions = 5
  /// Worker threads for the parallel experiment figure.
  public var jobs = ProcessInfo.processInfo.activeProcessorCount
  /// The cold-launch experiment (Scripts/experiments/coldlaunch.lua).
  public var experiment = "Scripts/experiments/coldlaunch.lua"
  /// Seeds per point of the experiment figure (the grid has 10 points).
  public var seeds = 12
  /// Records in the traced run whose peak memory is measured.
  public var records = 10_000_000
  /// Runs in the batch whose peak memory is measured (and a tenth of it, to show it is flat).
  public var batchRuns = 10_000
  /// This executable, for the memory figures (each in a process of its own).
  public var executable = executablePath()

  public init() {}

  static func median(_ xs: [Double]) -> Double {
    let s = xs.sorted()
    return s.isEmpty ? 0 : s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
  }

  func repeated(_ body: () throws -> Double) rethrows -> Double {
    var xs: [Double] = []
    for _ in 0..<max(1, repetitions) { xs.append(try body()) }
    return Self.median(xs)
  }

  // MARK: - Explore

  /// `lifesim explore` on one core: distinct states per second of a
  /// depth-`depth` search of `bench/explore/two_apps.lua` (target: 50,000).
  public func explore(script: String = "bench/explore/two_apps.lua", depth: Int = 7) throws -> [BenchFigure] {
    var options = ExploreOptions()
    options.depth = depth
    options.jobs = 1
    options.trackWrites = true  // as `lifesim explore` runs it
    var states = 0, distinct = 0
    let rate = try repeated {
      let r = try Explorer(file: script, options: options).run()
      (states, distinct) = (r.states, r.distinct)
      return Double(r.distinct) / r.seconds
    }
    let ratio = Double(states) / Double(distinct)
    return [
      BenchFigure(name: "explore, depth \(depth), one core", value: rate, unit: "distinct states/s",
                  target: "≥ 50,000", met: rate >= 50_000),
      BenchFigure(name: "explore, steps per distinct state", value: ratio,
                  unit: "(\(states.formatted()) steps, \(distinct.formatted()) distinct)"),
    ]
  }

  // MARK: - Dispatch

  /// Handler calls per second against `lua_pcall` from a C loop (target: at most 3× its cost).
  public func dispatch() throws -> BenchFigure {
    // Each repetition gives a ratio of two figures measured side by side; the
    // figure is the median of those ratios, which a drift in the machine's
    // speed between repetitions does not move.
    // A repetition whose run with the handler came out no slower than the run
    // without it (the machine's noise outweighed the calls) says nothing, and
    // is left out rather than let pull the median down; if most are, there is
    // no figure.
    var perCall: [Double] = [], ratios: [Double] = []
    for _ in 0..<max(1, repetitions) {
      let rt = try LuaRuntime(options: RuntimeOptions())
      let t = try rt.measureHandlerCalls(cycles: 100_000)
      guard t.perHandlerCall > 0 else { continue }
      perCall.append(t.perHandlerCall)
      ratios.append(t.perHandlerCall / t.perFloorCall)
    }
    let cost = Self.median(perCall), ratio = Self.median(ratios)
    guard 2 * perCall.count > max(1, repetitions), cost > 0, ratio > 0 else {
      // The runs with and without the handler did not differ beyond this run's noise.
      return BenchFigure(name: "dispatch", value: .nan, unit: "handler calls/s", reference: nil,
                         referenceName: "lua_pcall from C", target: "cost ≤ 3× the floor", met: nil)
    }
    let rate = 1 / cost
    // The reference is the floor's rate that makes the printed ratio the median one.
    return BenchFigure(name: "dispatch", value: rate, unit: "handler calls/s", reference: rate * ratio,
                       referenceName: "lua_pcall from C", target: "cost ≤ 3× the floor", met: ratio <= 3)
  }

  // MARK: - Engine and trace

  /// A week of the cold-launch workload on a 2 GB device, without Lua;
  /// with `stream`, the records go there as they are made and are not kept.
  static func week(trace: Bool, stream: TraceStream? = nil) throws -> Device {
    let dev = Device(profile: try OSProfile(version: 17), seed: 1, memoryMB: 2000)
    dev.recordsTrace = trace
    if let stream { dev.stream(to: stream, keepingRecords: false) }
    var ids: [AppID] = []
    for k in 1...30 {
      let modes = k % 10 == 4 ? ["audio"] : []
      ids.append(try dev.install(AppConfig(bundle: "com.example.app\(k)", backgroundModes: modes,
                                           footprintMB: Double(40 + (k * 67) % 201))))
    }
    var user = UserModel(apps: ids)
    user.zipfExponent = 1.1
    user.switchMean = .seconds(180)
    try dev.drive(user, for: .seconds(7 * 86_400))
    dev.finishStream()
    return dev
  }

  /// Trace records per second of the engine alone, trace off (target: 5 million).
  public func engine() throws -> BenchFigure {
    let records = Double(try Self.week(trace: true).trace.records.count)
    let seconds = try repeated {
      let start = monotonicSeconds()
      _ = try Self.week(trace: false)
      return monotonicSeconds() - start
    }
    let rate = records / seconds
    return BenchFigure(name: "engine", value: rate, unit: "records/s (no Lua, trace off)",
                       target: "≥ 5,000,000", met: rate >= 5_000_000)
  }

  /// JSONL records per second streamed to a file as a traced week makes them,
  /// the engine's own time included (target: 2 million).
  public func traceWriting(to path: String) throws -> BenchFigure {
    var records = 0
    let seconds = try repeated {
      guard let file = fopen(path, "wb") else { throw BatchError("cannot write \(path)") }
      defer { fclose(file) }
      let stream = TraceStream(formatter: TraceWriter(format: .jsonl)) { bytes in
        bytes.withUnsafeBufferPointer { _ = fwrite($0.baseAddress, 1, $0.count, file) }
      }
      let start = monotonicSeconds()
      records = try Self.week(trace: true, stream: stream).trace.count
      fflush(file)
      return monotonicSeconds() - start
    }
    let rate = Double(records) / seconds
    return BenchFigure(name: "trace", value: rate, unit: "JSONL records/s streamed to a file",
                       target: "≥ 2,000,000", met: rate >= 2_000_000)
  }

  // MARK: - Experiments

  /// Runs per second of the experiment at `jobs` workers, once, and the
  /// seconds per run spent putting the state after loading back before a run
  /// (nil when no run needed it).
  func experimentRateOnce(jobs: Int, scratch: String) throws -> (rate: Double, isolation: Double?) {
    var runtime = RuntimeOptions()
    runtime.output = { _ in }
    let output = scratch + "/bench-\(jobs).csv"
    unlink(output)
    var options = BatchOptions(experiment: experiment, output: output, jobs: jobs, runtime: runtime)
    options.seeds = seeds
    options.force = true  // the bench's own scratch file, written again at each repetition
    let runner = try BatchRunner(options: options)
    let start = monotonicSeconds()
    let report = try runner.run()
    let rate = Double(report.ran) / (monotonicSeconds() - start)
    return (rate, report.isolatedRuns > 0 ? report.isolationSeconds / Double(report.isolatedRuns) : nil)
  }

  /// The experiment figures: runs per second at `--jobs 1` and at `jobs`, and
  /// with `peer` the SimPy model's. Each repetition measures them one after
  /// the other, and each ratio is the median of the repetitions' own ratios,
  /// so that the machine's speed drifting between repetitions does not move it.
  public struct ExperimentRates {
    public var one = 0.0, many = 0.0
    public var peer: Double?
    /// Medians of the per-repetition ratios: `many / one`, `one / peer`, `many / peer`.
    public var scaling = 0.0
    public var oneVsPeer: Double?, manyVsPeer: Double?
    /// At `--jobs 1`: seconds per run spent putting the state after loading
    /// back (the median), and the median of its per-repetition share of a
    /// run's time. Nil when there was only one run.
    public var isolation: Double?, isolationShare: Double?
  }

  public func experimentRates(scratch: String, peer script: String?) throws -> ExperimentRates {
    if let script { try preparePeer(script) }
    var ones: [Double] = [], manys: [Double] = [], peers: [Double] = []
    var isolations: [Double] = [], shares: [Double] = []
    for _ in 0..<max(1, repetitions) {
      let one = try experimentRateOnce(jobs: 1, scratch: scratch)
      ones.append(one.rate)
      if let cost = one.isolation {
        isolations.append(cost)
        shares.append(cost * one.rate)
      }
      manys.append(try experimentRateOnce(jobs: jobs, scratch: scratch).rate)
      if let script { peers.append(try peerRateOnce(script: script)) }
    }
    var r = ExperimentRates()
    if !isolations.isEmpty {
      r.isolation = Self.median(isolations)
      r.isolationShare = Self.median(shares)
    }
    r.one = Self.median(ones)
    r.many = Self.median(manys)
    r.scaling = Self.median(zip(manys, ones).map { $0 / $1 })
    if script != nil {
      r.peer = Self.median(peers)
      r.oneVsPeer = Self.median(zip(ones, peers).map { $0 / $1 })
      r.manyVsPeer = Self.median(zip(manys, peers).map { $0 / $1 })
    }
    return r
  }

  // MARK: - Memory, each in a process of its own

  /// Runs this executable with `arguments` and returns its peak resident memory
  /// in MB, which the child writes as it exits (LIFESIM_PEAK_MEMORY_FILE).
  func peakMemoryMB(_ arguments: [String]) throws -> Double {
    // A file of the bench's own (mkstemp), which the child writes over.
    var template = Array((NSTemporaryDirectory() + "lifesim-peak-XXXXXX").utf8CString)
    let fd = mkstemp(&template)
    guard fd >= 0 else { throw BatchError("cannot make a file in \(NSTemporaryDirectory()): \(String(cString: strerror(errno)))") }
    close(fd)
    let report = String(cString: template)
    setenv("LIFESIM_PEAK_MEMORY_FILE", report, 1)
    defer {
      unsetenv("LIFESIM_PEAK_MEMORY_FILE")
      unlink(report)
    }
    var pid = pid_t()
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    let status = posix_spawn(&pid, executable, &actions, nil, argv, environ)
    guard status == 0 else { throw BatchError("cannot start \(executable): \(String(cString: strerror(status)))") }
    var wstatus: Int32 = 0
    guard waitpid(pid, &wstatus, 0) == pid else { throw BatchError("lost the child process") }
    // WIFEXITED and WEXITSTATUS are macros: the low 7 bits are 0 on a normal exit.
    let exitCode = (wstatus >> 8) & 0xff
    // Status 0 only: 1 would mean a run stopped early or runs failed, and the
    // peak of a workload cut short is not the workload's.
    guard wstatus & 0x7f == 0, exitCode == 0 else {
      throw BatchError("\(arguments.joined(separator: " ")) failed (status \(wstatus))")
    }
    guard let text = try? String(contentsOfFile: report, encoding: .utf8),
          let kb = Double(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
      throw BatchError("\(arguments.joined(separator: " ")) did not report its peak memory")
    }
    return kb / 1024
  }

  /// Peak memory of a traced 7-day run, of a traced run of `records` records,
  /// and of batches of `batchRuns / 10` and `batchRuns` runs.
  public func memory(scratch: String) throws -> [BenchFigure] {
    let week = scratch + "/week.lua"
    try """
      -- lifesim bench: 30 apps, a week of Zipf(1.1) use, traced.
      local dev = lifesim.device{ ios = 17, memory_mb = 2000 }
      local apps = {}
      for k = 1, 30 do
        apps[k] = dev:install{ bundle = ("com.example.app%02d"):format(k), footprint_mb = 40 + (k * 67) % 201 }
        apps[k]:on("sceneDidBecomeActive:", function(ctx) ctx:dirty(1) end)
        apps[k]:on("sceneDidEnterBackground:", function(ctx) ctx:save() end)
      end
      lifesim.workload.user{ zipf = 1.1, switch_every = 180 }:drive(dev, { days = 7 })
      """.write(toFile: week, atomically: true, encoding: .utf8)
    let many = scratch + "/records.lua"
    try """
      -- lifesim bench: a traced run of about \(records) records (each dev:log is one).
      local dev = lifesim.device{ ios = 17 }
      for i = 1, \(records) do dev:log("x") end
      """.write(toFile: many, atomically: true, encoding: .utf8)
    let batch = scratch + "/tiny.lua"
    try """
      -- lifesim bench: a small run, many times.
      return lifesim.experiment{ name = "tiny", seeds = 1, run = function(p, seed)
        local dev = lifesim.device{ ios = 17, trace = false }
        local app = dev:install{ bundle = "a" }
        dev:launch(app) dev:home() dev:advance(60)
        return { opens = dev.stats.opens }
      end }
      """.write(toFile: batch, atomically: true, encoding: .utf8)
    let weekMB = try peakMemoryMB(["run", week, "--format", "jsonl", "-o", "/dev/null"])
    let recordsMB = try peakMemoryMB(["run", many, "--stream", "--format", "jsonl", "-o", "/dev/null",
                                      "--max-instructions", "10000000000"])
    let smallMB = try peakMemoryMB(["batch", batch, "--seeds", String(batchRuns / 10), "--jobs", "1", "--quiet", "-o", scratch + "/tiny-small.csv"])
    let largeMB = try peakMemoryMB(["batch", batch, "--seeds", String(batchRuns), "--jobs", "1", "--quiet", "-o", scratch + "/tiny-large.csv"])
    return [
      BenchFigure(name: "memory, 7-day 30-app run", value: weekMB, unit: "MB peak", target: "< 50", met: weekMB < 50),
      BenchFigure(name: "memory, \(records.formatted()) records, --stream", value: recordsMB, unit: "MB peak", target: "< 50", met: recordsMB < 50),
      BenchFigure(name: "memory, \(batchRuns.formatted())-run batch", value: largeMB, unit: "MB peak",
                  reference: smallMB, referenceName: "\((batchRuns / 10).formatted()) runs", target: "flat, < 50",
                  met: largeMB < 50 && largeMB <= smallMB * 1.2),
    ]
  }

  // MARK: - The SimPy peer

  private func python(_ args: [String], quiet: Bool = false) throws -> (Int32, String) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = ["python3"] + args
    let pipe = Pipe()
    p.standardOutput = pipe
    p.standardError = quiet ? FileHandle.nullDevice : FileHandle.standardError
    try p.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return (p.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  /// Installs simpy with pip when it is missing.
  func preparePeer(_ script: String) throws {
    if try python(["-c", "import simpy"], quiet: true).0 != 0 {
      _ = try python(["-m", "pip", "install", "--quiet", "simpy"])
    }
  }

  /// Runs the SimPy model of the same sweep once and returns its runs per second.
  func peerRateOnce(script: String) throws -> Double {
    let (status, out) = try python([script, "--json", "--seeds", String(seeds)])
    guard status == 0, let data = out.split(separator: "\n").last.map({ Data($0.utf8) }),
          let json = try JSONSerialization.jsonObject(with: data) as? [String: Double],
          let runs = json["runs"], let seconds = json["seconds"], seconds > 0
    else { throw BatchError("the SimPy peer failed: \(out)") }
    return runs / seconds
  }
}
