import Foundation
import Testing

/// Names a result file would keep, checked before the first run: control
/// characters (NUL too) and the file's own columns are refused, nothing is
/// written; errors about what `run` returned name where it is written.
struct NameRefusalTests {
  @Test(arguments: ["csv", "sqlite", "jsonl"])
  func aParameterNameWithANulIsRefusedAndNothingWritten(format: String) throws {
    let dir = try HostileCLITests.folder("names-nul-\(format)")
    let exp = dir + "/nul.lua"
    try HostileCLITests.write(exp, #"""
      return lifesim.experiment{ name = "nul", params = { ["a\0b"] = { 1, 2 } }, seeds = 1,
        run = function(p, seed) return { v = 1 } end }
      """#)
    let r = try lifesim(["batch", exp, "-o", dir + "/r." + format, "--quiet"])
    #expect(r.status == 2, "\(r.stderr)")
    #expect(r.stderr.contains(#"the parameter 'a\0b' holds a control character"#), "\(r.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["nul.lua"])
  }

  @Test(arguments: ["run", "seed", "status", "error"])
  func aParameterNamedLikeAColumnIsRefused(name: String) throws {
    let dir = try HostileCLITests.folder("names-column-\(name)")
    let exp = dir + "/clash.lua"
    try HostileCLITests.write(exp, """
      return lifesim.experiment{ name = "clash", params = { \(name) = { 1, 2 } }, seeds = 1,
        run = function(p, seed) return { v = 1 } end }
      """)
    let r = try lifesim(["batch", exp, "-o", dir + "/r.csv", "--quiet"])
    #expect(r.status == 2, "\(r.stderr)")
    #expect(r.stderr.contains("the parameter '\(name)' is the name of a column every result file has"), "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: dir + "/r.csv"))
  }

  @Test func wrongMetricsNameTheRunFunctionsLine() throws {
    let dir = try HostileCLITests.folder("names-place")
    let exp = dir + "/declared.lua"
    try HostileCLITests.write(exp, """
      return lifesim.experiment{ name = "declared", params = { x = { 1, 2 } }, seeds = 1, metrics = { "v" },
        run = function(p, seed)
          return { w = 1 }
        end }
      """)
    let r = try lifesim(["batch", exp, "-o", dir + "/r.csv", "--quiet"])
    #expect(r.status == 1, "\(r.stderr)")
    #expect(r.stderr.contains("declared.lua:2: run returned the metrics w"), "\(r.stderr)")
  }
}
