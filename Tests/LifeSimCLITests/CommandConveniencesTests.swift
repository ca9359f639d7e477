import Foundation
import Testing

/// The small things a newcomer meets: a mistyped command gets a suggestion;
/// a data error is not followed by a usage block; the REPL prints a handler's
/// print after the action that caused it; the JUnit report places each case
/// (file and line) and counts a script error as an error, as the closing line
/// does; two tests with one name are warned about; merge names the part that
/// differs and gives no --resume advice.
struct CommandConveniencesTests {
  @Test func aMistypedCommandGetsASuggestion() throws {
    let typo = try lifesim(["tset", "Scripts"])
    #expect(typo.status == 2)
    #expect(typo.stderr.contains("lifesim: no command 'tset' (did you mean 'test'?)"), "\(typo.stderr)")
    #expect(try lifesim(["timelin"]).stderr.contains("did you mean 'timeline'?"))
    // Nothing close: the commands are listed.
    let far = try lifesim(["lanch"])
    #expect(far.status == 2)
    #expect(far.stderr.contains("no command 'lanch'; the commands: run, test, repl"), "\(far.stderr)")
    #expect(!far.stderr.contains("Usage:"), "\(far.stderr)")
    // A script given without `run`.
    let file = try lifesim(["Scripts/tour.lua"])
    #expect(file.status == 2 && file.stderr.contains("to run the script: lifesim run Scripts/tour.lua"), "\(file.stderr)")
    // Real commands, options and help still parse.
    #expect(try lifesim(["help", "run"]).status == 0)
    #expect(try lifesim(["--version"]).status == 0)
  }

  @Test func aDataErrorHasNoUsageBlock() throws {
    let text = try script("upload.txt", "[t=0.000000] com.example.notes action launch\n")
    let r = try lifesim(["timeline", text, "-o", PictureTests.dir.appendingPathComponent("upload.svg").path])
    #expect(r.status == 2)
    #expect(r.stderr == "lifesim: \(text):1: not a lifesim JSONL record (lifesim run --format jsonl writes them)\n", "\(r.stderr)")
    let missing = try lifesim(["timeline", "/nonexistent/upload.jsonl", "-o", PictureTests.dir.appendingPathComponent("m.svg").path])
    #expect(missing.status == 2 && !missing.stderr.contains("Usage:") && !missing.stderr.contains("--help"), "\(missing.stderr)")
    // A usage error still shows the usage.
    let usage = try lifesim(["timeline", text, "-o", "x.svg", "--width", "5"])
    #expect(usage.status == 2 && usage.stderr.contains("Usage:"))
  }

  @Test func aPrintInAHandlerComesAfterTheActionThatCausedIt() throws {
    let r = try repl("""
      app:on("sceneDidBecomeActive:", function(ctx) print("became active") end)
      dev:launch(app)
      print("after")
      """)
    #expect(r.status == 0, "\(r.stderr)")
    let lines = r.stdout.split(separator: "\n").map(String.init)
    let action = try #require(lines.firstIndex { $0.contains("action launch") }, "\(r.stdout)")
    let callback = try #require(lines.firstIndex { $0.contains("sceneDidBecomeActive:]") }, "\(r.stdout)")
    let printed = try #require(lines.firstIndex(of: "became active"), "\(r.stdout)")
    #expect(action < callback && callback < printed, "\(r.stdout)")
    // The records after the print follow it; a later chunk's print is below them all.
    #expect(lines.last == "after", "\(r.stdout)")
  }

  static let cases = """
    lifesim.test("passes", function() end)
    lifesim.test("fails", function()
      assert(1 == 2, "one is not two")
    end)
    lifesim.test("errors", function()
      error("boom")
    end)
    lifesim.test("passes", function() end)
    """

  @Test func theJUnitReportPlacesEachCaseAndCountsErrorsAsErrors() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lifesim-junit-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    try Self.cases.write(to: dir.appendingPathComponent("cases_test.lua"), atomically: true, encoding: .utf8)
    try "local x = 1\nerror('broken here')\n".write(to: dir.appendingPathComponent("broken_test.lua"), atomically: true, encoding: .utf8)
    let xml = dir.appendingPathComponent("report.xml")
    let r = try lifesim(["test", "--junit-xml", xml.path], in: dir)
    #expect(r.status == 2)
    // One failed assertion, two script errors: the closing line and the XML agree.
    #expect(r.stdout.hasSuffix("2 passed, 1 failed, 2 errors\n"), "\(r.stdout)")
    let text = try String(contentsOf: xml, encoding: .utf8)
    #expect(text.contains("<testsuites name=\"lifesim test\" tests=\"5\" failures=\"1\" errors=\"2\""), "\(text)")
    // file and line: where the case starts, or where its failure was raised.
    #expect(text.contains("<testcase name=\"passes\" classname=\"cases_test\" time=\""), "\(text)")
    #expect(text.contains("file=\"cases_test.lua\" line=\"1\"/>"), "\(text)")
    #expect(text.contains("file=\"cases_test.lua\" line=\"3\">\n      <failure"), "\(text)")
    #expect(text.contains("file=\"cases_test.lua\" line=\"6\">\n      <error"), "\(text)")
    #expect(text.contains("<testcase name=\"broken_test.lua\" classname=\"broken_test\"") && text.contains("file=\"broken_test.lua\" line=\"2\">"), "\(text)")
    // Two cases named alike are one name to a report and to -k: warned.
    #expect(r.stderr.contains("lifesim: warning: cases_test.lua: 2 tests are named 'passes' (lines 1, 8)"), "\(r.stderr)")
    // Only errors: the closing line says so too.
    let only = try lifesim(["test", "broken_test.lua"], in: dir)
    #expect(only.stdout.hasSuffix("0 passed, 0 failed, 1 error\n"), "\(only.stdout)")
  }

  @Test func mergeNamesThePartThatDiffers() throws {
    let experiment = """
      return lifesim.experiment{
        name = "parts", seeds = 2, params = { n = { 1, 2, 3 } },
        run = function(p, seed) return { m = p.n * 10 + seed } end }
      """
    let exp = try script("parts.lua", experiment)
    let other = try script("parts_other.lua", experiment.replacingOccurrences(of: "p.n * 10", with: "p.n * 100"))
    for format in ["csv", "sqlite"] {
      let a = tempPath("part-a.\(format)"), b = tempPath("part-b.\(format)"), c = tempPath("part-c.\(format)")
      #expect(try lifesim(["batch", exp, "--shard", "0/3", "-o", a, "--quiet", "--force"]).status == 0)
      #expect(try lifesim(["batch", exp, "--shard", "1/3", "-o", b, "--quiet", "--force"]).status == 0)
      #expect(try lifesim(["batch", other, "--shard", "2/3", "-o", c, "--quiet", "--force"]).status == 0)
      // The odd part first: it is still the one named, the two that agree are the batch.
      let r = try lifesim(["merge", c, a, b, "-o", tempPath("parts-merged.\(format)")])
      #expect(r.status == 2)
      #expect(r.stderr.contains("lifesim: \(c) was written by a different experiment than the other 2 parts"), "\(format): \(r.stderr)")
      #expect(r.stderr.contains("experiment file sha256"), "\(r.stderr)")
      #expect(!r.stderr.contains("\(a) was written") && !r.stderr.contains("\(b) was written"))
      #expect(!r.stderr.contains("resume") && !r.stderr.contains("delete it"), "\(r.stderr)")
      #expect(r.stderr.contains("merge only the parts of one batch"))
    }
  }
}
