import Foundation
import LifeSimEngine
import Testing

struct CLIRunTests {
  @Test func theTourRunsAndPrintsATrace() throws {
    let r = try lifesim(["run", "Scripts/tour.lua"])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("-[AppDelegate applicationDidBecomeActive:]"))
  }

  /// Determinism: separate processes, a script that iterates with pairs
  /// and draws random numbers, byte-identical JSONL.
  @Test func sameSeedSameBytesAcrossProcesses() throws {
    let path = try script("determinism.lua", """
      local dev = lifesim.device{ ios = 17 }
      local apps = {}
      for _, name in ipairs({ "mail", "notes", "maps", "music", "photos", "news" }) do
        apps[name] = dev:install{ bundle = "com.example." .. name, scenes = (#name % 2 == 0) }
      end
      local order = {}
      for name, app in pairs(apps) do order[#order + 1] = app end
      for i = 1, 60 do
        local app = order[math.random(#order)]
        dev:launch(app)
        dev:log(tostring({}) .. " " .. name_of(app))
        dev:advance(math.random() * 30)
        if math.random() < 0.2 then dev:kill(app) end
      end
      """.replacingOccurrences(of: "name_of(app)", with: "app.bundle"))
    let a = try lifesim(["run", path, "--format", "jsonl", "--seed", "5"])
    let b = try lifesim(["run", path, "--format", "jsonl", "--seed", "5"])
    let c = try lifesim(["run", path, "--format", "jsonl", "--seed", "6"])
    #expect(a.status == 0, "\(a.stderr)")
    #expect(a.stdout == b.stdout)
    #expect(a.stdout != c.stdout)
    #expect(a.stdout.split(separator: "\n").count > 100)
  }

  @Test func syntaxErrorsGiveFileLineAndExit2() throws {
    let path = try script("syntax.lua", "local x = = 1\n")
    let r = try lifesim(["run", path])
    #expect(r.status == 2)
    #expect(r.stderr.contains("syntax.lua:1:"))
  }

  @Test func handlerErrorsNameAppCallbackAndTime() throws {
    let path = try script("handler.lua", """
      local dev = lifesim.device{ ios = 12 }
      local app = dev:install{ bundle = "com.example.notes" }
      app:on("applicationDidEnterBackground:", function(ctx) local t = nil; return t.x end)
      dev:launch(app)
      dev:advance(3)
      dev:home()
      """)
    let r = try lifesim(["run", path])
    #expect(r.status == 2)
    #expect(r.stderr.contains("handler.lua:3:"))
    #expect(r.stderr.contains("com.example.notes"))
    #expect(r.stderr.contains("applicationDidEnterBackground:"))
    #expect(r.stderr.contains("t=3.000000"))
    #expect(r.stderr.contains("stack traceback"))
    // The trace so far is still written.
    #expect(r.stdout.contains("applicationWillResignActive:"))
  }

  @Test func failedExpectationsExit1() throws {
    let path = try script("expect.lua", """
      local dev = lifesim.device{ ios = 12 }
      local app = dev:install{ bundle = "a" }
      dev:launch(app)
      lifesim.expect_callbacks(dev.trace:callbacks{ app = app }, { "applicationDidBecomeActive:" })
      """)
    let r = try lifesim(["run", path])
    #expect(r.status == 1)
    #expect(r.stderr.contains("expect.lua:4: callbacks differ"))
    #expect(r.stderr.contains("| application:willFinishLaunchingWithOptions:"))
  }

  @Test func badInputGetsAClearMessageAndExit2() throws {
    let missing = try lifesim(["run", "no/such/file.lua"])
    #expect(missing.status == 2 && missing.stderr.contains("cannot open no/such/file.lua"))
    let flag = try lifesim(["run", "Scripts/tour.lua", "--bogus"])
    #expect(flag.status == 2 && flag.stderr.contains("Usage:"))
    let ios = try lifesim(["run", "Scripts/tour.lua", "--ios", "19"])
    #expect(ios.status == 2 && ios.stderr.contains("supported: 4, 5"))
    let format = try lifesim(["run", "Scripts/tour.lua", "--format", "xml"])
    #expect(format.status == 2)
    let none = try lifesim([])
    #expect(none.status == 0 && none.stdout.contains("SUBCOMMANDS"))
  }

  @Test func outputFileAndSwiftNames() throws {
    let path = try script("names.lua", """
      local dev = lifesim.device{ ios = 12 }
      dev:launch(dev:install{ bundle = "a" })
      """)
    let out = FileManager.default.temporaryDirectory.appendingPathComponent("lifesim-names.txt").path
    let r = try lifesim(["run", path, "--names", "swift", "-o", out])
    #expect(r.status == 0 && r.stdout.isEmpty)
    let text = try String(contentsOfFile: out, encoding: .utf8)
    #expect(text.contains("AppDelegate.applicationDidBecomeActive(_:)"))
  }
}

