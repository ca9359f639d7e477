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
      let (index, overflow) = id.subtractingReportingOverflow(min)
      guard !overflow else {
        throw BatchError("SLURM_ARRAY_TASK_ID=\(id) minus SLURM_ARRAY_TASK_MIN=\(min) is out of range")
      }
      return (try Shard(index: index, count: n), "SLURM_ARRAY_TASK_ID=\(id)")
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
  /// Worker threads, each with its own Lua state, put back to the state
  /// after loading before each run.
  public var jobs: Int
  /// Overrides the experiment's `seeds`.
  public var seeds: Int?
  /// Skip the runs already in `output`.
  public var resume = false
  public var shard: Shard?
  public var runtime: RuntimeOptions
  /// Replace an existing output that is not resumed (otherwise refused).
  public var force = false
  /// Asked between runs: true stops the batch there (a signal's flag).
  public var shouldStop: (@Sendable () -> Bool)?

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
  /// Whether `shouldStop` ended the batch before its last run, and the runs
  /// the output then holds.
  public var interrupted = false
  public var kept = 0
  /// The file that holds the runs of an interrupted batch, and the file it
  /// replaces when the batch is resumed to its end (nil: it is the output).
  public var keptIn = ""
  public var replaces: String?
  /// The first failure's message, to show the user.
  public var firstError: String?
  /// Seconds the workers spent putting the state after loading back before
  /// runs, and how many runs it was put back for (`lifesim bench`).
  public var isolationSeconds = 0.0
  public var isolatedRuns = 0
  /// The versions runs' devices named instead of `--ios`, when no device of
  /// any run ran `--ios` (empty otherwise), in sorted order.
  public var versionsInsteadOfOption: [Int] = []
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
  /// The state that loaded the experiment: it finds the files a resumed
  /// output's header names, to check they are as they were.
  private let main: LuaRuntime
  /// The runs this invocation makes, handed out in run order by `nextRun`
  /// without a list of them (a batch may have a billion runs): the shard's
  /// runs, less those the output already holds.
  private var total = 0
  private var done: Set<Int> = []
  private var cursor = 0
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
  /// Set when `shouldStop` said so: no run is claimed after it.
  private var interrupted = false
  private var failed = 0
  private var firstError: String?
  private var progress: (BatchProgress) -> Void = { _ in }
  private var isolationSeconds = 0.0
  private var isolatedRuns = 0
  private var reloadNoticed = false
  private var devicesOnOptionVersion = 0
  private var ownVersions: Set<Int> = []
  /// The runtime options of every state (the batch's, with a digest for the files runs read).
  private let runtimeOptions: RuntimeOptions
  /// The modules and data files the experiment and its runs read, with their
  /// digests: those the output's header records, and those runs read since.
  private var knownFiles = ReadFiles()
  /// What the output's header records of them (nil: it records none, an older file).
  private var recordedFiles: ReadFiles?
  /// Set when the batch stopped because a run read its output.
  private var readTheOutput = false
  /// The header the output has (the one it was made with, or the one it had when resumed).
  private var writtenHeader: ResultHeader?

  /// Loads the experiment (running its file once, in a state of its own) and
  /// expands its grid.
  /// - Throws: `LuaFailure` when the file fails, `BatchError` for bad options.
  public init(options: BatchOptions) throws {
    self.options = options
    _ = try ResultFormat(path: options.output)
    var runtimeOptions = options.runtime
    runtimeOptions.fileDigest = { sha256Hex($0) }
    self.runtimeOptions = runtimeOptions
    let main = try LuaRuntime(options: runtimeOptions)
    spec = try main.loadExperiment(options.experiment)
    if let clash = main.readOutput { throw BatchError("\(options.experiment): \(clash)") }
    if let s = options.seeds { spec.seeds = s }
    guard spec.seeds >= 1, spec.seeds <= Self.maxSeeds else {
      throw BatchError("--seeds must be between 1 and \(Self.maxSeeds), got \(spec.seeds)")
    }
    guard !spec.points.count.multipliedReportingOverflow(by: spec.seeds).overflow else {
      throw BatchError("\(options.experiment): \(spec.points.count) points × \(spec.seeds) seeds is more runs than can be counted")
    }
    guard !spec.points.isEmpty else {
      throw BatchError("\(options.experiment): the constraint excludes every point of the grid")
    }
    let names = spec.params.map(\.name)
    for name in names {
      if let problem = columnNameProblem(name) {
        throw BatchError("\(spec.place): the parameter \(shownName(name)) \(problem)")
      }
    }
    // A file that keeps only text (CSV), or keeps numbers apart from the
    // rest (SQLite), would write two values of a parameter alike, and a
    // summary or a resume would take them for one.
    let format = try ResultFormat(path: options.output)
    if format != .jsonl {
      for p in spec.params {
        var seen: [String: ParamValue] = [:]
        for v in p.values {
          var key = v.description
          if format == .sqlite { if case .number = v { key = "n" + key } else { key = "t" + key } }
          if let other = seen[key], other != v {
            throw BatchError("\(spec.place): the parameter \(shownName(p.name)) has the values \(Self.shown(other)) and "
                             + "\(Self.shown(v)), which a .\(format.rawValue) file writes alike; write .jsonl, which keeps "
                             + "each value's type, or give them values that read apart")
          }
          seen[key] = v
        }
      }
    }
    for name in spec.metrics ?? [] {
      if let problem = columnNameProblem(name) {
        throw BatchError("\(spec.place): the metric \(shownName(name)) \(problem)")
      }
    }
    header = try ResultHeader(spec: spec, file: options.experiment, options: options.runtime, files: main.takeLoadedFiles())
    self.main = main
    sink = try resultSink(path: options.output, params: spec.params.map(\.name), declaredMetrics: spec.metrics)
  }

  /// Runs the batch. `progress` is called after each run, from a worker thread.
  public func run(progress: @escaping (BatchProgress) -> Void = { _ in }) throws -> BatchReport {
    self.progress = progress
    sink.notice = notice
    let opened: OpenedOutput
    do {
      opened = try sink.open(header: header, resume: options.resume, force: options.force) { try check($0, in: options.output) }
      try checkFiles(of: opened)
    } catch {
      // A file resumed stays as it was; a new one that could not be started
      // (and an unfinished file made to replace one) goes.
      if options.resume { sink.close() } else { sink.discard() }
      throw error
    }
    done = opened.done
    fixedMetrics = spec.metrics ?? (sink.fixesMetrics ? opened.metrics.flatMap { $0.isEmpty ? nil : $0 } : nil)
    let runCount = spec.runCount
    let shard = options.shard ?? (try! Shard(index: 0, count: 1))
    let inShard = runCount > shard.index ? (runCount - shard.index - 1) / shard.count + 1 : 0
    total = inShard - done.filter { shard.contains($0) }.count
    cursor = shard.index
    // Rows are appended in run order; a text file that already holds a later
    // run than one still to do (another shard's file, or a shard resumed as
    // the whole batch) would end up out of order. The first run to do is
    // found past at most the runs already done.
    var first = shard.index
    while first < runCount && done.contains(first) {
      let (next, overflow) = first.addingReportingOverflow(shard.count)
      first = overflow ? Int.max : next
    }
    if sink.appendsOnly, let last = done.max(), first < runCount, first < last {
      sink.close()
      let early = first
      throw BatchError("\(options.output) holds run \(last) but not run \(early): resuming would write rows out of run order "
                       + "(was it written with another --shard?); resume it with the options that wrote it, "
                       + "or merge the shards' files with lifesim merge")
    }
    let skipped = done.count
    already = skipped
    progress(BatchProgress(done: 0, total: total, failed: 0, already: skipped))
    if total > 0 {
      let jobs = max(1, min(options.jobs, total))
      var threads: [pthread_t] = []
      var refusal: Int32 = 0
      for _ in 0..<jobs {
        switch startThread(stackSize: Self.workerStackSize, { [self] in work() }) {
        case .success(let t): threads.append(t)
        case .failure(let e): refusal = e.code
        }
        if refusal != 0 { break }
      }
      // The workers that did start run every run (claims are shared); only
      // when none started is there no one to run them.
      if threads.isEmpty {
        sink.close()
        throw BatchError("cannot start a worker thread: \(String(cString: strerror(refusal))) "
                         + "(each has a \(Self.workerStackSize >> 20) MB stack; is the address space limited, ulimit -v?)")
      }
      if threads.count < jobs {
        notice("lifesim: started \(threads.count) of \(jobs) worker threads (the system refused more: "
               + "\(String(cString: strerror(refusal)))); the batch goes on with \(threads.count)")
      }
      for t in threads { pthread_join(t, nil) }
    }
    sink.newHeader = headerWithRunFiles()
    if let failure {
      if readTheOutput {
        sink.discard()
      } else {
        sink.close()
        if let replaced = sink.replaces {
          notice("lifesim: \(sink.kept) run\(sink.kept == 1 ? " is" : "s are") kept in \(sink.rowsPath) and \(replaced) is as it was: "
                 + "--resume continues the batch and then replaces it, --force starts again")
        }
      }
      throw failure
    }
    if interrupted {
      sink.close()
      var report = BatchReport(spec: spec, ran: nextWrite, skipped: skipped, failed: failed, firstError: firstError)
      report.interrupted = true
      report.kept = sink.kept
      report.keptIn = sink.rowsPath
      report.replaces = sink.replaces
      return report
    }
    try sink.finish()
    var report = BatchReport(spec: spec, ran: total, skipped: skipped, failed: failed, firstError: firstError,
                             isolationSeconds: isolationSeconds, isolatedRuns: isolatedRuns)
    if devicesOnOptionVersion == 0 { report.versionsInsteadOfOption = ownVersions.sorted() }
    return report
  }

  /// A parameter's value as Lua writes it: a string quoted.
  static func shown(_ v: ParamValue) -> String {
    if case .text(let t) = v { return "\"" + t + "\"" }
    return v.description
  }

  /// Seeds per point, at most: what an experiment file's `seeds` may say.
  public static let maxSeeds = 1_000_000_000

  /// A worker's stack: Lua's C recursion limit, with room to spare.
  static let workerStackSize = 16 << 20

  /// What a worker must be able to allocate before it starts: its own
  /// allocations (names, rows, the Lua state's bookkeeping) stay well under it.
  static let workerHeadroom = 8 << 20

  /// The error of a worker with no room to run (`workerHeadroom`), made
  /// while there is still room to make it.
  private let noRoomToRun: Error = BatchError(
    "a worker thread has no room to run: \(BatchRunner.workerHeadroom >> 20) MB could not be allocated "
      + "(is the address space limited, ulimit -v?)")

  /// Where the runner says what the user should know (stderr in the CLI).
  public var notice: (String) -> Void = { _ in }

  // MARK: - Workers

  /// Makes runs until none is left. Each run starts from the state the
  /// experiment file left when it was loaded (`ExperimentWorker`), so a row
  /// is the same whichever worker made it, and after which runs.
  private func work() {
    // Swift cannot survive a refused allocation of its own (the runtime
    // aborts), and a new thread's stack may have taken the last of a limited
    // address space: make sure there is room for the worker's own
    // allocations before making any.
    guard let room = malloc(Self.workerHeadroom) else {
      // Made before the thread started: here, even the message might not fit.
      stop(with: noRoomToRun)
      return
    }
    free(room)
    var runtimeOptions = self.runtimeOptions
    runtimeOptions.retainDevices = false
    let worker: ExperimentWorker
    let names = spec.params.map(\.name)
    do {
      worker = try ExperimentWorker(experiment: options.experiment, options: runtimeOptions)
    } catch {
      stop(with: error)
      return
    }
    if let clash = worker.readOutput {
      stop(readingTheOutput: BatchError("\(options.experiment): \(clash)"))
      return
    }
    lock.lock()
    // Under --unsafe a worker reloads by design (ExperimentWorker): no notice.
    let first = worker.reloads && !reloadNoticed && !options.runtime.unsafe
    if worker.reloads { reloadNoticed = true }
    lock.unlock()
    if first {
      notice("lifesim: a worker could not reserve the address space to save its Lua state "
             + "(twice --max-memory, is the address space limited, ulimit -v?); it loads "
             + "\(options.experiment) again before each run instead, which is slower")
    }
    while let (position, run) = claim() {
      let (point, seed) = spec.run(run)
      let outcome = worker.run(point: spec.points[point], names: names, seed: seed)
      if let clash = worker.readOutput {
        // The run read the file this batch writes (or replaces): its rows
        // would stand on a file they replace. Nothing of the batch is kept
        // in place of the file (`ResultSink.discard`).
        stop(readingTheOutput: BatchError("run \(run) (seed \(seed)): \(clash) (the batch stopped; \(options.output) "
                                          + "is as it was)"))
        break
      }
      complete(position, ResultRow(run: run, params: spec.points[point], seed: seed, outcome: outcome),
               files: worker.takeLoadedFiles())
    }
    lock.lock()
    isolationSeconds += worker.isolationSeconds
    isolatedRuns += worker.isolatedRuns
    devicesOnOptionVersion += worker.devicesOnOptionVersion
    ownVersions.formUnion(worker.ownVersions)
    lock.unlock()
  }

  /// The next run to make and its position among this invocation's runs,
  /// waiting while the writer is too far behind.
  private func claim() -> (position: Int, run: Int)? {
    lock.lock()
    defer { lock.unlock() }
    let window = max(4, options.jobs * 4)
    while failure == nil && nextClaim < total && nextClaim >= nextWrite + window { lock.wait() }
    if !interrupted, options.shouldStop?() == true { interrupted = true }
    guard failure == nil, !interrupted, nextClaim < total, let run = nextRun() else { return nil }
    nextClaim += 1
    return (nextClaim - 1, run)
  }

  /// The next run of the shard that the output does not hold (under the lock).
  private func nextRun() -> Int? {
    let step = options.shard?.count ?? 1
    while cursor < spec.runCount {
      let run = cursor
      let (next, overflow) = cursor.addingReportingOverflow(step)
      cursor = overflow ? Int.max : next
      if !done.contains(run) { return run }
    }
    return nil
  }

  private func complete(_ position: Int, _ row: ResultRow, files: [LoadedFile]) {
    lock.lock()
    defer { lock.unlock() }
    for f in files {
      if let had = knownFiles.add(f) {
        // The same name read with other bytes: runs of two versions of a
        // module or data file would be mixed in one file.
        if failure == nil {
          let what = f.kind == .module ? "the module '\(f.name)' (\(f.path))" : "the data file '\(f.name)' (\(f.path))"
          failure = BatchError("run \(row.run): \(what) has changed: its sha256 is \(f.digest!.prefix(12)), "
                               + "not \(had.prefix(12)) as when the batch (or the batch that wrote \(options.output)) read it; "
                               + "a result file holds the runs of one version of every file the experiment reads; "
                               + "put it back as it was, or start a new file")
        }
        lock.broadcast()
        return
      }
    }
    finished[position] = row
    do {
      while let next = finished.removeValue(forKey: nextWrite) {
        try emit(next)
        nextWrite += 1
      }
    } catch {
      failure = error
    }
    progress(BatchProgress(done: nextWrite, total: total, failed: failed, already: already))
    lock.broadcast()
  }

  /// Stops the batch because a run read its output.
  private func stop(readingTheOutput error: BatchError) {
    lock.lock()
    if failure == nil {
      failure = error
      readTheOutput = true
    }
    lock.broadcast()
    lock.unlock()
  }

  private func stop(with error: Error) {
    lock.lock()
    if failure == nil { failure = error }
    lock.broadcast()
    lock.unlock()
  }

  // MARK: - The output file

  /// Checks the files a resumed output's header records against those the
  /// experiment reads now: one it read when loading, here again, must be the
  /// same bytes, and one only its runs read is hashed where `require` or
  /// `read_csv` would find it now.
  private func checkFiles(of opened: OpenedOutput) throws {
    knownFiles = header.files ?? ReadFiles()
    // A file from before header lines keeps none: its first line is a row.
    writtenHeader = opened.existing ? opened.header : header
    recordedFiles = writtenHeader?.files
    guard let found = opened.header, opened.existing, let recorded = found.files else { return }
    for (kind, name, digest) in recorded.all {
      let key = kind == .module ? knownFiles.modules[name] : knownFiles.data[name]
      let what = kind == .module ? "the module '\(name)'" : "the data file '\(name)'"
      if let now = key {
        guard now == digest else {
          throw BatchError("\(options.output) was written when \(what) had sha256 \(digest.prefix(12)); it has "
                           + "\(now.prefix(12)) now: resuming would mix runs of both versions; put it back as it was, or start a new file")
        }
        continue
      }
      guard let path = main.currentPath(of: kind, name: name), let bytes = try? readFileBytes(path) else {
        throw BatchError("\(options.output) was written by runs that read \(what), which is not found now: "
                         + "resuming would mix runs without it; put it back, or start a new file")
      }
      let now = sha256Hex(bytes)
      guard now == digest else {
        throw BatchError("\(options.output) was written when \(what) (\(path)) had sha256 \(digest.prefix(12)); it has "
                         + "\(now.prefix(12)) now: resuming would mix runs of both versions; put it back as it was, or start a new file")
      }
      _ = knownFiles.add(LoadedFile(kind: kind, name: name, path: path, digest: digest))
    }
    for (kind, name, _) in knownFiles.all where (kind == .module ? recorded.modules[name] : recorded.data[name]) == nil {
      let what = kind == .module ? "the module '\(name)'" : "the data file '\(name)'"
      throw BatchError("the experiment reads \(what) when it loads, and the batch that wrote \(options.output) did not: "
                       + "resuming would mix runs of two versions; start a new file")
    }
  }

  /// The output's header with the files the runs read since it was written,
  /// or nil when it lists them all already (or lists none: an older file).
  private func headerWithRunFiles() -> ResultHeader? {
    guard var h = writtenHeader, let recorded = recordedFiles else { return nil }
    let all = recorded.union(knownFiles)
    guard all != recorded else { return nil }
    h.files = all
    return h
  }

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
    if row.outcome.error == nil {
      for (name, _) in row.outcome.metrics {
        if let problem = columnNameProblem(name) {
          row.outcome = RunOutcome(error: "\(spec.runPlace): run returned the metric \(shownName(name)), which \(problem)")
          break
        }
      }
    }
    if sink.fixesMetrics, row.outcome.error == nil {
      if let fixed = fixedMetrics {
        // Which run comes first differs between shards, so a run is not
        // failed for differing from it: the batch stops, as a merge of the
        // shards does, with the same message.
        if Set(fixed) != Set(row.outcome.metrics.map(\.name)) {
          throw varyingMetricsError(fixed, row.outcome.metrics.map(\.name))
        }
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
    return RunOutcome(error: "\(spec.runPlace): run returned the metrics \(got.joined(separator: ", ")); \(what) are \(names.joined(separator: ", "))")
  }
}

