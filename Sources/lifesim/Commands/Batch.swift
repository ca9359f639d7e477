import ArgumentParser
import Foundation
import LifeSimBatch
import LifeSimEngine
import LifeSimLua
import LifeSimPlatform

extension Lifesim {
  /// `lifesim batch EXP.lua`: every (point, seed) of an experiment, in parallel.
  struct Batch: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Run an experiment's parameter grid × seeds on worker threads.",
      discussion: """
        Writes one row per run (params, seed, status, metrics, error) to the result \
        file as runs finish, in run order, so the file is the same bytes whatever \
        --jobs and --shard are. Then prints a summary of every point. A run that \
        fails is recorded with its error and the others go on; the exit status is \
        then 1. An existing result file is refused unless --resume continues it \
        or --force replaces it; Ctrl-C stops the batch between runs and prints \
        the command that resumes it. Under a Slurm job array or a Kubernetes Indexed Job, the shard \
        comes from SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT or from \
        JOB_COMPLETION_INDEX with --shards N (or LIFESIM_SHARDS).
        """
    )

    @Argument(help: "The experiment file (it returns lifesim.experiment{…}).")
    var file: String

    @Option(name: .shortAndLong, help: ArgumentHelp("Worker threads (default: the number of cores).", valueName: "N"))
    var jobs: Int?

    @Option(help: ArgumentHelp("Seeds per point, overriding the file's `seeds`.", valueName: "N"))
    var seeds: Int?

    @Option(name: .shortAndLong, help: ArgumentHelp("The result file, .csv, .jsonl or .sqlite (default: NAME.csv, from the file's name).", valueName: "file"))
    var output: String?

    @Flag(help: "Keep the rows already in the result file and run only the missing runs.")
    var resume = false

    @Flag(help: "Replace the result file if it exists (without it, an existing file is refused unless --resume continues it).")
    var force = false

    @Option(help: ArgumentHelp("Run every N-th run starting at run I (0 ≤ I < N).", valueName: "I/N"))
    var shard: String?

    @Option(help: ArgumentHelp("The number of shards, when the index comes from JOB_COMPLETION_INDEX.", valueName: "N"))
    var shards: Int?

    @Option(help: ArgumentHelp("Also draw this metric as an SVG chart (see lifesim plot).", valueName: "metric"))
    var plot: String?

    @Option(help: ArgumentHelp("Where --plot writes (default: the result file's name with .svg).", valueName: "file"))
    var plotOutput: String?

    @Option(name: .customLong("where"), help: ArgumentHelp("For --plot: keep only points with this value of a parameter.", valueName: "name=value"))
    var filters: [String] = []

    @Flag(help: "Print nothing but errors and warnings: no progress, no counts, no summary table (the results are in the file).")
    var quiet = false

    @OptionGroup var common: CommonOptions

    func validate() throws {
      if let jobs, jobs < 1 || jobs > 1024 { throw ValidationError("--jobs must be between 1 and 1024") }
      if let seeds, seeds < 1 || seeds > BatchRunner.maxSeeds {
        throw ValidationError("--seeds must be between 1 and \(BatchRunner.maxSeeds)")
      }
      if let shards, shards < 1 { throw ValidationError("--shards must be ≥ 1") }
      if let shard {
        let s = try parseShard(shard)
        if let shards, shards != s.count {
          throw ValidationError("--shard \(shard) is one of \(s.count) shards, but --shards says \(shards): give one of them")
        }
      }
      if let output { _ = try parseFormat(output) }
      if force && resume { throw ValidationError("--force replaces the result file and --resume continues it: give one of them") }
      for f in filters where !f.contains("=") { throw ValidationError("--where takes name=value, got '\(f)'") }
      if !filters.isEmpty && plot == nil { throw ValidationError("--where selects the points of --plot; give --plot METRIC") }
      let output = self.output ?? defaultOutput()
      let chart = plot.map { _ in plotOutput ?? replacingExtension(of: output, with: "svg") }
      try refuseOutputOverInput(outputs: [("--output", output), ("--plot-output", chart)], inputs: [("the experiment", file)])
    }

    func run() throws {
      let output = self.output ?? defaultOutput()
      var runtime = common.runtimeOptions()
      runtime.output = { printError($0) }  // print() in runs goes to stderr, beside the progress
      let chart = plot.map { _ in plotOutput ?? replacingExtension(of: output, with: "svg") }
      runtime.outputs = [("--output", output), ("--plot-output", chart)].compactMap { o in o.1.map { (o.0, $0) } }
      let cores = ProcessInfo.processInfo.activeProcessorCount
      var workers = jobs ?? cores
      let most = Self.maxJobs(cores: cores)
      if workers > most {
        // Runs are CPU-bound: workers beyond the cores only wait for one, each
        // with its own Lua state and stack.
        printError("lifesim: --jobs \(workers) capped at \(most) (twice the \(cores) core\(cores == 1 ? "" : "s"), at least 4): more workers would only wait for a core")
        workers = most
      }
      var options = BatchOptions(experiment: file, output: output, jobs: workers, runtime: runtime)
      options.seeds = seeds
      options.resume = resume
      options.force = force
      options.shouldStop = { stopSignal.pointee != 0 }
      if let shard {
        options.shard = try parseShard(shard)
      } else if let (s, source) = try environmentShard() {
        options.shard = s
        if !quiet { printError("lifesim: shard \(s) (from \(source))") }
      } else if let shards {
        // Without an index, the count alone would run the whole grid in silence.
        throw ValidationError("--shards \(shards) gives the number of shards when the index comes from the environment "
                              + "(JOB_COMPLETION_INDEX), which is not set; give --shard I/\(shards) to run shard I")
      }
      let runner = try BatchRunner(options: options)
      runner.notice = { printError($0) }
      let spec = runner.spec
      if !quiet {
        var line = "lifesim: \(spec.name): \(spec.runCount) runs (\(spec.points.count) points × \(spec.seeds) seeds"
        if spec.excluded > 0 { line += ", \(spec.excluded) points excluded by the constraint" }
        line += ")"
        if let s = options.shard { line += ", shard \(s)" }
        line += ", \(options.jobs) jobs → \(output)"
        printError(line)
      }
      let progress = ProgressDisplay(enabled: !quiet)
      let start = Date()
      let report: BatchReport
      catchStopSignals()
      defer { restoreStopSignals() }
      do {
        report = try runner.run { progress.update($0) }
      } catch {
        progress.finish()  // the error goes on a line of its own
        throw error
      }
      progress.finish()
      if report.interrupted {
        let signal = stopSignal.pointee
        let name = signal == SIGTERM ? "SIGTERM" : "SIGINT"
        let kept = "\(report.kept) run\(report.kept == 1 ? " is" : "s are") kept in \(report.keptIn)"
        let replaced = report.replaces.map { " (\($0) is as it was: --force replaces it when the batch ends)" } ?? ""
        printError("lifesim: stopped by \(name): \(kept)\(replaced); this continues the batch: \(resumeCommand())")
        throw ExitCode(128 + signal)
      }
      if !quiet {
        let seconds = Date().timeIntervalSince(start)
        printError("lifesim: \(report.ran) runs in \(String(format: "%.1f", seconds)) s (\(String(format: "%.1f", Double(report.ran) / max(seconds, 1e-9))) runs/s), peak memory \(peakResidentKB() / 1024) MB")
      }
      if !quiet && report.skipped > 0 {
        printError("lifesim: \(report.skipped) runs were already in \(output) (--resume)")
      }
      if common.iosOption != nil, !report.versionsInsteadOfOption.isEmpty {
        let what = report.versionsInsteadOfOption.map { "ios = \($0)" }.joined(separator: ", ")
        printError("lifesim: warning: --ios \(common.ios) was not used: \(file) sets \(what) in lifesim.device, "
                   + "which wins over --ios; the runs used what the script sets")
      }
      // Under --quiet without --plot nothing reads the summary: it is not made
      // (it reads the results again and may bootstrap every interval).
      let summary = quiet && plot == nil ? nil : try ResultSummary(path: output)
      if !quiet, let summary { writeOut(visibleControls(summary.render(title: spec.name))) }
      if let metric = plot, let summary {
        // The results are what matters: a chart that cannot be drawn is
        // reported, and the batch's exit status stays what the runs made it.
        let path = plotOutput ?? replacingExtension(of: output, with: "svg")
        var request = PlotRequest(metric: metric)
        request.filters = parseFilters(filters)
        do {
          try writePlot(summary, request, to: path)
          if !quiet { printError("lifesim: wrote \(path)") }
        } catch CommandFailure.cannotWrite(let path, let reason) {
          // A chart drawn but lost is a failed write, as for any output.
          printError("lifesim: cannot write \(path): \(reason) (the results are in \(output))")
          throw ExitCode(2)
        } catch {
          // The chart's request (a metric or filter it cannot draw), not the batch.
          let said = failureReport(for: error)?.message.map { String($0.dropFirst("lifesim: ".count)) } ?? "\(error)"
          printError("lifesim: no chart: \(said) (the results are in \(output); lifesim plot draws them)")
        }
      }
      if report.failed > 0 {
        throw CommandFailure.runsFailed(failed: report.failed, ran: report.ran, first: report.firstError ?? "?")
      }
    }

    /// This command line as the user can run it again with --resume (and
    /// without --force, which would replace what is kept).
    private func resumeCommand() -> String {
      var words = Array(CommandLine.arguments.dropFirst()).filter { $0 != "--force" }
      if !words.contains("--resume") { words.append("--resume") }
      return ([CommandLine.arguments.first ?? "lifesim"] + words).map(shellWord).joined(separator: " ")
    }

    /// The most workers a batch starts: twice the cores, and at least 4.
    static func maxJobs(cores: Int) -> Int { max(4, 2 * cores) }

    private func defaultOutput() -> String {
      let base = file.split(separator: "/").last.map(String.init) ?? file
      return replacingExtension(of: base, with: "csv")
    }

    private func environmentShard() throws -> (Shard, String)? {
      do {
        return try Shard.fromEnvironment(ProcessInfo.processInfo.environment, count: shards)
      } catch let e as BatchError {
        throw ValidationError(e.description)
      }
    }
  }

  /// `lifesim merge PART... -o OUT`
  struct Merge: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Join the result files of a batch's shards, in run order.",
      discussion: "The output is the same bytes an unsharded batch writes."
    )

    @Argument(help: "The shards' result files.")
    var parts: [String]

    @Option(name: .shortAndLong, help: ArgumentHelp("The merged file (.csv, .jsonl or .sqlite, like the parts).", valueName: "file"))
    var output: String

    @Flag(help: "Merge even when runs are missing (a shard that did not finish).")
    var allowPartial = false

    func validate() throws {
      guard !parts.isEmpty else { throw ValidationError("give the result files of the shards to merge") }
      _ = try parseFormat(output)
    }

    func run() throws {
      try ResultMerge.merge(parts, into: output, allowPartial: allowPartial) { printError($0) }
    }
  }

  /// `lifesim summary RESULTS`
  struct Summary: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Print count, mean, sd, 95% CI, p50 and p95 of each metric at each point of a result file.",
      discussion: """
        --compare PARAM gives instead the paired differences by seed between the values of \
        a parameter: every point runs the same seeds, so each value's run is compared with \
        the baseline's run of the same seed (the other parameters equal), with the mean \
        difference, its 95% CI and the paired t test (as R's t.test(paired = TRUE)).
        """
    )

    @Argument(help: "A result file from lifesim batch or lifesim merge (.csv, .jsonl or .sqlite).")
    var results: String

    @Option(help: ArgumentHelp("text (tables), csv (a row per point and metric), json, or markdown (pipe tables).", valueName: "format"))
    var format: SummaryFormat = .text

    @Option(help: ArgumentHelp("How the 95% CI of a mean is made: t (Student's t), bootstrap (percentile, \(Bootstrap.resamples) resamples, seed \(Bootstrap.seed)), or auto: t, unless it would cross 0 where no value does (a count or a rate), then the bootstrap, marked *.", valueName: "method"))
    var ci: IntervalMethod = .auto

    @Option(help: ArgumentHelp("Paired differences by seed between the values of this parameter.", valueName: "param"))
    var compare: String?

    @Option(help: ArgumentHelp("With --compare: the value the others are compared with (default: the first).", valueName: "value"))
    var baseline: String?

    func validate() throws {
      if baseline != nil && compare == nil { throw ValidationError("--baseline goes with --compare PARAM") }
      if compare != nil && ci != .auto { throw ValidationError("--ci is for the means' intervals: --compare gives Student's t interval of the paired differences") }
    }

    enum SummaryFormat: String, ExpressibleByArgument, CaseIterable {
      case text, csv, json, markdown
    }

    func run() throws {
      if let compare {
        let comparison = try PairedComparison(path: results, param: compare, baseline: baseline)
        switch format {
        case .text: writeOut(visibleControls(comparison.render(title: results)))
        case .csv: writeOut(comparison.csv())
        case .json: writeOut(comparison.json())
        case .markdown: writeOut(visibleControls(comparison.markdown(title: results)))
        }
        return
      }
      let summary = try ResultSummary(path: results, interval: ci)
      switch format {
      // Tables are read as text: a NUL in a name shows as \0. CSV and JSON
      // carry it as data (JSON escapes it).
      case .text: writeOut(visibleControls(summary.render(title: results)))
      case .csv: writeOut(summary.csv())
      case .json: writeOut(summary.json())
      case .markdown: writeOut(visibleControls(summary.markdown(title: results)))
      }
    }
  }

  /// `lifesim plot RESULTS --metric M -o plot.svg`
  struct Plot: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Draw a metric against a parameter as an SVG chart, one line per value of another.",
      discussion: "Each point is the mean over its seeds, with its 95% confidence interval as an error bar."
    )

    @Argument(help: "A result file from lifesim batch or lifesim merge (.csv, .jsonl or .sqlite).")
    var results: String

    @Option(name: [.customLong("metric"), .customLong("plot")], help: "The metric on the y axis.")
    var metric: String

    @Option(help: ArgumentHelp("The parameter on the x axis (default: the first numeric one that varies).", valueName: "param"))
    var x: String?

    @Option(help: ArgumentHelp("One line per value of this parameter (default: the other one that varies).", valueName: "param"))
    var series: String?

    @Option(name: .customLong("where"), help: ArgumentHelp("Keep only points with this value of a parameter.", valueName: "name=value"))
    var filters: [String] = []

    @Option(help: "The chart's title.")
    var title: String?

    @Flag(help: ArgumentHelp("Draw a numeric x parameter to scale even when it has few values (by default, up to \(PlotRequest.categoryLimit) values are equally spaced categories in order, as iOS versions are)."))
    var xContinuous = false

    @Option(name: .shortAndLong, help: ArgumentHelp("The SVG file to write.", valueName: "file"))
    var output: String

    func validate() throws {
      for f in filters where !f.contains("=") {
        throw ValidationError("--where takes name=value, got '\(f)'")
      }
      try refuseOutputOverInput(outputs: [("--output", output)], inputs: [("the result file", results)])
    }

    func run() throws {
      var request = PlotRequest(metric: metric)
      request.x = x
      request.series = series
      request.title = title
      request.xContinuous = xContinuous
      request.filters = parseFilters(filters)
      try writePlot(try ResultSummary(path: results), request, to: output)
    }
  }
}

