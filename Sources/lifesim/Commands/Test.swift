import ArgumentParser
import Foundation
import LifeSimEngine
import LifeSimLua

extension Lifesim {
  /// `lifesim test [PATH...]`: runs every scenario and test case, and counts them.
  struct Test: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Run Lua test files and count their cases.",
      discussion: """
        With paths, every *.lua file under them runs. Without, lifesim looks \
        under the current folder, as pytest does, for *_test.lua and test_*.lua \
        files and files that call lifesim.test (skipping hidden folders, .build \
        and folders named lib), and says where it looked when it finds none \
        (exit status 5). Each lifesim.test case counts once; a file with none \
        counts as one case that passes when the file runs without error. A file \
        whose first lines hold `-- expect-error: TEXT` passes only if it fails \
        with a message containing TEXT. Each case shows its time; a failure \
        shows the virtual time and the last trace records before it. -x stops \
        at the first failure, skipping the later cases of its file too; -k \
        that selects nothing exits with status 5. The last line is \
        "N passed, N failed", with ", N errors" when scripts failed with an \
        error rather than a failed expectation (JUnit's failures and errors).
        """
    )

    @Argument(help: "Files or folders (default: the test files found under the current folder).")
    var paths: [String] = []

    @Option(name: .customShort("k"), help: ArgumentHelp(
      "Run only the tests this selects: names joined by and, or, not and parentheses, each matching a test whose "
        + "name or file path contains it (case-insensitive); several -k select what any of them does.",
      valueName: "expression"))
    var patterns: [String] = []

    @Flag(name: .customShort("x"), help: "Stop at the first failure.")
    var exitFirst = false

    @Option(help: ArgumentHelp("Also write a JUnit XML report here (GitLab, Jenkins and GitHub Actions read it).", valueName: "file"))
    var junitXml: String?

    @Option(help: ArgumentHelp("Colour the results: auto (on a terminal, unless NO_COLOR is set), always or never.", valueName: "when"))
    var color: ColorChoice = .auto

    @OptionGroup var common: CommonOptions

    enum ColorChoice: String, ExpressibleByArgument, CaseIterable {
      case auto, always, never
    }

    func run() throws {
      let selection = try TestSelection(patterns)
      var files: [String] = []
      if paths.isEmpty {
        files = discoverTestFiles(under: ".")
        if files.isEmpty {
          let here = FileManager.default.currentDirectoryPath
          printError("lifesim test: no test files under \(here) (looked for *_test.lua, test_*.lua and files that "
                   + "call lifesim.test, skipping hidden folders, .build and lib); name files or folders to run them all")
          throw ExitCode(5)
        }
      } else {
        for root in paths {
          guard let found = luaFiles(under: root) else { throw CommandFailure.noSuchPath(root) }
          files += found
        }
      }
      if let junitXml {
        try refuseOutputOverInput(outputs: [("--junit-xml", junitXml)],
                                  inputs: paths.map { ("the test path", $0) } + files.map { ("the test file", $0) })
      }
      let paint = Paint(enabled: color == .always || color == .auto && Paint.terminalWantsColour())
      var tally = TestTally()
      var report = JUnitReport(selection: selection)
      // Set when a script read the file --junit-xml names: then it is not written.
      var readOutput: String?
      var stopped = false
      for file in files {
        if stopped {
          // -x: the files after the failure are not loaded, so their cases are not known.
          let outcome = TestOutcome(name: file, file: file, status: .notRun)
          tally.count(outcome)
          report.add(file: file, [outcome], seconds: 0)
          continue
        }
        var options = common.runtimeOptions()
        options.outputs = junitXml.map { [("--junit-xml", $0)] } ?? []
        let start = monotonicSeconds()
        let outcomes = runTestFile(file, options: options, selection: selection, stopAtFirstFailure: exitFirst,
                                   explicitVersion: common.iosOption != nil, readOutput: &readOutput)
        report.add(file: file, outcomes, seconds: monotonicSeconds() - start)
        for outcome in outcomes {
          tally.count(outcome)
          let name = visibleControls(outcome.name)
          let time = String(format: " (%.3f s)", outcome.seconds)
          switch outcome.status {
          case .passed:
            writeOut(paint.green("ok") + "    \(name)\(time)\n")
          case .failed, .xpassed:
            let label = outcome.isError ? paint.red("ERROR") + " " : outcome.status == .failed ? paint.red("FAIL") + "  " : paint.red("XPASS") + " "
            writeOut(label + "\(name)\(time)\n" + indent(visibleControls(outcome.failure ?? "")) + "\n")
            if exitFirst { stopped = true }
          case .skipped(let why):
            writeOut(paint.yellow("skip") + "  \(name): \(visibleControls(why))\n")
          case .xfailed(let why):
            writeOut(paint.yellow("xfail") + " \(name)\(time): \(visibleControls(why))\n")
          case .deselected, .notRun:
            break
          }
        }
      }
      if stopped { writeOut("stopped at the first failure (-x)\n") }
      if let clash = readOutput {
        printError("lifesim: \(clash)")
        throw ExitCode(2)
      }
      if let junitXml { try writeTextFile(junitXml, report.xml()) }
      writeOut(tally.line + "\n")
      if tally.worst != 0 { throw ExitCode(tally.worst) }
      if !selection.isEmpty, tally.selected == 0 {
        // As pytest: a selection that runs nothing is not a pass.
        printError("lifesim test: no test matched \(selection.description) in \(files.count) file\(files.count == 1 ? "" : "s")")
        throw ExitCode(5)
      }
    }

    private func indent(_ s: String) -> String {
      s.split(separator: "\n", omittingEmptySubsequences: false).map { "      " + $0 }.joined(separator: "\n")
    }
  }
}

