import CLuaShim
import LifeSimEngine
import LifeSimLua

import LifeSimPlatform

/// `lifesim repl [FILE.lua]`: an interactive Lua session with lifesim loaded.
///
/// Each chunk is evaluated the way `lua.c` does it (`return <chunk>` first, `>>`
/// for an unfinished statement); its values are pretty-printed, then the trace
/// records it produced. Meta-commands start with `:`. The session's successful
/// chunks can be saved as a scenario that `lifesim run` replays to the same trace.
public final class REPL {
  public struct Configuration {
    /// A script to run first; its globals stay. Without one, the session starts
    /// with `dev` (a device) and `app` (one installed app).
    public var file: String?
    public var options: RuntimeOptions
    /// Whether stdin is a terminal: prompts, libedit, history, a banner.
    public var interactive: Bool
    /// Colour the trace by kind (a colour terminal, and no NO_COLOR).
    public var colour: Bool
    /// Where libedit keeps the history (`~/.lifesim_history`).
    public var historyPath: String?

    public init(file: String?, options: RuntimeOptions, interactive: Bool, colour: Bool, historyPath: String?) {
      self.file = file
      self.options = options
      self.interactive = interactive
      self.colour = colour
      self.historyPath = historyPath
    }
  }

  /// How the records a chunk produced are shown below it.
  enum TraceMode: String {
    case on, off, jsonl
  }

  let config: Configuration
  var runtime: LuaRuntime
  var traceMode: TraceMode = .on
  /// The chunks that ran, in order, for `:save`.
  var session = SessionScript()
  /// The modules and data files the session's runtimes read, for `:save`
  /// to refuse writing over one.
  var loadedFiles: [LoadedFile] = []
  /// Per device (in creation order), the first record not yet shown.
  var shown: [Int] = []
  /// A chunk typed at the prompt runs (not the start-up file, whose records stay unshown).
  private var evaluating = false
  private let input: LineInput

  public init(_ config: Configuration) throws {
    self.config = config
    var options = config.options
    options.retainDevices = true
    // A `print` comes after the records made before it (the action whose
    // handler prints, its callbacks): those are shown first, in trace order.
    let order = PrintOrder()
    options.output = { text in
      order.recordsBefore?()
      writeBytes(text, to: stdout)
      fflush(stdout)
    }
    self.runtime = try LuaRuntime(options: options)
    self.input = config.interactive ? EditLineInput(historyPath: config.historyPath) : PlainInput()
    order.recordsBefore = { [unowned self] in if evaluating { showNewRecords() } }
  }

  /// Runs the session until `:quit` or the end of input.
  public func run() {
    if config.interactive {
      EditLineInput.complete = { [unowned self] word, before in runtime.completions(for: word, before: before) }
    }
    ls_sigint_target(nil)
    start()
    var buffer: [String] = []
    while true {
      fflush(stdout)
      switch input.read(prompt: buffer.isEmpty ? "> " : ">> ") {
      case .end:
        if config.interactive { fputs("\n", stdout) }
        return
      case .interrupted:
        buffer = []
        continue
      case .line(let line):
        input.remember(line)
        if buffer.isEmpty, line.first == ":" {
          if !meta(line) { return }
          continue
        }
        if buffer.isEmpty && line.allSatisfy({ $0 == " " || $0 == "\t" }) { continue }
        buffer.append(line)
        if evaluate(buffer.joined(separator: "\n")) { buffer = [] }
      }
    }
  }

  /// Sets up the session: the file, or the ready device and app.
  func start() {
    session = SessionScript()
    session.seed = config.options.seed
    if let file = config.file {
      session.file = file
      do {
        try runtime.runFile(file)
      } catch let f as LuaFailure {
        printError(f.report)
        printError("(the session goes on with what \(file) defined before the error)")
      } catch {
        printError("\(error)")
      }
      markShown()
      if config.interactive {
        say("lifesim \(lifesimVersion): \(file) ran; its globals are yours. :help for help, Ctrl-D to quit.")
      }
    } else {
      for line in session.defaultSetup(ios: config.options.ios) {
        if case .failed(let f) = runtime.evaluate(line) { printError(f.report) }
      }
      markShown()
      if config.interactive {
        say("lifesim \(lifesimVersion): dev is an iOS \(config.options.ios) device; app is com.example.notes on it,")
        say("with a storyboard root view controller. Try dev:launch(app), app:push{ class = \"Detail\" },")
        say("dev:home(), dev:advance(30). Tab completes; :help for help, Ctrl-D to quit.")
      }
    }
  }