struct CLITestCommandTests {
  /// Every shipped script under Scripts/ is itself a test.
  @Test func everyShippedScriptPasses() throws {
    let r = try lifesim(["test", "Scripts"])
    #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
    let last = r.stdout.split(separator: "\n").last.map(String.init) ?? ""
    #expect(last.hasSuffix("passed, 0 failed"), "\(last)")
  }

  @Test func countsCasesAndReportsFailures() throws {
    let path = try script("cases.lua", """
      lifesim.test("passes", function() assert(true) end)
      lifesim.test("fails", function() assert(false, "boom") end)
      lifesim.test("errors", function() error("bad") end)
      """)
    let r = try lifesim(["test", path])
    #expect(r.status == 2)
    #expect(r.stdout.contains("ok    \(path): passes"))
    #expect(r.stdout.contains("FAIL  \(path): fails"))
    #expect(r.stdout.hasSuffix("1 passed, 1 failed, 1 error\n"), "a script error is an error, as in the JUnit report")
  }

  @Test func expectedErrorsPassOnlyWithTheirMessage() throws {
    let good = try script("expected.lua", "-- expect-error: is blocked\nio.open('x')\n")
    let bad = try script("unexpected.lua", "-- expect-error: is blocked\nprint('fine')\n")
    let r = try lifesim(["test", good, bad])
    #expect(r.stdout.contains("ok    \(good) (fails as expected)"))
    #expect(r.stdout.contains("FAIL  \(bad)"))
    #expect(r.stdout.hasSuffix("1 passed, 1 failed\n"))
  }
}

struct CLICompareTests {
  @Test func seed002SideBySide() throws {
    let r = try lifesim(["compare", "Scripts/compare/seed002.lua", "--handled", "--ios", "12", "--ios", "13"])
    #expect(r.status == 0, "\(r.stderr)")
    let lines = r.stdout.split(separator: "\n").map(String.init)
    // Each version's column has its time beside it.
    #expect(lines.first?.hasPrefix("  time  iOS 12") == true, "\(lines.first ?? "")")
    // The terminate step: the same willTerminate on both sides, after differing steps.
    // One app: no bundle id in the cells; the force-quit's kill shows by default.
    func text(_ line: String) -> String {  // the row without its marker and its first time
      let cell = line.dropFirst(2).drop { $0 == " " }
      return String(cell.drop { $0 != " " }.dropFirst(4))
    }
    #expect(lines.contains { $0.hasPrefix("  ") && text($0).hasPrefix("-[AppDelegate applicationWillTerminate:]") })
    #expect(lines.last.map { $0.hasPrefix("  ") && text($0).hasPrefix("kill reason=user") } == true, "\(lines.last ?? "")")
    #expect(!r.stdout.contains("com.example.lifecycle"))
    #expect(lines.contains { $0.hasPrefix("* ") && $0.contains("sceneDidDisconnect:") })
    #expect(lines.contains { $0.hasPrefix("* ") && text($0).hasPrefix("-[AppDelegate applicationDidEnterBackground:]") })
  }

  /// A script that pins `ios` still gets one version per column, and is told.
  @Test func everyColumnRunsItsHeadersVersion() throws {
    let pinned = try script("pinned.lua", """
      local dev = lifesim.device{ ios = 12 }
      local a = dev:install{ bundle = "com.example.a" }
      local b = dev:install{ bundle = "com.example.b" }
      dev:launch(a) dev:launch(b)
      """)
    let r = try lifesim(["compare", pinned, "--ios", "12", "--ios", "17", "--width", "30"])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stderr.contains("sets ios = 12 in lifesim.device; each column ran the version in its header instead"))
    #expect(r.stdout.contains("-[SceneDelegate"), "the iOS 17 column must run iOS 17:\n\(r.stdout)")
    // Two apps: each row names its app by the last part of its bundle id.
    #expect(r.stdout.contains("a: -[AppDelegate") && !r.stdout.contains("com.example.a"))
    // --width cuts the text of a cell; its time stands beside it, whole.
    for line in r.stdout.split(separator: "\n").dropFirst() {
      // An empty last cell leaves no space after its bar.
      for cell in line.dropFirst(2).components(separatedBy: " |") {
        let trimmed = cell.trimmingCharacters(in: .whitespaces)
        guard let time = trimmed.range(of: " s  ") else { continue }
        #expect(trimmed[time.upperBound...].count <= 30, "\(line)")
      }
    }
    #expect(try lifesim(["compare", pinned, "--ios", "12", "--ios", "17", "--width", "5"]).status == 2)
  }

  @Test func compareNeedsTwoSupportedVersions() throws {
    #expect(try lifesim(["compare", "Scripts/compare/seed002.lua", "--ios", "12"]).status == 2)
    #expect(try lifesim(["compare", "Scripts/compare/seed002.lua", "--ios", "12", "--ios", "19"]).status == 2)
  }
}