/// `name=value` pairs (validate() checked each has an "=").
private func parseFilters(_ filters: [String]) -> [(name: String, value: String)] {
  filters.map { f in
    let eq = f.firstIndex(of: "=")!
    return (String(f[..<eq]), String(f[f.index(after: eq)...]))
  }
}

private func writePlot(_ summary: ResultSummary, _ request: PlotRequest, to path: String) throws {
  try writeTextFile(path, try SVGPlot.render(summary, request))
}

private func parseShard(_ text: String) throws -> Shard {
  do { return try Shard(parsing: text) } catch let e as BatchError { throw ValidationError(e.description) }
}

private func parseFormat(_ path: String) throws -> ResultFormat {
  do { return try ResultFormat(path: path) } catch let e as BatchError { throw ValidationError(e.description) }
}

private func replacingExtension(of path: String, with ext: String) -> String {
  let name = path.split(separator: "/").last.map(String.init) ?? path
  guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return path + "." + ext }
  return String(path.dropLast(name.distance(from: dot, to: name.endIndex))) + "." + ext
}

/// Progress on standard error: a bar redrawn in place on a terminal, plain
/// lines at each tenth otherwise (logs of cluster jobs).
final class ProgressDisplay: @unchecked Sendable {
  private let enabled: Bool
  private let terminal = isatty(2) != 0
  private var lastDraw = 0.0
  private var lastTenth = 0
  private var drawn = false
  /// The host's wall clock, for rate and ETA only: nothing a script or a result sees.
  private let started = Date()

