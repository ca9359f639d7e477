import ArgumentParser
import LifeSimEngine
import LifeSimLua
import LifeSimPictures

import LifeSimPlatform

extension Lifesim {
  /// `lifesim run FILE.lua`: runs a scenario and writes its trace.
  struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Run a scenario script and write its trace.",
      discussion: """
        The trace of every device the script makes is written after the script \
        ends, also when it fails. Errors go to standard error.
        """
    )

    @Argument(help: "The Lua scenario to run.")
    var file: String

    @OptionGroup var common: CommonOptions

    @Option(help: ArgumentHelp("The trace format: \(OutputFormat.listed).", valueName: "format"))
    var format: OutputFormat = .text

    @Option(help: "How callbacks are named in text traces: objc or swift.")
    var names: NameStyle = .objc

    @Option(name: .shortAndLong, help: "Write the trace to this file instead of standard output.")
    var output: String?

    @Flag(help: """
      Write each record as it is made instead of at the end: memory stays flat \
      however long the run, and dev.trace queries are refused (devices keep no \
      records). Records of a second device onwards carry its number.
      """)
    var stream = false

    @Option(help: ArgumentHelp("Also draw the trace as a timeline, an SVG file (see lifesim timeline).", valueName: "file"))
    var timeline: String?

    func validate() throws {
      if stream && !format.row.streams {
        throw ValidationError("--stream cannot write \(format) traces: it writes \(TraceFormatRow.list(TraceFormatRow.all.filter(\.streams)))")
      }
      if stream && timeline != nil {
        throw ValidationError("--timeline needs the records kept: without --stream, or write --format jsonl and run lifesim timeline on it")
      }
      try refuseOutputOverInput(outputs: [("--output", output), ("--timeline", timeline)], inputs: [("the script", file)])
    }

    func run() throws {
      if common.unsafe {
        printError("lifesim: warning: --unsafe gives the script the whole standard library (io, os, debug)")
      }
      var options = common.runtimeOptions()
      // print() is a `log` record in the trace, among the callbacks; with the
      // trace in a file it shows on the terminal too. Before any device exists
      // it goes to standard output, or to standard error when a JSONL trace
      // goes there (a stray line would break it).
      options.printsToTrace = true
      options.outputs = [("--output", output), ("--timeline", timeline)].compactMap { o in o.1.map { (o.0, $0) } }
      if output != nil {
        options.printEcho = { print($0, terminator: "") }
      } else if !format.row.takesText {
        options.output = { writeBytes($0, to: stderr) }
      }
      var sink: StreamOutput?
      let traceFile = format.row.file(names)
      if stream {
        let out = try StreamOutput(path: output)
        var opening: [UInt8] = []
        traceFile.opening(into: &opening)
        out.write(bytes: opening)
        options.traceStream = { _, number in
          TraceStream(formatter: traceFile.formatter(for: nil, number: number, count: nil), chunkSize: 0) {
            out.write(bytes: $0)
          }
        }
        if output == nil && format.row.takesText { options.output = { out.write($0) } }  // keeps its place among the records
        sink = out
      }
      let runtime = try LuaRuntime(options: options)
      // The traces are written also when the script fails: keep the failure for the end.
      var failure: LuaFailure?
      do {
        try runtime.runFile(file)
      } catch let f as LuaFailure where f.mark != nil {
        // No failure: the script ends there, and says so.
        printError("lifesim: \(f.message) (the script stops here; lifesim test counts it)")
      } catch let f as LuaFailure {
        failure = f
      }
      // The script read a file this command was to write: write nothing.
      if let clash = runtime.readOutput {
        sink?.discard()
        if let failure { throw failure }
        printError("lifesim: \(clash)")
        throw ExitCode(2)
      }
      if failure == nil && runtime.hasExperiment {
        printError("lifesim: \(file) is an experiment: `lifesim batch \(file)` runs its grid (lifesim run only loaded it)")
      }
      if let sink {
        for device in runtime.createdDevices { device.finishStream() }
        var closing: [UInt8] = []
        traceFile.closing(into: &closing)
        sink.write(bytes: closing)
        try sink.close()
      } else {
        try writeTraces(runtime.createdDevices, to: traceFile)
      }
      if let timeline {
        var options = TimelineOptions()
        options.title = scenarioTitle(file)
        let devices = runtime.createdDevices
        for (i, device) in devices.enumerated() { options.deviceNames[i + 1] = "iOS \(device.profile.version)" }
        let svg = try LifeSimPictures.Timeline.render(options: options) { body in
          for (i, device) in devices.enumerated() {
            for r in device.trace.records { try body(TimelineEvent(r, in: device.trace, device: i + 1)) }
          }
        }
        try writeTextFile(timeline, svg)
      }
      if failure == nil {
        if let warning = common.unusedVersionWarning(runtime, file: file) { printError(warning) }
        for line in runtime.endOfRunNotes() { printError(line) }
      }
      // A failed lifesim.test case fails the run too (exit 1, or 2 for an error).
      var worst: ExitCode?
      for result in runtime.testResults {
        switch result.status {
        case .skipped(let why): printError("lifesim: test '\(result.name)' skipped: \(why)")
        case .xfailed(let why): printError("lifesim: test '\(result.name)' failed as expected: \(why)")
        default: break
        }
        guard let f = result.failure else { continue }
        printError("lifesim: test '\(result.name)' failed: \(f.report)")
        let code = scriptExitCode(for: f)
        if worst == nil || code.rawValue > worst!.rawValue { worst = code }
      }
      if let failure { throw failure }
      if let worst { throw worst }
    }

    /// Writes every device's trace in 64 kB chunks of bytes: never the whole
    /// text at once (a week's trace is megabytes).
    private func writeTraces(_ devices: [Device], to traceFile: TraceFile) throws {
      let file: UnsafeMutablePointer<FILE>
      if let output {
        guard let f = fopen(output, "wb") else {
          throw CommandFailure.cannotWrite(path: output, reason: String(cString: strerror(errno)))
        }
        file = f
      } else {
        file = stdout
      }
      var failed = false
      var chunk: [UInt8] = []
      chunk.reserveCapacity(1 << 16 + 4096)
      func flush() {
        guard !chunk.isEmpty else { return }
        if chunk.withUnsafeBufferPointer({ fwrite($0.baseAddress, 1, $0.count, file) }) != chunk.count { failed = true }
        chunk.removeAll(keepingCapacity: true)
      }
      traceFile.opening(into: &chunk)
      for (i, device) in devices.enumerated() {
        let formatter = traceFile.formatter(for: device, number: i + 1, count: devices.count)
        formatter.header(for: device.trace, into: &chunk)
        for r in device.trace.records {
          formatter.record(r, in: device.trace, into: &chunk)
          if chunk.count >= 1 << 16 { flush() }
        }
        formatter.footer(for: device.trace, into: &chunk)
      }
      traceFile.closing(into: &chunk)
      flush()
      // Standard output is written as `print` is, without a check; a file is checked.
      guard let output else { return }
      if fclose(file) != 0 { failed = true }
      if failed { throw CommandFailure.cannotWrite(path: output, reason: String(cString: strerror(errno))) }
    }
  }
}

