import ArgumentParser
import LifeSimEngine
import LifeSimLua

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `lifesim` command: a deterministic simulator of the iOS app lifecycle.
@main
struct Lifesim: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "lifesim",
    abstract: "A deterministic simulator of the iOS application lifecycle, driven from Lua.",
    discussion: """
      Exit status: 0 success; 1 a failed expectation; 2 a script or usage error.
      """,
    version: lifesimVersion,
    subcommands: [Run.self, Test.self, Repl.self, Compare.self, Batch.self, Merge.self, Summary.self, Plot.self, Bench.self]
  )

  /// Parses, runs, and maps every outcome to SPEC §4's exit codes through
  /// `failureReport`; usage errors exit 2 (argument-parser's default would be 64).
  static func main() {
    do {
      var command = try parseAsRoot()
      try command.run()
    } catch {
      if let (message, status) = failureReport(for: error) {
        if let message { printError(message) }
        Glibc.exit(status)
      }
      let code = exitCode(for: error)
      if code == .success {
        print(fullMessage(for: error))
        Glibc.exit(0)
      }
      printError(fullMessage(for: error))
      Glibc.exit(2)
    }
  }
}

/// Writes a message to standard error, with a newline.
func printError(_ message: String) {
  fputs(message.hasSuffix("\n") ? message : message + "\n", stderr)
}

/// Writes to standard output, unbuffered with respect to stderr ordering.
func writeOut(_ text: String) {
  fputs(text, stdout)
}
