import ArgumentParser
import LifeSimEngine
import LifeSimLua

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

    @Option(help: "The trace format: text or jsonl.")
    var format: TraceFormat = .text

    @Option(help: "How callbacks are named in text traces: objc or swift.")
    var names: NameStyle = .objc

    @Option(name: .shortAndLong, help: "Write the trace to this file instead of standard output.")
    var output: String?

    func run() throws {
      if common.unsafe {
        printError("lifesim: warning: --unsafe gives the script the whole standard library (io, os, debug)")
      }
      let runtime = try LuaRuntime(options: common.runtimeOptions())
      // The traces are written also when the script fails: keep the failure for the end.
      var failure: LuaFailure?
      do {
        try runtime.runFile(file)
      } catch let f as LuaFailure {
        failure = f
      }
      if failure == nil && runtime.hasExperiment {
        printError("lifesim: \(file) is an experiment: `lifesim batch \(file)` runs its grid (lifesim run only loaded it)")
      }
      try writeTraces(runtime.createdDevices)
      // A failed lifesim.test case fails the run too (exit 1, or 2 for an error).
      var worst: ExitCode?
      for result in runtime.testResults {
        guard let f = result.failure else { continue }
        printError("lifesim: test '\(result.name)' failed: \(f.report)")
        let code = scriptExitCode(for: f)
        if worst == nil || code.rawValue > worst!.rawValue { worst = code }
      }
      if let failure { throw failure }
      if let worst { throw worst }
    }

    private func writeTraces(_ devices: [Device]) throws {
      let writer = TraceWriter(format: format, names: names)
      var text = ""
      for (i, device) in devices.enumerated() {
        if devices.count > 1 && format == .text {
          text += "# device \(i + 1): iOS \(device.profile.version), seed \(device.seed)\n"
        }
        text += writer.render(device.trace)
      }
      guard let output else {
        writeOut(text)
        return
      }
      try writeTextFile(output, text)
    }
  }
}
