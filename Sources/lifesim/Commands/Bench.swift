import ArgumentParser
import Foundation
import LifeSimBench

extension Lifesim {
  /// `lifesim bench`: lifesim's speed, each figure against a reference measured in the same run.
  struct Bench: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Measure lifesim's speed and memory against references measured in the same run, and against lifesim's performance targets (docs/performance.md).",
      discussion: """
        Each speed figure is the median of --repeat repetitions; a ratio is the \
        median of the repetitions' own ratios, each measured side by side. \
        dispatch: handler calls against lua_pcall of the same function from a C \
        loop. engine: trace records per second without Lua and with the trace off \
        (against its target). trace: JSONL records per second streamed to a file \
        in the temporary folder ($TMPDIR; against its target). experiment: runs per \
        second of the cold-launch sweep at --jobs 1 and --jobs N (the targets are \
        judged at --jobs 2). explore: distinct states per second of a depth-7 \
        search. memory: peak resident memory of a traced week, of a traced run of \
        --records records, and of batches, one process each. --peer adds the SimPy \
        model of the same sweep (bench/simpy/coldlaunch.py), installing simpy with \
        pip when it is missing. With --check, the exit status is 1 when a figure \
        misses its target. Run it from the repository's folder. \
        docs/performance.md records the figures.
        """
    )

    @Option(help: ArgumentHelp("Repetitions of each figure (the median is shown).", valueName: "N"))
    var `repeat` = 5

    @Option(name: .shortAndLong, help: ArgumentHelp("Workers for the parallel figure (default: the number of cores).", valueName: "N"))
    var jobs: Int?

    @Option(help: ArgumentHelp("Seeds per point of the cold-launch sweep (10 points).", valueName: "N"))
    var seeds = 12

    @Option(help: ArgumentHelp("The experiment of the experiment figures.", valueName: "file"))
    var experiment = "Scripts/experiments/coldlaunch.lua"

    @Option(help: ArgumentHelp("Records in the traced run whose memory is measured.", valueName: "N"))
    var records = 10_000_000

    @Option(help: ArgumentHelp("Runs in the batch whose memory is measured.", valueName: "N"))
    var batchRuns = 10_000

    @Flag(help: "Also run the SimPy peer and show lifesim's speed per run relative to it.")
    var peer = false

    @Flag(help: "Skip the memory figures (they run whole processes and take longest).")
    var noMemory = false

    @Option(help: ArgumentHelp("Only these figures: dispatch, engine, trace, experiment, explore, memory (repeatable).", valueName: "name"))
    var only: [String] = []

    @Flag(help: "Exit with status 1 when a figure misses its target (after printing every figure).")
    var check = false

    func validate() throws {
      guard `repeat` >= 1, seeds >= 1, records >= 1, batchRuns >= 10 else {
        throw ValidationError("--repeat, --seeds and --records must be ≥ 1, --batch-runs ≥ 10")
      }
      // Counts the figures multiply and allocate by: bounded before any arithmetic.
      guard `repeat` <= 1_000, seeds <= 100_000_000, records <= 1_000_000_000_000, batchRuns <= 1_000_000_000 else {
        throw ValidationError("--repeat must be at most 1000, --seeds 100000000, --records 1000000000000, --batch-runs 1000000000")
      }
      if let jobs, jobs < 1 || jobs > 1024 { throw ValidationError("--jobs must be between 1 and 1024") }
      let known = ["dispatch", "engine", "trace", "experiment", "explore", "memory"]
      for name in only where !known.contains(name) {
        throw ValidationError("--only takes \(known.joined(separator: ", ")); got '\(name)'")
      }
    }

    func run() throws {
      var bench = LifeSimBench.Bench()
      bench.repetitions = `repeat`
      bench.seeds = seeds
      bench.experiment = experiment
      bench.records = records
      bench.batchRuns = batchRuns
      if let jobs { bench.jobs = jobs }
      // A folder of the bench's own (mkdtemp): removing it afterwards can
      // remove nothing anyone else made.
      var template = Array((NSTemporaryDirectory() + "lifesim-bench-XXXXXX").utf8CString)
      guard mkdtemp(&template) != nil else {
        throw CommandFailure.badInput("cannot make a scratch folder in \(NSTemporaryDirectory()): \(String(cString: strerror(errno)))")
      }
      let scratch = String(cString: template)
      defer { try? FileManager.default.removeItem(atPath: scratch) }
      func wanted(_ name: String) -> Bool { only.isEmpty || only.contains(name) }
      // The figures that missed their targets (a figure that could not be
      // measured counts as missed), for --check.
      var missed: [String] = []
      func show(_ f: BenchFigure) {
        self.show(f)
        if f.met == false || (f.value.isNaN && f.target != nil) { missed.append(f.name) }
      }

      writeOut("lifesim bench: median of \(`repeat`) repetitions (memory: one process each)\n")
      if wanted("dispatch") { show(try bench.dispatch()) }
      if wanted("engine") { show(try bench.engine()) }
      if wanted("trace") { show(try bench.traceWriting(to: scratch + "/trace.jsonl")) }
      if wanted("experiment") || peer {
        let r = try bench.experimentRates(scratch: scratch, peer: peer ? "bench/simpy/coldlaunch.py" : nil)
        let unit = "runs/s of " + (experiment.split(separator: "/").last.map(String.init) ?? experiment)
        // The targets are for --jobs 2; at another --jobs they are not judged.
        let two = bench.jobs == 2
        show(BenchFigure(name: "experiment, --jobs 1", value: r.one, unit: unit))
        show(BenchFigure(name: "experiment, --jobs \(bench.jobs)", value: r.many, unit: unit,
                         reference: r.many / r.scaling, referenceName: "--jobs 1",
                         target: two ? "≥ 1.8×" : nil, met: two ? r.scaling >= 1.8 : nil))
        if let cost = r.isolation, let share = r.isolationShare {
          // Each run starts from the state after loading, put back first.
          show(BenchFigure(name: "experiment, fresh state per run", value: cost * 1e6,
                           unit: String(format: "µs per run (%.2f %% of a run at --jobs 1)", share * 100),
                           target: "≤ 2 %", met: share <= 0.02))
        }
        if let simpy = r.peer, let oneVs = r.oneVsPeer, let manyVs = r.manyVsPeer {
          show(BenchFigure(name: "SimPy peer", value: simpy, unit: "runs/s of bench/simpy/coldlaunch.py"))
          show(BenchFigure(name: "vs SimPy, --jobs 1", value: r.one, unit: "runs/s", reference: r.one / oneVs,
                           referenceName: "SimPy peer", target: "≥ 2.5×", met: oneVs >= 2.5))
          show(BenchFigure(name: "vs SimPy, --jobs \(bench.jobs)", value: r.many, unit: "runs/s", reference: r.many / manyVs,
                           referenceName: "SimPy peer", target: two ? "≥ 5×" : nil, met: two ? manyVs >= 5 : nil))
        }
      }
      if wanted("explore") { for figure in try bench.explore() { show(figure) } }
      if wanted("memory") && !noMemory {
        for figure in try bench.memory(scratch: scratch) { show(figure) }
      }
      if check, !missed.isEmpty {
        printError("lifesim bench: \(missed.count == 1 ? "a figure missed its target" : "\(missed.count) figures missed their targets"): \(missed.joined(separator: ", "))")
        throw ExitCode(1)
      }
    }

    private func show(_ f: BenchFigure) {
      var line = "  " + f.name.padding(toLength: 38, withPad: " ", startingAt: 0)
      guard !f.value.isNaN else {
        writeOut(line + "not measured: the runs with and without handlers did not differ beyond this run's noise (try a larger --repeat on a quieter machine)\n")
        return
      }
      line += String(format: "%14.4g %@", f.value, f.unit)
      if let ratio = f.ratio, let ref = f.referenceName {
        // A rate below its reference reads better as a cost: "12.9× the cost of lua_pcall from C".
        line += ratio < 1 && f.unit.contains("/s") ? String(format: "   %.2f× the cost of %@", 1 / ratio, ref) : String(format: "   %.2f× %@", ratio, ref)
      }
      if let target = f.target, let met = f.met {
        line += "   target \(target): \(met ? "met" : "not met")"
      }
      writeOut(line + "\n")
    }
  }
}