/// Starts a thread running `body` with a stack of `stackSize` bytes, or says
/// why the system refused it (pthread_create's error: EAGAIN when memory or
/// the address space is short). Foundation's `Thread` gives no such answer, so
/// a refused thread would never run and never be known to have failed.
func startThread(stackSize: Int, _ body: @escaping () -> Void) -> Swift.Result<pthread_t, ThreadStartError> {
  var attributes = pthread_attr_t()
  pthread_attr_init(&attributes)
  defer { pthread_attr_destroy(&attributes) }
  pthread_attr_setstacksize(&attributes, stackSize)
  let box = Unmanaged.passRetained(ThreadBody(body))
  var thread = pthread_t()
  let code = pthread_create(&thread, &attributes, { context in
    let box = Unmanaged<ThreadBody>.fromOpaque(context!).takeRetainedValue()
    box.body()
    return nil
  }, box.toOpaque())
  guard code == 0 else {
    box.release()
    return .failure(ThreadStartError(code: code))
  }
  return .success(thread)
}

/// What a thread started by `startThread` runs, handed to it through C.
private final class ThreadBody {
  let body: () -> Void
  init(_ body: @escaping () -> Void) { self.body = body }
}

/// pthread_create's refusal (an errno value).
struct ThreadStartError: Error {
  var code: Int32
}
