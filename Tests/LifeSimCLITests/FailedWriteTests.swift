import Foundation
import Testing

/// An output that cannot be written is exit 2 with its path and reason.
struct FailedWriteTests {
  @Test func aChartThatCannotBeWrittenIsExit2() throws {
    let dir = try HostileCLITests.folder("hygiene-plot")
    let exp = dir + "/tiny.lua"
    try HostileCLITests.write(exp, """
      return lifesim.experiment{ name = "tiny", params = { x = { 1, 2 } }, seeds = 2,
        run = function(p, seed) return { v = p.x * seed } end }
      """)
    let r = try lifesim(["batch", exp, "-o", dir + "/t.csv", "--plot", "v", "--plot-output", "/dev/full", "--quiet"])
    #expect(r.status == 2, "\(r.stderr)")
    #expect(r.stderr.contains("cannot write /dev/full: No space left on device"), "\(r.stderr)")
    let help = try HostileCLITests.shell("", ["--help"], suffix: "> /dev/full")
    #expect(help.status == 2, "\(help.stderr)")
    #expect(help.stderr.contains("cannot write standard output"), "\(help.stderr)")
  }
}