/// A format of `lifesim run --format`, by its row.
struct OutputFormat: ExpressibleByArgument, CustomStringConvertible {
  let row: TraceFormatRow

  static let text = OutputFormat(row: TraceFormatRow.named("text")!)

  init(row: TraceFormatRow) { self.row = row }

  init?(argument: String) {
    guard let row = TraceFormatRow.named(argument) else { return nil }
    self.row = row
  }

  var description: String { row.name }
  static var allValueStrings: [String] { TraceFormatRow.all.map(\.name) }

  /// "text, jsonl, or chrome (what chrome is)": each with its note.
  static var listed: String {
    let names = TraceFormatRow.all.map { row in row.note.map { "\(row.name) (\($0))" } ?? row.name }
    guard names.count > 1 else { return names.first ?? "" }
    return names.dropLast().joined(separator: ", ") + ", or " + names.last!
  }
}

/// Where `lifesim run --stream` writes: standard output or a file, through one
/// 64 kB buffer that every device's stream (and `print`) appends to, so records
/// keep the order they were made in.
final class StreamOutput: @unchecked Sendable {
  private let file: UnsafeMutablePointer<FILE>
  private let path: String?
  /// Where the records go until `close` when `path` is an existing file: it
  /// is replaced only then, so a script that reads it reads it whole (and is
  /// refused, see RuntimeOptions.outputs) and the file is left as it was.
  private let staging: String?
  private var buffer: [UInt8] = []
  /// The first failed write's errno (0: none): the run goes on, and `close` reports it.
  private var failure: Int32 = 0

  init(path: String?) throws {
    self.path = path
    var st = stat()
    if let path, stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG {
      let slash = path.lastIndex(of: "/")
      let folder = slash.map { String(path[...$0]) } ?? ""
      let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
      var template = Array((folder + "." + name + ".XXXXXX").utf8CString)
      let fd = mkstemp(&template)
      guard fd >= 0, let f = fdopen(fd, "wb") else {
        throw CommandFailure.cannotWrite(path: path, reason: String(cString: strerror(errno)))
      }
      _ = fchmod(fd, st.st_mode & 0o7777)
      staging = String(cString: template)
      file = f
      removeOnStopSignal(template)
    } else if let path {
      guard let f = fopen(path, "wb") else {
        throw CommandFailure.cannotWrite(path: path, reason: String(cString: strerror(errno)))
      }
      staging = nil
      file = f
    } else {
      staging = nil
      file = stdout
    }
    buffer.reserveCapacity(1 << 17)
  }