  init(enabled: Bool) { self.enabled = enabled }

  private var toldAlready = false

  /// Called under the batch's lock, so never concurrently.
  func update(_ p: BatchProgress) {
    guard enabled else { return }
    if !toldAlready && p.already > 0 {
      // A resumed batch says first what it found, before any progress.
      toldAlready = true
      fputs("lifesim: resuming: \(p.already) run\(p.already == 1 ? " was" : "s were") already done, \(p.total) to go\n", stderr)
    }
    guard p.total > 0 else { return }
    let elapsed = Date().timeIntervalSince(started)
    let rate = elapsed > 0 ? Double(p.done) / elapsed : 0
    let eta = rate > 0 ? Double(p.total - p.done) / rate : 0
    let failed = p.failed > 0 ? ", \(p.failed) failed" : ""
    if terminal {
      guard elapsed - lastDraw >= 0.1 || p.done == p.total else { return }
      lastDraw = elapsed
      let width = 30
      let filled = p.done * width / p.total
      let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
      let resumed = p.already > 0 ? " (+\(p.already) already)" : ""
      let text = "\r\(bar) \(p.done)/\(p.total) runs\(resumed)  \(String(format: "%.1f", rate))/s  ETA \(clock(eta))\(failed)\u{1B}[K"
      fputs(text, stderr)
      drawn = true
    } else {
      let tenth = p.done * 10 / p.total
      guard tenth > lastTenth else { return }
      lastTenth = tenth
      let resumed = p.already > 0 ? " (and \(p.already) already done)" : ""
      // A line at each tenth passed, with the share actually done (1 of 4
      // runs passes the second tenth, and is 25%).
      fputs("lifesim: \(p.done)/\(p.total) runs\(resumed) (\(p.done * 100 / p.total)%), \(String(format: "%.1f", rate)) runs/s, ETA \(clock(eta))\(failed)\n", stderr)
    }
  }

