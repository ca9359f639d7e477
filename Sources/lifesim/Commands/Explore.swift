import ArgumentParser
import Foundation
import LifeSimLua

extension Lifesim {
  /// `lifesim explore FILE.lua`: a search for the shortest sequence of actions
  /// that breaks one of the script's invariants.
  struct Explore: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Search the sequences of user and system actions for one that breaks an invariant.",
      discussion: """
        The script sets up a device and its apps and declares \
        lifesim.invariant(name, fn). The search is breadth first over the actions \
        (launch, home, lock, unlock, call, end_call, switcher, kill, memory_warning, \
        memory_pressure, background_fetch, advance 1/10/60, and the script's own \
        lifesim.action), so the first violation it finds is a shortest one; a \
        failing handler is a violation too. -o writes it as a scenario that fails \
        the same way under lifesim run. Exit status: 0 none found, 1 a violation.
        """
    )

    @Argument(help: "The script: a device, its apps and handlers, and lifesim.invariant checks.")
    var file: String

    @Option(help: "The longest sequence tried.")
    var depth: Int = 6

    @Option(help: ArgumentHelp("Only these actions, comma-separated (e.g. \"launch com.example.notes,home\").", valueName: "a,b,..."))
    var actions: String?

    @Option(help: "Stop after this many distinct states.")
    var maxStates: Int = 200_000

    @Option(name: .shortAndLong, help: ArgumentHelp("Write the counterexample as a runnable scenario.", valueName: "file"))
    var output: String?

    @Flag(help: "No progress on standard error.")
    var quiet = false

    @OptionGroup var common: CommonOptions

    func validate() throws {
      if depth < 0 || depth > 100 { throw ValidationError("--depth must be between 0 and 100") }
      if maxStates < 1 { throw ValidationError("--max-states must be ≥ 1") }
    }

    func run() throws {
      var options = ExploreOptions()
      options.depth = depth
      options.maxStates = maxStates
      options.runtime = common.runtimeOptions()
      options.actions = actions.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
      let explorer = Explorer(file: file, options: options)
      let result: ExploreResult
      do {
        result = try explorer.run { p in
          if !quiet {
            printError("lifesim explore: depth \(p.depth), \(p.states) states (\(p.distinct) distinct), "
                       + "\(Int(Double(p.states) / max(p.seconds, 1e-9))) states/s, queue \(p.queue)")
          }
        }
      } catch let e as ExploreError {
        throw ValidationError(e.description)
      }
      var summary = "lifesim explore: \(result.states) states, \(result.distinct) distinct, depth \(result.depthReached)"
      summary += String(format: ", %.1f s", result.seconds)
      if result.truncated { summary += " (stopped at --max-states \(maxStates))" }
      writeOut("alphabet: \(result.alphabet.joined(separator: ", "))\n")
      for (name, reached) in result.reachables {
        writeOut("reachable '\(name)': " + (reached ? "reached\n" : "never reached: the search did not get there\n"))
      }
      guard let v = result.violation else {
        writeOut("no violation up to depth \(result.depthReached)\n")
        printError(summary)
        if result.reachables.contains(where: { !$0.reached }) { throw ExitCode(1) }
        return
      }
      let what = v.invariant.map { "invariant '\($0)' does not hold" } ?? "a handler fails"
      writeOut("\(what) after \(v.steps.count) step\(v.steps.count == 1 ? "" : "s"): "
               + (v.steps.isEmpty ? "(none)" : v.steps.joined(separator: ", ")) + "\n")
      writeOut("  \(v.message)\n\ntrace:\n\(v.trace)")
      printError(summary)
      if let output {
        let script = try String(contentsOfFile: file, encoding: .utf8)
        try writeTextFile(output, Explorer.counterexample(script: script, file: file, v))
        printError("lifesim explore: wrote \(output) (lifesim run \(output) fails the same way)")
      }
      throw ExitCode(1)
    }
  }
}