  /// Whether `close` or `discard` ran.
  private var finished = false

  /// Drops what was written: an existing file is left as it was.
  func discard() {
    guard !finished else { return }
    finished = true
    buffer.removeAll()
    if path != nil { fclose(file) }
    if let staging {
      unlink(staging)
      keepOnStopSignal()
    }
  }

  /// A run that ends by an error before `close` (the Lua state could not be
  /// made) leaves no staging file either.
  deinit { discard() }

  func write(_ text: String) {
    buffer.append(contentsOf: text.utf8)
    if buffer.count >= 1 << 16 { flush() }
  }

  func write(bytes: [UInt8]) {
    buffer.append(contentsOf: bytes)
    if buffer.count >= 1 << 16 { flush() }
  }

  private func flush() {
    guard !buffer.isEmpty else { return }
    let wrote = buffer.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, file) }
    if wrote != buffer.count && failure == 0 { failure = errno }
    buffer.removeAll(keepingCapacity: true)
  }

  func close() throws {
    guard !finished else { return }
    finished = true
    flush()
    if (fflush(file) != 0 || ferror(file) != 0) && failure == 0 { failure = errno == 0 ? EIO : errno }
    if path != nil && fclose(file) != 0 && failure == 0 { failure = errno }
    if let staging, let path {
      if failure == 0 && rename(staging, path) != 0 { failure = errno }
      if failure != 0 { unlink(staging) }
      keepOnStopSignal()
    }
    if failure != 0 { throw CommandFailure.cannotWrite(path: path ?? "standard output", reason: String(cString: strerror(failure))) }
  }
}

// A stream into an existing file writes a hidden staging file beside it
// (`.NAME.XXXXXX`) and renames it at the end. SIGINT, SIGTERM and SIGHUP would end
// the process before that: their handler removes the staging file, then lets
// the signal end the process as it would have. The handler does only what is
// async-signal-safe: it reads a path made beforehand, unlinks it, restores
// the default action and raises the signal again. SIGKILL cannot be caught,
// and leaves the staging file (docs/cli.md, "Streaming traces").

/// The staging file's path as a C string while a stream writes it, else nil.
/// Allocated before the handler is installed, so the handler never allocates.
nonisolated(unsafe) private let stagingPath: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> = {
  let p = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: 1)
  p.pointee = nil
  return p
}()

/// The actions SIGINT, SIGTERM and SIGHUP had before (put back by `keepOnStopSignal`).
nonisolated(unsafe) private var previousStopActions: [Int32: sigaction] = [:]

private func onStopSignalRemoveStaging(_ signal: Int32) {
  if let path = stagingPath.pointee { unlink(path) }
  Glibc.signal(signal, SIG_DFL)
  raise(signal)
}

/// Removes `path` (a NUL-terminated template filled by mkstemp) if SIGINT,
/// SIGTERM or SIGHUP ends the process before `keepOnStopSignal`.
private func removeOnStopSignal(_ path: [CChar]) {
  let copy = UnsafeMutablePointer<CChar>.allocate(capacity: path.count)
  copy.initialize(from: path, count: path.count)
  stagingPath.pointee = copy
  var action = sigaction()
  action.__sigaction_handler.sa_handler = onStopSignalRemoveStaging
  sigemptyset(&action.sa_mask)
  action.sa_flags = 0
  var unblock = sigset_t()
  sigemptyset(&unblock)
  for signal in [SIGINT, SIGTERM, SIGHUP] {
    var previous = sigaction()
    sigaction(signal, nil, &previous)
    // A signal ignored at start (a background job's SIGINT, nohup's SIGHUP)
    // stays ignored: it cannot end the run, so it leaves no file.
    if isIgnored(previous) { continue }
    sigaction(signal, &action, nil)
    previousStopActions[signal] = previous
    sigaddset(&unblock, signal)
  }
  // A parent may have blocked them, and the mask survives exec: a blocked
  // SIGTERM would wait, and a later SIGKILL leave the file.
  sigprocmask(SIG_UNBLOCK, &unblock, nil)
}

/// Whether a signal's action is SIG_IGN (C function pointers compare by address).
private func isIgnored(_ action: sigaction) -> Bool {
  guard let handler = action.__sigaction_handler.sa_handler else { return false }
  return unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
}

/// The staging file is gone or renamed: the signals get their earlier
/// actions back, and then the path is forgotten (in that order, so that no
/// handler reads it once freed).
private func keepOnStopSignal() {
  for (signal, previous) in previousStopActions {
    var previous = previous
    sigaction(signal, &previous, nil)
  }
  previousStopActions = [:]
  if let path = stagingPath.pointee {
    stagingPath.pointee = nil
    path.deallocate()
  }
}
