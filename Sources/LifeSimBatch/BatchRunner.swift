import Foundation
import LifeSimEngine
import LifeSimLua

/// Which part of a batch this process runs: every `count`-th run, starting at
/// `index` (0-based), as cluster job arrays split work.
public struct Shard: Sendable, Equatable, CustomStringConvertible {
  public var index: Int
  public var count: Int

  public init(index: Int, count: Int) throws {
    guard count >= 1, index >= 0, index < count else {
      throw BatchError("a shard is I/N with 0 ≤ I < N, such as 0/4; got \(index)/\(count)")
    }
    self.index = index
    self.count = count
  }

  /// `"I/N"`.
  public init(parsing text: String) throws {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]) else {
      throw BatchError("--shard takes I/N, such as 0/4 (run every 4th run, starting at run 0); got '\(text)'")
    }
    try self.init(index: i, count: n)
  }

  /// The shard a cluster scheduler gives through the environment: a Slurm job
  /// array (`SLURM_ARRAY_TASK_ID`, `SLURM_ARRAY_TASK_COUNT`, minus
  /// `SLURM_ARRAY_TASK_MIN`), or a Kubernetes Indexed Job (`JOB_COMPLETION_INDEX`,
  /// with the count from `LIFESIM_SHARDS` or `count`). Nil when neither is set.
  public static func fromEnvironment(_ env: [String: String], count: Int? = nil) throws -> (Shard, String)? {
    if let id = env["SLURM_ARRAY_TASK_ID"].flatMap(Int.init) {
      guard let n = env["SLURM_ARRAY_TASK_COUNT"].flatMap(Int.init) ?? count else {
        throw BatchError("SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not; pass --shards N")
      }
      let min = env["SLURM_ARRAY_TASK_MIN"].flatMap(Int.init) ?? 0
      return (try Shard(index: id - min, count: n), "SLURM_ARRAY_TASK_ID=\(id)")
    }
    if let id = env["JOB_COMPLETION_INDEX"].flatMap(Int.init) {
      guard let n = count ?? env["LIFESIM_SHARDS"].flatMap(Int.init) else {
        throw BatchError("JOB_COMPLETION_INDEX is set but the number of shards is not; pass --shards N (the Job's completions) or set LIFESIM_SHARDS")
      }
      return (try Shard(index: id, count: n), "JOB_COMPLETION_INDEX=\(id)")
    }
    return nil
  }

  public func contains(_ run: Int) -> Bool { run % count == index }
  public var description: String { "\(index)/\(count)" }
}

/// How to run a batch.
public struct BatchOptions: Sendable {
  public var experiment: String
  public var output: String
  /// Worker threads, each with its own Lua state, reused across runs.
  public var jobs: Int
  /// Overrides the experiment's `seeds`.
  public var seeds: Int?
  /// Skip the runs already in `output`.
  public var resume = false
  public var shard: Shard?
  public var runtime: RuntimeOptions

  public init(experiment: String, output: String, jobs: Int, runtime: RuntimeOptions) {
    self.experiment = experiment
    self.output = output
    self.jobs = jobs
    self.runtime = runtime
  }
}

/// Where a batch is, for progress displays.
public struct BatchProgress: Sendable {
  /// Runs finished in this invocation, and how many it has to run.
  public var done: Int
  public var total: Int
  public var failed: Int
  /// Runs the output already held when a resumed batch started.
  public var already = 0
}

/// What a batch did.
public struct BatchReport: Sendable {
  public var spec: ExperimentSpec
  /// Runs made now, runs skipped because the file had them, runs that failed now.
  public var ran: Int
  public var skipped: Int
  public var failed: Int
  /// The first failure's message, to show the user.
  public var firstError: String?
}

/// Runs an experiment's (point, seed) runs on worker threads and writes one
/// row per run, in run order, flushed as soon as the runs before it are done.
///
/// The file is the same bytes whatever `jobs` is: workers finish out of order,
/// and a row waits (in a window of a few runs per worker) until every earlier
/// row is written. A killed batch loses only the runs in that window.
public final class BatchRunner {
  public let options: BatchOptions
  public private(set) var spec: ExperimentSpec

  private let lock = NSCondition()
  private var todo: [Int] = []
  private var nextClaim = 0
  private var nextWrite = 0
  private var finished: [Int: ResultRow] = [:]
  private let sink: ResultSink
  /// What the output's header says (and what `--resume` and `merge` check).
  public let header: ResultHeader
  /// The metrics every successful run must return, in a tabular output:
  /// the declared ones, or the first successful run's.
  private var fixedMetrics: [String]?
  private var already = 0
  private var failure: Error?
  private var failed = 0
  private var firstError: String?
  private var progress: (BatchProgress) -> Void = { _ in }

  /// Loads the experiment (running its file once, in a state of its own) and
  /// expands its grid.
  /// - Throws: `LuaFailure` when the file fails, `BatchError` for bad options.
  public init(options: BatchOptions) throws {
    self.options = options
    _ = try ResultFormat(path: options.output)
    let main = try LuaRuntime(options: options.runtime)
    spec = try main.loadExperiment(options.experiment)
    if let s = options.seeds { spec.seeds = s }
    guard !spec.points.isEmpty else {
      throw BatchError("\(options.experiment): the constraint excludes every point of the grid")
    }
    header = try ResultHeader(spec: spec, file: options.experiment)
    sink = try resultSink(path: options.output, params: spec.params.map(\.name), declaredMetrics: spec.metrics)
  }