  /// Keeps what the runtime read since it was last asked.
  func noteLoadedFiles() {
    for f in runtime.takeLoadedFiles() where !loadedFiles.contains(where: { $0.path == f.path }) { loadedFiles.append(f) }
  }

  /// Evaluates a chunk. Returns false when it is unfinished (read another line).
  func evaluate(_ chunk: String) -> Bool {
    ls_sigint_target(runtime.interruptTarget)
    let before = traceLengths()
    evaluating = true
    let result = runtime.evaluate(chunk)
    evaluating = false
    ls_sigint_target(nil)
    _ = ls_sigint_take()
    switch result {
    case .incomplete:
      return false
    case .ok(let values, let expression):
      if !values.isEmpty { say(values.joined(separator: "\t")) }
      session.append(chunk, asStatement: !expression || runtime.compilesAsStatement(chunk))
    case .failed(let f):
      printError(report(f))
      // A chunk that failed half way may have changed the trace; :save keeps it, protected.
      if f.kind != .syntax && traceLengths() != before { session.appendFailed(chunk, message: f.message) }
    }
    showNewRecords()
    return true
  }

  /// The error as the REPL shows it: the message, the handler, and the traceback
  /// without the REPL's own frames.
  private func report(_ f: LuaFailure) -> String {
    guard let tb = f.traceback else { return f.description }
    let lines = tb.split(separator: "\n", omittingEmptySubsequences: false)
      .filter { !$0.contains("[C]: in ?") }
    return lines.count <= 1 ? f.description : f.description + "\n" + lines.joined(separator: "\n")
  }

  // MARK: - Live trace

  private func traceLengths() -> [Int] { runtime.createdDevices.map { $0.trace.records.count } }

  func markShown() { shown = runtime.createdDevices.map { $0.trace.nextSeq } }

  func showNewRecords() {
    let devices = runtime.createdDevices
    defer { markShown() }
    guard traceMode != .off else { return }
    let writer = TraceWriter(format: traceMode == .jsonl ? .jsonl : .text)
    var out = ""
    for (i, device) in devices.enumerated() {
      let since = i < shown.count ? shown[i] : 1
      let prefix = devices.count > 1 ? "dev\(i + 1) " : ""
      for r in device.trace.records where r.seq >= since {
        var line = ""
        writer.line(r, in: device.trace, into: &line)
        out += prefix + colour(line, r.kind) + "\n"
      }
    }
    if !out.isEmpty { writeBytes(out, to: stdout) }
  }

  private func colour(_ line: String, _ kind: RecordKind) -> String {
    guard config.colour, traceMode == .on else { return line }
    let code: String
    switch kind {
    case .callback: code = "32"
    case .notification: code = "34"
    case .state: code = "36"
    case .action: code = "1"
    case .kill: code = "1;31"
    case .dataLoss: code = "31"
    case .expire, .warning, .wait: code = "33"
    case .memory: code = "35"
    case .snapshot, .log: code = "2"
    }
    return "\u{1B}[\(code)m\(line)\u{1B}[0m"
  }

  // MARK: - Output

  func say(_ text: String) {
    writeBytes(text.hasSuffix("\n") ? text : text + "\n", to: stdout)
  }

  /// An error is text: a NUL from a script's string shows as `\0`.
  func printError(_ text: String) {
    fflush(stdout)
    writeBytes(visibleControls(text.hasSuffix("\n") ? text : text + "\n"), to: stderr)
  }
}

/// The REPL's hook for `print`, made before the REPL it calls back (there is
/// one REPL per process, on the main thread).
final class PrintOrder: @unchecked Sendable {
  var recordsBefore: (() -> Void)?
}

/// Writes every UTF-8 byte of `text` (fputs would stop at a NUL).
func writeBytes(_ text: String, to file: UnsafeMutablePointer<FILE>) {
  var text = text
  text.withUTF8 { _ = fwrite($0.baseAddress, 1, $0.count, file) }
}
