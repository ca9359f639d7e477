import LifeSimEngine
import Testing
@testable import LifeSimExplain

struct ExplainReportTests {
  @Test func aControlCharacterInAScriptStringIsThreeDigits() {
    #expect(quoted("a\u{1}2\"\\\n") == #""a\0012\"\\\n""#)
  }

  @Test func theScriptTakesTheStepsAndComparesTheLogsKinds() throws {
    let log = try LogReader.read("applicationDidBecomeActive:\napplicationWillResignActive:\n")
    var options = ExplainOptions()
    options.alternatives = 0
    let result = try ExplainSearch(log: log, options: options).run()
    let e = try #require(result.explanations.first)
    let script = ExplainReport(log: log, options: options, result: result).script(e, source: "x.log", command: "lifesim explain x.log")
    #expect(script.contains("local dev = lifesim.device{ ios = 17, seed = 1 }\n"))
    #expect(script.contains("  [\"applicationWillResignActive:\"] = \"applicationWillResignActive:\",\n"))
    #expect(script.contains("dev:launch(app)  -- the user taps the app's icon; line 1\n"))
    #expect(script.contains("lifesim.expect_callbacks({ table.unpack(got, 1) }, expected)\n"))
  }
}
