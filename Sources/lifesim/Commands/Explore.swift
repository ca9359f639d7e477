import ArgumentParser
import Foundation
import LifeSimEngine
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
        (\(ActionRow.exploreSteps.map(\.name).joined(separator: ", ")), advance 1/10/60, and the script's own \
        lifesim.action), so the first violation it finds is a shortest one; a \
        failing handler is a violation too. -o writes it as a scenario that fails \
        the same way under lifesim run. Exit status: 0 none found; 1 a violation, \
        or a lifesim.reachable property no explored state satisfied; 2 an error \
        (the script's, or one the search cannot replay).
        """
    )

    @Argument(help: "The script: a device, its apps and handlers, and lifesim.invariant checks.")
    var file: String

    @Option(help: "The longest sequence tried (default 6; not with --random, whose walks are --length long).")
    var depth: Int?

    @Option(help: ArgumentHelp("Only these actions, comma-separated (e.g. \"launch com.example.notes,home\").", valueName: "a,b,..."))
    var actions: String?

    @Option(help: "Stop after this many distinct states.")
    var maxStates: Int = 200_000

    @Option(help: ArgumentHelp("Stop when the states the search saves to expand would hold more than this, in MB.",
                               valueName: "MB"))
    var maxSavedMemory: Int = 1024

    @Option(name: .shortAndLong, help: "Worker threads for the replays (the answer does not depend on it).")
    var jobs: Int = 1

    @Option(help: ArgumentHelp("Random walks instead of the breadth-first search, each --length steps; a failure is shrunk to a shortest failing subsequence.", valueName: "N"))
    var random: Int?

    @Option(help: "The length of each random walk.")
    var length: Int = 30

    @Option(help: ArgumentHelp("Stop shrinking a random walk's failure once its replays took this many steps, and report the shortest failure found by then.",
                               valueName: "N"))
    var maxShrinkSteps: Int = 1_000_000

    @Option(name: .shortAndLong, help: ArgumentHelp("Write the counterexample as a runnable scenario.", valueName: "file"))
    var output: String?

    @Flag(help: "No progress on standard error.")
    var quiet = false

    @OptionGroup var common: CommonOptions

    func validate() throws {
      if let depth, depth < 0 || depth > 100 { throw ValidationError("--depth must be between 0 and 100") }
      if random != nil, depth != nil {
        throw ValidationError("--depth is for the breadth-first search; the walks of --random are --length steps long")
      }
      if let actions, actions.split(separator: ",").allSatisfy({ $0.trimmingCharacters(in: .whitespaces).isEmpty }) {
        throw ValidationError("--actions names no action")
      }
      if maxStates < 1 { throw ValidationError("--max-states must be ≥ 1") }
      if maxSavedMemory < 1 || maxSavedMemory > 1 << 30 {
        throw ValidationError("--max-saved-memory must be between 1 and 1073741824 MB")
      }
      if maxShrinkSteps < 1 { throw ValidationError("--max-shrink-steps must be ≥ 1") }
      if jobs < 1 || jobs > 256 { throw ValidationError("--jobs must be between 1 and 256") }
      if let random, random < 1 || random > 1_000_000_000 { throw ValidationError("--random must be between 1 and 1000000000") }
      if length < 1 || length > 10_000 { throw ValidationError("--length must be between 1 and 10000") }
      try refuseOutputOverInput(outputs: [("--output", output)], inputs: [("the script", file)])
    }

    func run() throws {
      var options = ExploreOptions()
      options.depth = depth ?? 6
      options.maxStates = maxStates
      options.maxSavedBytes = maxSavedMemory << 20
      options.maxShrinkSteps = maxShrinkSteps
      options.jobs = jobs
      options.trackWrites = true  // the command owns the process: its fault handler may be installed
      options.runtime = common.runtimeOptions()
      options.runtime.outputs = output.map { [("--output", $0)] } ?? []
      options.actions = actions.map {
        let named = $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        // A step named twice is searched once: a second copy would double the
        // search's branching for nothing and list the step twice.
        var seen = Set<String>(), steps: [String] = [], twice: [String] = []
        for step in named {
          if seen.insert(step).inserted { steps.append(step) } else if !twice.contains(step) { twice.append(step) }
        }
        for step in twice {
          printError("lifesim explore: --actions names '\(visibleControls(step))' more than once; the search takes it once")
        }
        return steps
      }
      let explorer = Explorer(file: file, options: options)
      let result: ExploreResult
      do {
        if let random {
          result = try explorer.randomWalks(random, length: length, seed: UInt64(truncatingIfNeeded: common.seed)) { p in
            guard !quiet else { return }
            if let s = p.shrinking {
              printError("lifesim explore: shrinking a failure of \(p.depth) steps: \(s.steps) steps so far, "
                         + "\(s.replayed) steps replayed (stops at --max-shrink-steps \(maxShrinkSteps))")
            } else {
              printError("lifesim explore: \(p.distinct) walks of \(p.depth) steps, \(p.queue) to go")
            }
          }
        } else {
          result = try explorer.run { p in
            if !quiet {
              printError("lifesim explore: depth \(p.depth), \(p.states) states (\(p.distinct) distinct), "
                         + "\(Int(Double(p.states) / max(p.seconds, 1e-9))) states/s, queue \(p.queue)")
            }
          }
        }
      } catch let e as ExploreError {
        // An error of the script or of the search, not of the command line: no usage.
        printError("lifesim explore: \(e.description)")
        throw ExitCode(2)
      }
      var summary = random.map { "lifesim explore: \($0) random walk\($0 == 1 ? "" : "s") of \(length) steps, \(result.states) steps replayed" }
        ?? "lifesim explore: \(result.states) states, \(result.distinct) distinct, depth \(result.depthReached)"
      summary += String(format: ", %.1f s", result.seconds)
      let stop = result.savedMemoryReached ? "--max-saved-memory \(maxSavedMemory) MB" : "--max-states \(maxStates)"
      if result.truncated { summary += " (stopped at \(stop))" }
      writeOut(visibleControls("alphabet: \(result.alphabet.joined(separator: ", "))\n"))
      if random == nil {
        for c in result.coverageReport {
          guard c.taken > 0 else {
            // A machine the device never used (the scene machines under the
            // app-delegate model): its edges would all be listed for nothing.
            writeOut("coverage, \(c.machine): 0 of \(c.total) edges (the search never used this machine)\n")
            continue
          }
          writeOut("coverage, \(c.machine): \(c.taken) of \(c.total) edges"
                   + (c.never.isEmpty ? "\n" : "; never taken: \(c.never.joined(separator: ", "))\n"))
        }
      }
      for (name, reached) in result.reachables {
        writeOut("reachable '\(visibleControls(name))': " + (reached ? "reached\n" : "never reached: the search did not get there\n"))
      }
      guard let v = result.violation else {
        if let random {
          writeOut("no violation in \(random) random walk\(random == 1 ? "" : "s") of \(length) steps\n")
        } else if result.truncated {
          writeOut("no violation in the \(result.distinct) distinct states explored: the search stopped at "
                   + "\(stop) before depth \(result.depthReached) was complete"
                   + (result.savedMemoryReached ? " (the states it saved to expand next would hold more)\n" : "\n"))
        } else {
          writeOut("no violation up to depth \(result.depthReached)\n")
        }
        printError(summary)
        if result.reachables.contains(where: { !$0.reached }) { throw ExitCode(1) }
        return
      }
      let what = v.invariant.map { "invariant '\($0)' does not hold" } ?? "a handler fails"
      writeOut(visibleControls("\(what) after \(v.steps.count) step\(v.steps.count == 1 ? "" : "s"): "
               + (v.steps.isEmpty ? "(none)" : v.steps.joined(separator: ", ")) + "\n"))
      writeOut(visibleControls("  \(v.message)\n\ntrace:\n\(v.trace)"))
      if result.shrinkStopped {
        summary += "; shrinking stopped at --max-shrink-steps \(maxShrinkSteps): a shorter sequence may fail too"
      }
      printError(summary)
      if let output {
        let script: [UInt8]
        do { script = try readFileBytes(file) } catch {
          printError("lifesim explore: cannot read \(file) again to write \(output): \(error)")
          throw ExitCode(2)
        }
        // The flags the search ran under, so that the run goes the same way.
        let command = (["lifesim", "run"] + common.arguments + [output]).map(shellQuoted).joined(separator: " ")
        try writeBytesFile(output, Explorer.counterexample(script: script, file: file, v, command: command))
        printError("lifesim explore: wrote \(output) (`\(command)` fails the same way)")
      }
      throw ExitCode(1)
    }
  }
}

/// Writes a file of bytes, replacing it; every write and the close checked.
/// - Throws: `CommandFailure.cannotWrite`.
private func writeBytesFile(_ path: String, _ bytes: [UInt8]) throws {
  guard let f = fopen(path, "wb") else {
    throw CommandFailure.cannotWrite(path: path, reason: String(cString: strerror(errno)))
  }
  var failure: String?
  if bytes.withUnsafeBufferPointer({ fwrite($0.baseAddress, 1, $0.count, f) }) != bytes.count || fflush(f) != 0 {
    failure = String(cString: strerror(errno))
  }
  if fclose(f) != 0, failure == nil { failure = String(cString: strerror(errno)) }
  if let failure { throw CommandFailure.cannotWrite(path: path, reason: failure) }
}

/// A word as a POSIX shell reads it back: as it is when it holds only safe
/// characters, else in single quotes.
func shellQuoted(_ word: String) -> String {
  let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%")
  if !word.isEmpty, word.allSatisfy({ safe.contains($0) }) { return word }
  return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
}