  /// Runs the batch. `progress` is called after each run, from a worker thread.
  public func run(progress: @escaping (BatchProgress) -> Void = { _ in }) throws -> BatchReport {
    self.progress = progress
    let opened = try sink.open(header: header, resume: options.resume) { try check($0, in: options.output) }
    let done = opened.done
    fixedMetrics = spec.metrics ?? (sink.fixesMetrics ? opened.metrics.flatMap { $0.isEmpty ? nil : $0 } : nil)
    todo = (0..<spec.runCount).filter { (options.shard?.contains($0) ?? true) && !done.contains($0) }
    // Rows are appended in run order; a text file that already holds a later
    // run than one still to do (another shard's file, or a shard resumed as
    // the whole batch) would end up out of order.
    if sink.appendsOnly, let last = done.max(), let early = todo.first(where: { $0 < last }) {
      throw BatchError("\(options.output) holds run \(last) but not run \(early): resuming would write rows out of run order "
                       + "(was it written with another --shard?); resume it with the options that wrote it, "
                       + "or merge the shards' files with lifesim merge")
    }
    let skipped = done.count
    already = skipped
    progress(BatchProgress(done: 0, total: todo.count, failed: 0, already: skipped))
    if !todo.isEmpty {
      let jobs = max(1, min(options.jobs, todo.count))
      let group = DispatchGroup()
      for _ in 0..<jobs {
        group.enter()
        let thread = Thread { [self] in
          work()
          group.leave()
        }
        thread.stackSize = 16 << 20  // Lua's C recursion limit, with room to spare
        thread.start()
      }
      group.wait()
    }
    if let failure { throw failure }
    try sink.finish()
    return BatchReport(spec: spec, ran: todo.count, skipped: skipped, failed: failed, firstError: firstError)
  }

  // MARK: - Workers

  private func work() {
    var runtimeOptions = options.runtime
    runtimeOptions.retainDevices = false
    let runtime: LuaRuntime
    let names = spec.params.map(\.name)
    do {
      runtime = try LuaRuntime(options: runtimeOptions)
      _ = try runtime.loadExperiment(options.experiment, expandGrid: false)
    } catch {
      stop(with: error)
      return
    }
    while let position = claim() {
      let run = todo[position]
      let (point, seed) = spec.run(run)
      let outcome = runtime.runExperiment(point: spec.points[point], names: names, seed: seed)
      complete(position, ResultRow(run: run, params: spec.points[point], seed: seed, outcome: outcome))
    }
  }

  /// The next position in `todo` to run, waiting while the writer is too far behind.
  private func claim() -> Int? {
    lock.lock()
    defer { lock.unlock() }
    let window = max(4, options.jobs * 4)
    while failure == nil && nextClaim < todo.count && nextClaim >= nextWrite + window { lock.wait() }
    guard failure == nil, nextClaim < todo.count else { return nil }
    nextClaim += 1
    return nextClaim - 1
  }

  private func complete(_ position: Int, _ row: ResultRow) {
    lock.lock()
    defer { lock.unlock() }
    finished[position] = row
    do {
      while let next = finished.removeValue(forKey: nextWrite) {
        try emit(next)
        nextWrite += 1
      }
    } catch {
      failure = error
    }
    progress(BatchProgress(done: nextWrite, total: todo.count, failed: failed, already: already))
    lock.broadcast()
  }

  private func stop(with error: Error) {
    lock.lock()
    if failure == nil { failure = error }
    lock.broadcast()
    lock.unlock()
  }

  // MARK: - The output file

  /// A resumed row must be the experiment's run of that number.
  private func check(_ row: ParsedRow, in path: String) throws {
    guard row.run >= 0, row.run < spec.runCount else {
      throw BatchError("\(path): run \(row.run) is not in this experiment's \(spec.runCount) runs (different seeds or grid?)")
    }
    let (point, seed) = spec.run(row.run)
    let expected = spec.points[point].map(\.description)
    let names = spec.params.map(\.name)
    let got = names.map { n in row.params.first { $0.name == n }?.value ?? "?" }
    guard got == expected, row.seed == seed else {
      throw BatchError("\(path): run \(row.run) has \(zip(names, got).map { "\($0)=\($1)" }.joined(separator: " ")) seed \(row.seed), but this experiment's run \(row.run) is \(zip(names, expected).map { "\($0)=\($1)" }.joined(separator: " ")) seed \(seed): the file is from a different experiment, grid or --seeds")
    }
  }

  /// Writes a row in order (called under the lock). A successful run must
  /// return the declared metrics and, in a table (CSV, SQLite), the metrics
  /// of the first successful run; otherwise it is recorded as failed.
  private func emit(_ row: ResultRow) throws {
    var row = row
    if let declared = spec.metrics, row.outcome.error == nil {
      row.outcome = conform(row.outcome, to: declared, what: "the metrics the experiment declares")
    }
    if sink.fixesMetrics, row.outcome.error == nil {
      if let fixed = fixedMetrics {
        row.outcome = conform(row.outcome, to: fixed, what: "the file's metric columns (the first run's metrics)")
      } else {
        fixedMetrics = row.outcome.metrics.map(\.name)
      }
    }
    try record(row)
    try sink.write(row)
  }

  private func record(_ row: ResultRow) throws {
    guard let e = row.outcome.error else { return }
    failed += 1
    if firstError == nil { firstError = "run \(row.run) (seed \(row.seed)): \(e)" }
  }

  /// A run must return the same metrics as every other (a table's columns).
  private func conform(_ outcome: RunOutcome, to names: [String], what: String) -> RunOutcome {
    let got = outcome.metrics.map(\.name)
    guard Set(got) != Set(names) else { return outcome }
    return RunOutcome(error: "run returned the metrics \(got.joined(separator: ", ")); \(what) are \(names.joined(separator: ", "))")
  }
}
