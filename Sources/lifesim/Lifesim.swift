import ArgumentParser
import LifeSimEngine
import LifeSimLua

import LifeSimPlatform

/// The `lifesim` command: a deterministic simulator of the iOS app lifecycle.
@main
struct Lifesim: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "lifesim",
    abstract: "A deterministic simulator of the iOS application lifecycle, driven from Lua.",
    discussion: """
      Exit status: 0 success; 1 a failed expectation (or a failed run in a batch); 2 a script or usage error; 5 lifesim test found no test files.
      """,
    version: lifesimVersion,
    subcommands: [Run.self, Test.self, Repl.self, Compare.self, Batch.self, Merge.self, Summary.self, Plot.self, Diagram.self, Timeline.self, Explore.self, Explain.self, Bench.self]
  )

  /// Parses, runs, and maps every outcome to lifesim's exit codes through
  /// `failureReport`; usage errors exit 2 (argument-parser's default would be 64).
  static func main() {
    reportPeakMemoryAtExit()
    do {
      try refuseHugeOptions()
      var command = try parseAsRoot()
      try command.run()
      try checkStandardOutput()
    } catch {
      if let (message, status) = failureReport(for: error) {
        if let message { printError(message) }
        // A report (explore's violation, test's failures) that did not reach
        // standard output is lost: that is exit 2, whatever the run found.
        if status < 2, let lost = standardOutputFailure() { printError(lost); Glibc.exit(2) }
        Glibc.exit(status)
      }
      let code = exitCode(for: error)
      if code == .success {
        // --help, --version: text that did not reach standard output is a failure too.
        print(fullMessage(for: error))
        if let lost = standardOutputFailure() { printError(lost); Glibc.exit(2) }
        Glibc.exit(0)
      }
      printError(fullMessage(for: error))
      Glibc.exit(2)
    }
  }
}

/// The longest option name lifesim reads before `=`, in bytes: no option of
/// lifesim is near it, and argument-parser's "did you mean" search over an
/// unknown one takes time that grows with its length.
let maxOptionNameBytes = 256

/// Refuses an argument that starts with `-` and whose name (before any `=`)
/// is longer than any option: it is no option, and nothing is gained by
/// searching for the nearest one.
/// - Throws: `ValidationError`, a usage error (exit 2).
func refuseHugeOptions() throws {
  for argument in CommandLine.arguments.dropFirst() where argument.hasPrefix("-") {
    let name = argument.utf8.prefix { $0 != UInt8(ascii: "=") }
    if name.count > maxOptionNameBytes {
      throw ValidationError("an option of \(name.count) bytes ('\(visibleControls(String(decoding: name.prefix(40), as: UTF8.self)))…') is no lifesim option; options are at most \(maxOptionNameBytes) bytes")
    }
  }
}

/// Standard output must have taken every byte: a full disk or a closed pipe
/// is a failed command, not a silent success.
/// - Throws: `CommandFailure.cannotWrite`.
func checkStandardOutput() throws {
  if fflush(stdout) != 0 || ferror(stdout) != 0 {
    throw CommandFailure.cannotWrite(path: "standard output", reason: String(cString: strerror(errno)))
  }
}

/// The message for a standard output that did not take every byte, or nil.
func standardOutputFailure() -> String? {
  do { try checkStandardOutput() } catch { return failureReport(for: error)?.message ?? Lifesim.fullMessage(for: error) }
  return nil
}

/// For `lifesim bench`: when LIFESIM_PEAK_MEMORY_FILE names a file, the
/// process writes its peak resident memory (VmHWM, in kB) there as it exits.
/// The parent cannot ask the kernel for it: a spawned child's `ru_maxrss`
/// starts at the parent's own peak.
private func reportPeakMemoryAtExit() {
  guard getenv("LIFESIM_PEAK_MEMORY_FILE") != nil else { return }
  atexit {
    guard let path = getenv("LIFESIM_PEAK_MEMORY_FILE"), let out = fopen(path, "w") else { return }
    fputs("\(peakResidentKB())\n", out)
    fclose(out)
  }
}

/// Writes a message to standard error, with a newline. A NUL in it (from a
/// script's string) is shown as `\0`: a message is text, and a terminal or a
/// log would drop or cut at the byte.
func printError(_ message: String) {
  writeBytes(visibleControls(message.hasSuffix("\n") ? message : message + "\n"), to: stderr)
}

/// Writes to standard output, every byte (NULs included: fputs would stop at
/// the first), unbuffered with respect to stderr ordering.
func writeOut(_ text: String) {
  writeBytes(text, to: stdout)
}

/// Writes the UTF-8 bytes of `text` to `file`.
func writeBytes(_ text: String, to file: UnsafeMutablePointer<FILE>) {
  var text = text
  text.withUTF8 { _ = fwrite($0.baseAddress, 1, $0.count, file) }
}

