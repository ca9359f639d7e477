import Foundation
import Testing

/// `lifesim test --junit-xml FILE` where FILE is a module a test requires (a
/// slip of tab completion): the require is refused and the module is left as
/// it was, with exit 2 naming both.
struct JUnitOverInputTests {
  @Test func aReportOverAModuleTheTestsRequireIsNotWritten() throws {
    let dir = tempPath("junit-over-input")
    try? FileManager.default.removeItem(atPath: dir)
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    let module = "return { answer = 42 }\n"
    try module.write(toFile: dir + "/helper.lua", atomically: true, encoding: .utf8)
    try """
      local helper = require("helper")
      lifesim.test("answer", function() assert(helper.answer == 42) end)

      """.write(toFile: dir + "/t_test.lua", atomically: true, encoding: .utf8)
    let r = try lifesim(["test", dir + "/t_test.lua", "--junit-xml", dir + "/helper.lua"])
    #expect(r.status == 2, "\(r.stdout)\n\(r.stderr)")
    #expect(r.stderr.contains("--junit-xml"), "\(r.stderr)")
    #expect(try String(contentsOfFile: dir + "/helper.lua", encoding: .utf8) == module)
    // The same report to another file is written.
    let ok = try lifesim(["test", dir + "/t_test.lua", "--junit-xml", dir + "/report.xml"])
    #expect(ok.status == 0, "\(ok.stdout)\n\(ok.stderr)")
    #expect(FileManager.default.fileExists(atPath: dir + "/report.xml"))
  }
}