/// ANSI colours for a terminal, or plain text.
struct Paint {
  var enabled: Bool

  /// A terminal on standard output, NO_COLOR unset or empty (no-color.org), and a TERM that is not "dumb".
  static func terminalWantsColour() -> Bool {
    let env = ProcessInfo.processInfo.environment
    return isatty(1) != 0 && (env["NO_COLOR"] ?? "").isEmpty && env["TERM"] != "dumb"
  }

  func red(_ s: String) -> String { enabled ? "\u{1B}[31m\(s)\u{1B}[0m" : s }
  func yellow(_ s: String) -> String { enabled ? "\u{1B}[33m\(s)\u{1B}[0m" : s }
  func green(_ s: String) -> String { enabled ? "\u{1B}[32m\(s)\u{1B}[0m" : s }
}

/// The counts of `lifesim test`'s last line, in pytest's words.
struct TestTally {
  var passed = 0, failed = 0, errors = 0, skipped = 0, xfailed = 0, xpassed = 0, deselected = 0, notRun = 0
  /// The exit status: 1 for a failure or an unexpected pass, 2 for an error.
  var worst: Int32 = 0

  mutating func count(_ o: TestOutcome) {
    switch o.status {
    case .passed: passed += 1
    case .failed:
      if o.isError { errors += 1 } else { failed += 1 }
      worst = max(worst, o.isError ? 2 : 1)
    case .xpassed:
      xpassed += 1
      worst = max(worst, 1)
    case .skipped: skipped += 1
    case .xfailed: xfailed += 1
    case .deselected: deselected += 1
    case .notRun: notRun += 1
    }
  }

  /// The cases -k selected, run or not.
  var selected: Int { passed + failed + errors + skipped + xfailed + xpassed + notRun }

  /// "3 passed, 1 failed, 1 error, 2 skipped, 1 xfailed, 4 deselected": the
  /// first two always, the others when there are any.
  var line: String {
    var parts = ["\(passed) passed", "\(failed) failed"]
    if errors > 0 { parts.append("\(errors) error\(errors == 1 ? "" : "s")") }
    if skipped > 0 { parts.append("\(skipped) skipped") }
    if xfailed > 0 { parts.append("\(xfailed) xfailed") }
    if xpassed > 0 { parts.append("\(xpassed) xpassed") }
    if deselected > 0 { parts.append("\(deselected) deselected") }
    if notRun > 0 { parts.append("\(notRun) not run") }
    return parts.joined(separator: ", ")
  }
}

/// One counted case of `lifesim test`.
struct TestOutcome {
  /// "file: case", or the file's path for a file-level case.
  var name: String
  /// The file, and the case's own name (nil for a file-level case).
  var file = ""
  var testCase: String?
  var status: TestCaseResult.Status = .passed
  /// The report, when the case failed (or passed unexpectedly).
  var failure: String?
  /// Whether the failure is an error (exit 2) rather than a failed expectation (exit 1).
  var isError = false
  /// Wall-clock seconds: the case's, or the whole file's for a file-level case.
  var seconds = 0.0
  /// The line a report points to: where the failure was raised in this file,
  /// else where the case's function starts (nil: the file as a whole).
  var line: Int?
}

