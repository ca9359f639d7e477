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
    subcommands: [Run.self, Test.self, Repl.self, Compare.self, Batch.self, Merge.self, Summary.self, Plot.self, Diagram.self, Timeline.self, Explore.self, Explain.self, Bench.self, Stubs.self]
  )

  /// Parses, runs, and maps every outcome to lifesim's exit codes through
  /// `failureReport`; usage errors exit 2 (argument-parser's default would be 64).
  static func main() {
    reportPeakMemoryAtExit()
    if let unknown = unknownSubcommand(Array(CommandLine.arguments.dropFirst())) {
      printError(unknown)
      Glibc.exit(2)
    }
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

/// The message for a first argument that names no command (`lifesim lanch`,
/// or `lifesim help lanch`), or nil: argument-parser would call it an
/// unexpected argument and print the whole usage (or, after `help`, the
/// overview), which does not say what was meant.
func unknownSubcommand(_ arguments: [String]) -> String? {
  let words = arguments.first == "help" ? arguments.dropFirst() : arguments[...]
  guard let word = words.first, !word.hasPrefix("-") else { return nil }
  let names = Lifesim.configuration.subcommands.map { $0._commandName } + ["help"]
  guard !names.contains(word) else { return nil }
  // The word goes into a message: escaped, and at most 200 characters of it.
  let shown = visibleControls(String(word.prefix(200))) + (word.count > 200 ? "…" : "")
  // A script named without `run` is the likeliest slip of all.
  if word.hasSuffix(".lua") { return "lifesim: '\(shown)' is not a command; to run the script: lifesim run \(shown)" }
  // No command is longer than 64 bytes: a longer word is near none of them.
  let close = word.utf8.count > 64 ? nil : names.map { ($0, commandDistance(word.lowercased(), $0)) }
    .filter { $0.1 <= max(1, (word.count - 1) / 3) }
    .min { $0.1 < $1.1 }
  let list = names.dropLast().joined(separator: ", ")
  if let close { return "lifesim: no command '\(shown)' (did you mean '\(close.0)'?); the commands: \(list)" }
  return "lifesim: no command '\(shown)'; the commands: \(list) (lifesim help COMMAND for each)"
}

/// Edits between two words, a swap of neighbours counting as one (so that
/// `tset` is one edit from `test`).
func commandDistance(_ a: String, _ b: String) -> Int {
  let a = Array(a.utf8), b = Array(b.utf8)
  if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
  var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
  for i in 0...a.count { d[i][0] = i }
  for j in 0...b.count { d[0][j] = j }
  for i in 1...a.count {
    for j in 1...b.count {
      d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
      if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
    }
  }
  return d[a.count][b.count]
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

