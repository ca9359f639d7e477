import ArgumentParser
import LifeSimEngine
import LifeSimExplain
import LifeSimLua

extension LogFormat: ExpressibleByArgument {}
extension SentryStates: ExpressibleByArgument {}

extension Lifesim {
  /// `lifesim explain LOG`: the user actions and system events that produce a
  /// real app's lifecycle log, found by a search over the model.
  struct Explain: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Find the user actions and system events that produce an app's lifecycle log.",
      discussion: """
        The log: lines naming UIKit lifecycle methods or UIApplication notifications \
        (with or without timestamps), Flutter AppLifecycleState lines, React Native \
        AppState changes, Capacitor App plugin events, or Sentry breadcrumbs as JSON; the form is found from the \
        content unless --format names it. Sentry's app.lifecycle foreground changed \
        meaning in sentry-cocoa 9.9.0: a log that does not tell which is read as \
        before, and said; --sentry-states names the scheme. The search is breadth first over \
        lifesim explore's actions and the other overlays, notifications, URLs and \
        pushes, and matches the app's trace kept to the kinds of line the log shows; \
        timestamps bound the waits. The shortest explanations come first. A log that \
        search does not explain is searched again with the app's other windows \
        opened, closed and disconnected (a scene app) and its code passing its memory \
        limit in a step; then, unless --quirk names some, with each quirk of the device \
        alone, and standard error says which explain it. -o writes \
        the steps as a script that lifesim run passes. Exit status: 0 explained; 1 \
        not explained (the first line no sequence reaches, and what the model sends \
        there); 2 a log with no lifecycle lines, an unknown format, a timestamp that \
        is no time, or a bad option.
        """
    )

    @Argument(help: "The log file.")
    var log: String

    @Option(help: ArgumentHelp("The log's form: \(LogFormat.names.joined(separator: ", ")) (default: found from the content).",
                               valueName: "form"))
    var format: LogFormat?

    @Option(help: ArgumentHelp("What Sentry's app.lifecycle foreground means: legacy (sentry-cocoa before 9.9.0: did "
                               + "become active) or 9.9 (will enter foreground) (default: 9.9 if a state is active or "
                               + "inactive, else by the event's sentry.cocoa version, else legacy, said).",
                               valueName: "scheme"))
    var sentryStates: SentryStates?

    @Option(help: "The iOS version of the device.")
    var ios: Int = 17

    @Option(help: ArgumentHelp("The device model (e.g. \"iPhone 11\").", valueName: "name"))
    var model: String?

    // Both at once is a contradiction, not a choice for the last to settle.
    @Flag(inversion: .prefixedNo, exclusivity: .exclusive,
          help: "Whether the app adopts scenes (default: when the log names a scene method).")
    var scenes: Bool?

    // The numbers are read whatever they look like, so that `--depth -1` is
    // refused by `validate` with the range rather than as a missing value.
    @Option(parsing: .unconditional,
            help: "The longest sequence of steps tried (default: the longest an explanation of the log can be).")
    var depth: Int?

    @Option(name: .customLong("quirk"),
            help: ArgumentHelp("A documented variant of iOS the device has (reference §8), as lifesim.quirks names it; repeatable.",
                               valueName: "name"))
    var quirks: [String] = []

    @Option(parsing: .unconditional, help: "Other explanations of the same length to list.")
    var alternatives: Int = 3

    @Option(parsing: .unconditional, help: "Stop after this many distinct states (default: 200,000, or 200 a line of a longer log).")
    var maxStates: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("The most steps in a row that account for no line of the log.", valueName: "N"))
    var maxUnlogged: Int = 3

    @Option(parsing: .unconditional,
            help: ArgumentHelp("Stop when what the search keeps would hold more than this, in MB.", valueName: "MB"))
    var maxSavedMemory: Int = ExplainOptions.defaultMaxSavedMB

    @Option(name: .shortAndLong, help: ArgumentHelp("Write the explanation as a Lua script that lifesim run passes.", valueName: "file"))
    var output: String?

    func validate() throws {
      guard OSProfile.supportedVersions.contains(ios) else {
        throw ValidationError("--ios \(ios) is not a version lifesim models (\(OSProfile.supportedVersions.map(String.init).joined(separator: ", ")))")
      }
      if let model {
        guard let m = DeviceModel.named(model) else {
          throw ValidationError("unknown device model '\(model)'; known models: \(DeviceModel.all.map(\.name).joined(separator: ", "))")
        }
        if !m.runs(ios: ios) { throw ValidationError("the \(m.name) does not run iOS \(ios); pick another --ios or --model") }
      }
      // As `lifesim diagram` refuses a scene machine on a version without scenes.
      if scenes == true, (try? OSProfile(version: ios))?.supportsScenes == false {
        throw ValidationError("--scenes needs iOS 13 or later (asked: --ios \(ios))")
      }
      for q in quirks where Quirk(name: q) == nil {
        throw ValidationError("unknown quirk '\(q)'; known quirks: \(Quirk.allCases.map(\.description).joined(separator: ", "))")
      }
      if let depth, depth < 1 { throw ValidationError("--depth must be ≥ 1") }
      if alternatives < 0 || alternatives > 100 { throw ValidationError("--alternatives must be between 0 and 100") }
      if let maxStates, maxStates < 1 { throw ValidationError("--max-states must be ≥ 1") }
      if maxUnlogged < 0 || maxUnlogged > 100 { throw ValidationError("--max-unlogged must be between 0 and 100") }
      if maxSavedMemory < 1 || maxSavedMemory > 1 << 30 {
        throw ValidationError("--max-saved-memory must be between 1 and 1073741824 MB")
      }
      if let format, format != .sentry, sentryStates != nil {
        throw ValidationError("--sentry-states reads Sentry breadcrumbs; --format \(format.rawValue) has none")
      }
      try refuseOutputOverInput(outputs: [("--output", output)], inputs: [("the log", log)])
      // Said before the search, which may take minutes, not after it.
      if let output, let why = unwritableReason(output) { throw ValidationError("--output \(output) cannot be written: \(why)") }
    }

    func run() throws {
      let bytes: [UInt8]
      do { bytes = try readFileBytes(log, limit: LogReader.maxBytes) } catch {
        let limit = (error as? FileError)?.message.hasPrefix("larger than") == true ? ", lifesim's limit for a log" : ""
        printError("lifesim explain: cannot read \(log): \(error)\(limit)")
        throw ExitCode(2)
      }
      let parsed: ParsedLog
      do {
        parsed = try LogReader.read(bytes: bytes, format: format, sentryStates: sentryStates)
      } catch let e as LogReadError {
        printError("lifesim explain: \(log): \(e.description)")
        throw ExitCode(2)
      }
      if sentryStates != nil, parsed.format != .sentry {
        printError("lifesim explain: \(log): --sentry-states reads Sentry breadcrumbs; the log was read as \(parsed.format.rawValue)")
        throw ExitCode(2)
      }
      for note in parsed.notes { printError("lifesim explain: \(log): \(note)") }
      var options = ExplainOptions()
      options.ios = ios
      options.model = model.flatMap(DeviceModel.named)
      options.scenes = scenes
      options.depth = depth
      options.alternatives = alternatives
      options.maxStates = maxStates
      options.maxUnlogged = maxUnlogged
      options.maxSavedBytes = maxSavedMemory << 20
      options.quirks = QuirkSet(quirks.compactMap(Quirk.init(name:)))
      let answer = try ExplainSearch.answer(log: parsed, options: options)
      let result = answer.result
      let report = ExplainReport(log: parsed, answer: answer)
      // Every name from the log is shown escaped already; this keeps it so.
      writeOut(visibleControls(report.text))
      printError("lifesim explain: \(answer.states) state\(answer.states == 1 ? "" : "s"), "
                 + "\(answer.steps) step\(answer.steps == 1 ? "" : "s") taken")
      for note in ExplainReport.notes(answer) { printError("lifesim explain: " + note) }
      let command = (["lifesim", "explain"] + CommandLine.arguments.dropFirst(2)).map(shellQuoted).joined(separator: " ")
      if let output, result.explanations.isEmpty, result.reached == 0 {
        printError("lifesim explain: no line of the log is explained: \(output) not written")
      } else if let output, let e = result.explanations.first ?? result.prefix {
        try writeTextFile(output, report.script(e, source: log, command: command,
                                                upTo: result.explanations.isEmpty ? result.reached : nil))
        printError("lifesim explain: wrote \(output) (`lifesim run \(shellQuoted(output))` replays "
                   + (result.explanations.isEmpty ? "the longest explained prefix)" : "it)"))
      }
      if result.explanations.isEmpty { throw ExitCode(1) }
    }
  }
}