/// The JUnit XML report of `lifesim test --junit-xml`: one `testsuite` per
/// file, one `testcase` per counted case, failed expectations (and
/// unexpected passes) as `failure`, errors as `error`, and cases skipped,
/// expected to fail, deselected by `-k` or not run after `-x` as `skipped`
/// with the reason (the shape Jenkins' junit-10.xsd describes, which GitLab
/// and GitHub Actions read too). Each `testcase` also carries `file` and
/// `line`, as pytest's reports do: the line where a failure was raised in
/// that file, else where the case's function starts (1 for a whole file).
/// GitHub's annotation actions place their notes by them (junit-10.xsd
/// itself has no such attributes).
struct JUnitReport {
  var selection: TestSelection
  private var suites: [(file: String, cases: [TestOutcome], seconds: Double)] = []

  init(selection: TestSelection) { self.selection = selection }

  mutating func add(file: String, _ cases: [TestOutcome], seconds: Double) {
    if !cases.isEmpty { suites.append((file, cases, seconds)) }
  }

  func xml() -> String {
    func count(_ cases: [TestOutcome], error: Bool) -> Int {
      cases.filter { ($0.status == .failed && $0.isError == error) || (!error && $0.status.isXpassed) }.count
    }
    func skipped(_ cases: [TestOutcome]) -> Int { cases.filter { skipReason($0) != nil }.count }
    let all = suites.flatMap(\.cases)
    var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    out += "<testsuites name=\"lifesim test\" tests=\"\(all.count)\" failures=\"\(count(all, error: false))\" "
      + "errors=\"\(count(all, error: true))\" time=\"\(seconds(suites.reduce(0) { $0 + $1.seconds }))\">\n"
    for suite in suites {
      out += "  <testsuite name=\"\(xmlEscaped(suite.file))\" tests=\"\(suite.cases.count)\" failures=\"\(count(suite.cases, error: false))\" "
        + "errors=\"\(count(suite.cases, error: true))\" skipped=\"\(skipped(suite.cases))\" time=\"\(seconds(suite.seconds))\" file=\"\(xmlEscaped(suite.file))\">\n"
      let classname = xmlEscaped(className(suite.file))
      for c in suite.cases {
        let name = xmlEscaped(c.testCase ?? c.name)
        out += "    <testcase name=\"\(name)\" classname=\"\(classname)\" time=\"\(seconds(c.seconds))\" "
          + "file=\"\(xmlEscaped(suite.file))\" line=\"\(c.line ?? 1)\""
        if let reason = skipReason(c) {
          out += ">\n      <skipped message=\"\(xmlEscaped(reason))\"/>\n    </testcase>\n"
          continue
        }
        guard let failure = c.failure else {
          out += "/>\n"
          continue
        }
        let tag = c.isError ? "error" : "failure"
        let first = failure.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? ""
        out += ">\n      <\(tag) message=\"\(xmlEscaped(first))\" type=\"\(c.isError ? "error" : "expectation")\">"
          + xmlEscaped(failure) + "</\(tag)>\n    </testcase>\n"
      }
      out += "  </testsuite>\n"
    }
    return out + "</testsuites>\n"
  }

  /// Why a case counts as skipped in the report, or nil when it ran and passed or failed.
  private func skipReason(_ c: TestOutcome) -> String? {
    switch c.status {
    case .skipped(let why): return why
    case .xfailed(let why): return "xfail: \(why)"
    case .deselected: return "deselected by \(selection.description)"
    case .notRun: return "not run: an earlier failure stopped the run (-x)"
    case .passed, .failed, .xpassed: return nil
    }
  }

  /// Seconds with three decimals, as the schema's time type wants.
  private func seconds(_ s: Double) -> String { String(format: "%.3f", max(0, s)) }

  /// "Scripts/app_delegate/basic.lua" -> "Scripts.app_delegate.basic", as pytest names modules.
  private func className(_ file: String) -> String {
    var f = file.hasPrefix("./") ? String(file.dropFirst(2)) : file
    if f.hasSuffix(".lua") { f.removeLast(4) }
    return f.replacingOccurrences(of: "/", with: ".")
  }
}