  func finish() {
    if drawn { fputs("\n", stderr) }
    drawn = false
  }

  private func clock(_ seconds: Double) -> String {
    let s = Int(seconds.rounded())
    return s >= 3600 ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(format: "%d:%02d", s / 60, s % 60)
  }
}

/// A word as a POSIX shell reads it back: quoted when it holds anything but
/// letters, digits and `-_./=:,+@%`.
private func shellWord(_ word: String) -> String {
  let plain = !word.isEmpty && word.unicodeScalars.allSatisfy {
    CharacterSet.alphanumerics.contains($0) && $0.isASCII || "-_./=:,+@%".unicodeScalars.contains($0)
  }
  return plain ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
}

/// The signal that asked a batch to stop (0: none). The handler only stores
/// it, which is async-signal-safe; the batch's workers read it between runs.
nonisolated(unsafe) let stopSignal: UnsafeMutablePointer<sig_atomic_t> = {
  let p = UnsafeMutablePointer<sig_atomic_t>.allocate(capacity: 1)
  p.pointee = 0
  return p
}()

private func onStopSignal(_ signal: Int32) {
  stopSignal.pointee = signal
  // A second Ctrl-C ends the process at once, as it would without lifesim's handler.
  Glibc.signal(signal, SIG_DFL)
}

/// SIGINT and SIGTERM stop the batch between runs: the runs under way end
/// and are written, and the command says what is kept and how to resume.
private func catchStopSignals() {
  stopSignal.pointee = 0  // initialised before any handler can read it
  var action = sigaction()
  action.__sigaction_handler.sa_handler = onStopSignal
  sigemptyset(&action.sa_mask)
  action.sa_flags = SA_RESTART
  var unblock = sigset_t()
  sigemptyset(&unblock)
  for signal in [SIGINT, SIGTERM] {
    sigaction(signal, &action, nil)
    sigaddset(&unblock, signal)
  }
  // A parent may have blocked them, and the mask survives exec.
  sigprocmask(SIG_UNBLOCK, &unblock, nil)
}

private func restoreStopSignals() {
  signal(SIGINT, SIG_DFL)
  signal(SIGTERM, SIG_DFL)
}

extension IntervalMethod: ExpressibleByArgument {}