struct CLIFuzzTests {
  /// Garbage and cut-short scripts through the real binary: the exit status is
  /// always 0, 1 or 2 (never a signal), and errors go to stderr.
  @Test func garbageScriptsExitCleanly() throws {
    let tour = try String(contentsOf: repoRoot.appendingPathComponent("Scripts/tour.lua"), encoding: .utf8)
    let bytes = Array(tour.utf8)
    var rng = SeededGenerator(seed: 7)
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lifesim-cli-fuzz")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    for i in 0..<24 {
      var mutant = Array(bytes.prefix(Int(rng.next() % UInt64(bytes.count))))
      for _ in 0..<(rng.next() % 8) { mutant.append(UInt8(truncatingIfNeeded: rng.next())) }
      let url = dir.appendingPathComponent("mutant\(i).lua")
      try Data(mutant).write(to: url)
      let r = try lifesim(["run", url.path, "--max-instructions", "2000000"])
      #expect([0, 1, 2].contains(r.status), "mutant \(i): exit \(r.status)\n\(r.stderr)")
      if r.status == 2 { #expect(r.stderr.contains("lifesim:"), "mutant \(i): \(r.stderr)") }
    }
  }
}

extension CLITestCommandTests {
  /// -k selects tests by name (a file's name selects all its cases), each
  /// case shows its time, -x stops at the first failure, and the closing line
  /// stays "N passed, N failed".
  @Test func patternsTimesAndStoppingEarly() throws {
    let k = try lifesim(["test", "Scripts/view_controllers", "-k", "Containment"])
    #expect(k.status == 0, "\(k.stdout)")
    let lines = k.stdout.split(separator: "\n")
    #expect(lines.last?.hasPrefix("7 passed, 0 failed, ") == true && lines.last?.hasSuffix(" deselected") == true, "\(k.stdout)")
    #expect(lines.dropLast().allSatisfy { $0.contains("containment.lua") && $0.hasSuffix(" s)") }, "\(k.stdout)")
    let byCase = try lifesim(["test", "Scripts/view_controllers", "-k", "viewIsAppearing"])
    #expect(byCase.stdout.contains("iOS 17: a child appearing gets viewIsAppearing:"))
    #expect(!byCase.stdout.contains("removing a child"))
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lifesim-x-\(getpid())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    for name in ["a_test.lua", "b_test.lua"] {
      try "lifesim.test('fails', function() assert(1 == 2, 'no') end)\n"
        .write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }
    let all = try lifesim(["test", dir.path])
    #expect(all.stdout.hasSuffix("0 passed, 2 failed\n"))
    let x = try lifesim(["test", dir.path, "-x"])
    #expect(x.status == 1)
    #expect(x.stdout.components(separatedBy: "FAIL  ").count == 2)
    #expect(x.stdout.hasSuffix("stopped at the first failure (-x)\n0 passed, 1 failed, 1 not run\n"), "\(x.stdout)")
    // -x stops within a file too: the case after the failing one does not run.
    try """
      lifesim.test('first', function() assert(false, 'no') end)
      lifesim.test('second', function() print('the second case ran') end)
      """.write(to: dir.appendingPathComponent("a_test.lua"), atomically: true, encoding: .utf8)
    let within = try lifesim(["test", dir.appendingPathComponent("a_test.lua").path, "-x"])
    #expect(within.status == 1 && !within.stdout.contains("the second case ran"), "\(within.stdout)")
    #expect(within.stdout.hasSuffix("0 passed, 1 failed, 1 not run\n"), "\(within.stdout)")
    // -k that selects nothing is not a pass (pytest's exit status 5).
    let none = try lifesim(["test", dir.path, "-k", "no-such-test"])
    #expect(none.status == 5 && none.stderr.contains("no test matched -k 'no-such-test'"), "\(none.stderr)")
    #expect(none.stdout.hasSuffix("0 passed, 0 failed, 3 deselected\n"), "\(none.stdout)")
  }
}
