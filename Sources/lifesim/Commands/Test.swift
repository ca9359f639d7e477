import ArgumentParser
import Foundation
import LifeSimEngine
import LifeSimLua

extension Lifesim {
  /// `lifesim test [PATH...]`: runs every scenario and test case, and counts them.
  struct Test: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Run every *.lua file under the paths as tests.",
      discussion: """
        Each lifesim.test case counts once; a file with none counts as one case \
        that passes when the file runs without error. A file whose first lines \
        hold `-- expect-error: TEXT` passes only if it fails with a message \
        containing TEXT. Folders named lib (modules) are skipped. Each case shows \
        its time. The last line is "N passed, N failed".
        """
    )

    @Argument(help: "Files or folders (default: Scripts).")
    var paths: [String] = []

    @Option(name: .customShort("k"), help: ArgumentHelp("Run only the tests whose name contains this (case-insensitive; a file's name counts for its cases).", valueName: "pattern"))
    var pattern: String?

    @Flag(name: .customShort("x"), help: "Stop at the first failure.")
    var exitFirst = false

    @OptionGroup var common: CommonOptions

    func run() throws {
      let roots = paths.isEmpty ? ["Scripts"] : paths
      var files: [String] = []
      for root in roots {
        guard let found = luaFiles(under: root) else { throw CommandFailure.noSuchPath(root) }
        files += found
      }
      var passed = 0, failed = 0
      var worst: Int32 = 0
      files: for file in files {
        var options = common.runtimeOptions()
        // A file whose name matches runs whole; otherwise only its matching cases.
        if let pattern, !file.lowercased().contains(pattern.lowercased()) { options.testFilter = pattern }
        for outcome in runTestFile(file, options: options) {
          if let pattern, !outcome.name.lowercased().contains(pattern.lowercased()) { continue }
          let time = String(format: " (%.3f s)", outcome.seconds)
          if let message = outcome.failure {
            failed += 1
            worst = max(worst, outcome.isError ? 2 : 1)
            writeOut("FAIL  \(outcome.name)\(time)\n" + indent(message) + "\n")
            if exitFirst {
              writeOut("stopped at the first failure (-x)\n")
              break files
            }
          } else {
            passed += 1
            writeOut("ok    \(outcome.name)\(time)\n")
          }
        }
      }
      writeOut("\(passed) passed, \(failed) failed\n")
      if worst != 0 { throw ExitCode(worst) }
    }

    private func indent(_ s: String) -> String {
      s.split(separator: "\n", omittingEmptySubsequences: false).map { "      " + $0 }.joined(separator: "\n")
    }
  }
}

/// One counted case of `lifesim test`.
struct TestOutcome {
  var name: String
  /// The report, when the case failed.
  var failure: String?
  /// Whether the failure is an error (exit 2) rather than a failed expectation (exit 1).
  var isError = false
  /// Wall-clock seconds: the case's, or the whole file's for a file-level case.
  var seconds = 0.0
}

/// Runs one test file in a fresh Lua state and returns its cases.
func runTestFile(_ file: String, options: RuntimeOptions) -> [TestOutcome] {
  let start = monotonicSeconds()
  var options = options
  options.retainDevices = false
  let expected = expectedError(in: file)
  var outcomes: [TestOutcome] = []
  var fileFailure: LuaFailure?
  do {
    let runtime = try LuaRuntime(options: options)
    do {
      try runtime.runFile(file)
    } catch let f as LuaFailure {
      fileFailure = f
    }
    for r in runtime.testResults {
      outcomes.append(TestOutcome(name: "\(file): \(r.name)", failure: r.failure?.report,
                                  isError: !(r.failure?.isExpectation ?? true), seconds: r.seconds))
    }
    if fileFailure == nil && runtime.hasExperiment {
      outcomes.append(smokeTest(runtime, file: file))
    }
  } catch let f as LuaFailure {
    fileFailure = f
  } catch {
    fileFailure = LuaFailure(kind: .runtime, message: "\(error)")
  }
  if let expected {
    // An expected failure: the file (or one of its cases) must fail with the text.
    let messages = [fileFailure?.report] + outcomes.map(\.failure)
    let matched = messages.contains { $0?.contains(expected) ?? false }
    if matched { return [TestOutcome(name: "\(file) (fails as expected)")] }
    let got = messages.compactMap { $0 }.first ?? "it did not fail"
    return [TestOutcome(name: file, failure: "expected an error containing '\(expected)', but \(got)", isError: false)]
  }
  if let f = fileFailure {
    outcomes.append(TestOutcome(name: file, failure: f.report, isError: !f.isExpectation, seconds: monotonicSeconds() - start))
  } else if outcomes.isEmpty && options.testFilter == nil {
    outcomes.append(TestOutcome(name: file, seconds: monotonicSeconds() - start))
  }
  return outcomes
}

/// An experiment file's test: its first point with seed 1 runs and returns metrics.
private func smokeTest(_ runtime: LuaRuntime, file: String) -> TestOutcome {
  do {
    let spec = try runtime.experimentSpec()
    guard let point = spec.points.first else {
      return TestOutcome(name: file, failure: "the constraint excludes every point", isError: true)
    }
    let names = spec.params.map(\.name)
    let where_ = zip(names, point).map { "\($0)=\($1)" }.joined(separator: " ")
    let name = "\(file): experiment '\(spec.name)' runs (\(where_.isEmpty ? "" : where_ + ", ")seed 1)"
    let outcome = runtime.runExperiment(point: point, names: names, seed: 1)
    if let error = outcome.error { return TestOutcome(name: name, failure: error, isError: true) }
    if let declared = spec.metrics, Set(declared) != Set(outcome.metrics.map(\.name)) {
      return TestOutcome(name: name, failure: "run returned \(outcome.metrics.map(\.name)), the experiment declares \(declared)")
    }
    return TestOutcome(name: name)
  } catch let f as LuaFailure {
    return TestOutcome(name: file, failure: f.report, isError: !f.isExpectation)
  } catch {
    return TestOutcome(name: file, failure: "\(error)", isError: true)
  }
}

/// The text of an `-- expect-error: TEXT` line among the first five lines.
func expectedError(in file: String) -> String? {
  guard let bytes = try? readFileBytes(file) else { return nil }
  let text = String(decoding: bytes, as: UTF8.self)
  for line in text.split(separator: "\n", omittingEmptySubsequences: false).prefix(5) {
    let marker = "-- expect-error:"
    if line.hasPrefix(marker) {
      return String(line.dropFirst(marker.count).drop(while: { $0 == " " }))
    }
  }
  return nil
}