/// The test files under `root`, as pytest finds them: `*_test.lua`,
/// `test_*.lua`, and any other `.lua` file that calls `lifesim.test`; hidden
/// folders, `.build` and folders named `lib` are skipped. Sorted.
func discoverTestFiles(under root: String) -> [String] {
  (luaFiles(under: root) ?? []).filter { path in
    let name = path.split(separator: "/").last.map(String.init) ?? path
    if name.hasSuffix("_test.lua") || name.hasPrefix("test_") { return true }
    guard let bytes = try? readFileBytes(path) else { return false }
    return String(decoding: bytes, as: UTF8.self).contains("lifesim.test(")
  }.map { $0.hasPrefix("./") ? String($0.dropFirst(2)) : $0 }
}

/// Runs one test file in a fresh Lua state and returns its cases: the file
/// loads, then its `lifesim.test` cases run, each from the state the file
/// left (`LuaRuntime.runCollectedTests`).
func runTestFile(_ file: String, options: RuntimeOptions, selection: TestSelection, stopAtFirstFailure: Bool,
                 explicitVersion: Bool = false, readOutput: inout String?) -> [TestOutcome] {
  let start = monotonicSeconds()
  var options = options
  options.retainDevices = false
  options.collectsTests = true
  let expected = expectedError(in: file)
  var outcomes: [TestOutcome] = []
  var fileFailure: LuaFailure?
  var fileContext: String?  // the file's failure with its context, when there is a device
  var declared: [String] = []  // the cases a file that broke while loading had declared
  do {
    var snapshotting = options
    snapshotting.snapshots = true
    let runtime: LuaRuntime
    do {
      runtime = try LuaRuntime(options: snapshotting)
    } catch let f as LuaFailure where f.kind == .memory {
      // No address space for the mapping a saved state needs: the cases share one state (said below).
      runtime = try LuaRuntime(options: options)
    }
    runtime.testSelection = { selection.selects([file, $0]) }
    do {
      try runtime.runFile(file)
    } catch let f as LuaFailure {
      fileFailure = f
      declared = runtime.collectedTestNames
    }
    if fileFailure == nil {
      let shared = runtime.runCollectedTests(selected: { selection.selects([file, $0]) },
                                             stopAtFirstFailure: stopAtFirstFailure)
      if let shared { printError("lifesim: warning: \(file): its cases ran one after another in one state: \(shared)") }
    }
    for r in runtime.testResults {
      let failure = r.failure.map { f in r.context.map { f.report + "\n" + $0 } ?? f.report }
      outcomes.append(TestOutcome(name: "\(file): \(visibleControls(r.name).replacingOccurrences(of: "\n", with: "\\n"))", file: file, testCase: r.name, status: r.status, failure: failure,
                                  isError: !(r.failure?.isExpectation ?? true), seconds: r.seconds,
                                  line: r.failure.flatMap { failureLine($0.message, in: file) } ?? r.line))
    }
    warnAboutSameNames(runtime.testResults, file: file)
    if readOutput == nil { readOutput = runtime.readOutput }
    if let f = fileFailure, f.mark == nil { fileContext = runtime.failureContext().map { f.report + "\n" + $0 } ?? f.report }
    if fileFailure == nil && runtime.hasExperiment {
      outcomes.append(smokeTest(runtime, file: file, selection: selection))
    }
    if fileFailure == nil && expected == nil {
      // Handlers that never ran, and an --ios no device used: said, not failed.
      if explicitVersion, let warning = runtime.unusedVersionWarning(file: file) { printError(warning) }
      let notes = runtime.endOfRunNotes(includingLeftovers: false)
      for line in notes {
        printError(line.replacingOccurrences(of: "lifesim: warning: ", with: "lifesim: warning: \(file): "))
      }
      // What a case's own devices left, named by the case: they are gone now.
      for (testCase, line) in runtime.caseNotes where !notes.contains(line) {
        for kind in ["lifesim: warning: ", "lifesim: note: "] where line.hasPrefix(kind) {
          printError(kind + "\(file), case '\(testCase)': " + line.dropFirst(kind.count))
        }
      }
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
    if matched { return [TestOutcome(name: "\(file) (fails as expected)", file: file, seconds: monotonicSeconds() - start)] }
    let got = messages.compactMap { $0 }.first ?? "it did not fail"
    return [TestOutcome(name: file, file: file, status: .failed, failure: "expected an error containing '\(expected)', but \(got)",
                        isError: false, seconds: monotonicSeconds() - start)]
  }
  // A file -k leaves out, path and cases, is deselected even when it broke
  // while loading: a broken or slow scenario can be left out by name.
  if fileFailure != nil, outcomes.isEmpty, !selection.isEmpty, !selection.selects([file]),
     !declared.contains(where: { selection.selects([file, $0]) }) {
    return [TestOutcome(name: file, file: file, status: .deselected, seconds: monotonicSeconds() - start)]
  }
  if let f = fileFailure {
    switch f.mark {
    case .skip(let why)?:
      // lifesim.skip at the top level: the whole file, and the cases it declared before.
      outcomes = [TestOutcome(name: file, file: file, status: .skipped(why), seconds: monotonicSeconds() - start,
                              line: failureLine(f.message, in: file))]
    case .xfail(let why)?:
      // lifesim.xfail at the top level: the file fails as it says it does.
      outcomes = [TestOutcome(name: file, file: file, status: .xfailed(why), seconds: monotonicSeconds() - start,
                              line: failureLine(f.message, in: file))]
    case nil:
      outcomes.append(TestOutcome(name: file, file: file, status: .failed, failure: fileContext ?? f.report,
                                  isError: !f.isExpectation, seconds: monotonicSeconds() - start,
                                  line: failureLine(f.message, in: file)))
    }
  } else if outcomes.isEmpty {
    outcomes.append(TestOutcome(name: file, file: file, status: selection.selects([file]) ? .passed : .deselected,
                                seconds: monotonicSeconds() - start))
  }
  return outcomes
}

/// The line of `file` a failure's message starts with (`file:LINE: …`), or nil.
func failureLine(_ message: String, in file: String) -> Int? {
  let short = file.hasPrefix("./") ? String(file.dropFirst(2)) : file
  for prefix in [file + ":", short + ":"] where message.hasPrefix(prefix) {
    return Int(message.dropFirst(prefix.count).prefix { $0.isNumber })
  }
  return nil
}

/// Two cases of one file with the same name are one line in a report and
/// one pattern for -k: said, with their lines, so that one is renamed.
private func warnAboutSameNames(_ results: [TestCaseResult], file: String) {
  var lines: [String: [Int?]] = [:]
  var order: [String] = []
  for r in results {
    if lines[r.name] == nil { order.append(r.name) }
    lines[r.name, default: []].append(r.line)
  }
  for name in order where lines[name]!.count > 1 {
    let at = lines[name]!.map { $0.map(String.init) ?? "?" }.joined(separator: ", ")
    printError("lifesim: warning: \(file): \(lines[name]!.count) tests are named '\(visibleControls(name))' (lines \(at)); "
             + "reports and -k cannot tell them apart, so give each its own name")
  }
}

/// An experiment file's test: its first point with seed 1 runs and returns metrics.
private func smokeTest(_ runtime: LuaRuntime, file: String, selection: TestSelection) -> TestOutcome {
  let start = monotonicSeconds()
  do {
    let spec = try runtime.experimentSpec()
    guard let point = spec.points.first else {
      return TestOutcome(name: file, file: file, status: .failed, failure: "the constraint excludes every point", isError: true)
    }
    let names = spec.params.map(\.name)
    let where_ = zip(names, point).map { "\($0)=\($1)" }.joined(separator: " ")
    let name = "\(file): experiment '\(spec.name)' runs (\(where_.isEmpty ? "" : where_ + ", ")seed 1)"
    let experimentCase = String(name.dropFirst(file.count + 2))
    // Selected by -k as a case is: its file's path or its name.
    guard selection.selects([file, experimentCase]) else {
      return TestOutcome(name: name, file: file, testCase: experimentCase, status: .deselected)
    }
    let outcome = runtime.runExperiment(point: point, names: names, seed: 1)
    let seconds = monotonicSeconds() - start
    if let error = outcome.error {
      return TestOutcome(name: name, file: file, testCase: experimentCase, status: .failed, failure: error, isError: true,
                         seconds: seconds)
    }
    if let declared = spec.metrics, Set(declared) != Set(outcome.metrics.map(\.name)) {
      return TestOutcome(name: name, file: file, testCase: experimentCase, status: .failed,
                         failure: "run returned \(outcome.metrics.map(\.name)), the experiment declares \(declared)", seconds: seconds)
    }
    return TestOutcome(name: name, file: file, testCase: experimentCase, seconds: seconds)
  } catch let f as LuaFailure {
    return TestOutcome(name: file, file: file, status: .failed, failure: f.report, isError: !f.isExpectation)
  } catch {
    return TestOutcome(name: file, file: file, status: .failed, failure: "\(error)", isError: true)
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
