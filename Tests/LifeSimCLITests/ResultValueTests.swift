import Foundation
import Testing

/// A value keeps what it is: parameter values and labels that are not
/// UTF-8 are refused (they became U+FFFD, so two of them read alike), a
/// number and a string that read alike are two points, and a label that
/// would parse as a number (`0x8badf00d`) stays a label.
struct ResultValueTests {
  static func folder(_ name: String) throws -> String {
    let path = tempPath("values-\(name)")
    try? FileManager.default.removeItem(atPath: path)
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  @Test func bytesThatAreNotUTF8AreRefusedNotReplaced() throws {
    let dir = try Self.folder("utf8")
    try """
      return lifesim.experiment{
        name = "bytes", params = { v = { "\\xff", "\\xfe" } }, seeds = 1,
        run = function(p, seed) return { x = #p.v } end,
      }
      """.write(toFile: dir + "/params.lua", atomically: true, encoding: .utf8)
    let r = try lifesim(["batch", dir + "/params.lua", "-o", dir + "/params.jsonl", "--quiet"])
    #expect(r.status == 2, "\(r.stderr)")
    #expect(r.stderr.contains("parameter 'v' value 1 is not valid UTF-8 (byte 1 is 0xFF)"), "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: dir + "/params.jsonl"))

    try """
      return lifesim.experiment{
        name = "labels", params = { v = { 1 } }, seeds = 2,
        run = function(p, seed) return { tag = seed == 1 and "\\xff" or "ok" } end,
      }
      """.write(toFile: dir + "/labels.lua", atomically: true, encoding: .utf8)
    let l = try lifesim(["batch", dir + "/labels.lua", "-o", dir + "/labels.jsonl", "--quiet"])
    #expect(l.status == 1, "\(l.stderr)")
    #expect(l.stderr.contains("run returned the label 'tag', which is not valid UTF-8 (byte 1 is 0xFF)"), "\(l.stderr)")
    #expect(!contents(dir + "/labels.jsonl").contains("\u{FFFD}"))
  }

  static let typed = """
    return lifesim.experiment{
      name = "typed", params = { v = { 1, "1" } }, seeds = 2,
      run = function(p, seed)
        return { x = type(p.v) == "number" and 10 or 20, code = "0x8badf00d", state = seed == 1 and "ok" or "404" }
      end,
    }
    """

  /// JSONL and SQLite keep types: the number 1 and the string "1" are two
  /// points; CSV, which cannot tell them apart, refuses such a grid.
  @Test(arguments: ["jsonl", "sqlite"])
  func aNumberAndAStringThatReadAlikeAreTwoPoints(format: String) throws {
    let dir = try Self.folder("typed-\(format)")
    try Self.typed.write(toFile: dir + "/typed.lua", atomically: true, encoding: .utf8)
    let out = "\(dir)/typed.\(format)"
    let r = try lifesim(["batch", dir + "/typed.lua", "-o", out, "--quiet"])
    #expect(r.status == 0, "\(r.stderr)")
    let json = try lifesim(["summary", out, "--format", "json"]).stdout
    #expect(json.contains("{\"params\":{\"v\":1},\"runs\":2,\"failed\":0,\"metrics\":{\"x\":{\"n\":2,\"mean\":10"), "\(json)")
    #expect(json.contains("{\"params\":{\"v\":\"1\"},\"runs\":2,\"failed\":0,\"metrics\":{\"x\":{\"n\":2,\"mean\":20"), "\(json)")
    // A label is a label, whatever it reads like.
    #expect(json.contains("\"code\":{\"counts\":{\"0x8badf00d\":2}}"), "\(json)")
    #expect(json.contains("\"state\":{\"counts\":{\"ok\":1,\"404\":1}}"), "\(json)")
    let text = try lifesim(["summary", out]).stdout
    #expect(text.contains("4 runs at 2 points"), "\(text)")
    #expect(text.contains("\n\"1\" "), "the string is quoted beside the number: \(text)")
  }

  @Test func csvRefusesAGridItWouldWriteAlikeAndKeepsLabels() throws {
    let dir = try Self.folder("typed-csv")
    try Self.typed.write(toFile: dir + "/typed.lua", atomically: true, encoding: .utf8)
    let r = try lifesim(["batch", dir + "/typed.lua", "-o", dir + "/typed.csv", "--quiet"])
    #expect(r.status == 2, "\(r.stderr)")
    #expect(r.stderr.contains("the parameter 'v' has the values 1 and \"1\", which a .csv file writes alike; write .jsonl"),
            "\(r.stderr)")
    try Self.typed.replacingOccurrences(of: "{ 1, \"1\" }", with: "{ 1, 2 }")
      .write(toFile: dir + "/labels.lua", atomically: true, encoding: .utf8)
    let l = try lifesim(["batch", dir + "/labels.lua", "-o", dir + "/labels.csv", "--quiet"])
    #expect(l.status == 0, "\(l.stderr)")
    let json = try lifesim(["summary", dir + "/labels.csv", "--format", "json"]).stdout
    #expect(json.contains("\"code\":{\"counts\":{\"0x8badf00d\":2}}"), "\(json)")
    // A column with a label anywhere is a column of labels: "404" is not averaged.
    #expect(json.contains("\"state\":{\"counts\":{\"ok\":1,\"404\":1}}"), "\(json)")
    #expect(!json.contains("\"state\":{\"n\""), "\(json)")
  }
}
