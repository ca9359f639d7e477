import Foundation
import Testing

/// Text from a script in a message: every byte shown (a NUL does not cut
/// it), control characters escaped so that none reaches the terminal raw.
struct MessageEscapeTests {
  @Test func aNulDoesNotCutAnArgumentErrorAndEscapesAreShown() throws {
    let launch = try scriptRun("launch", #"""
      local dev = lifesim.device{}
      dev:launch("a\0b\27[31mred")
      """#)
    #expect(launch.status == 2)
    #expect(launch.stderr.contains(#"no app 'a\0b\x1b[31mred' is installed"#), "\(launch.stderr)")
    #expect(!launch.stderr.contains("\u{1b}"), "a raw escape reached the terminal")
    let on = try scriptRun("on", #"""
      local dev = lifesim.device{}
      local app = dev:install{ bundle = "com.example.a" }
      app:on("x\0y\7", function() end)
      """#)
    #expect(on.status == 2)
    #expect(on.stderr.contains(#"unknown callback 'x\0y\x07'"#), "\(on.stderr)")
  }

  @Test func testNamesAndExploreStepsAreEscaped() throws {
    let dir = try HostileCLITests.folder("hygiene-test")
    try HostileCLITests.write(dir + "/esc_test.lua", #"""
      lifesim.test("one\27[2Jtwo", function() assert(false, "bad\27]0;title\7") end)
      """#)
    let r = try lifesim(["test", dir + "/esc_test.lua"])
    #expect(r.status == 1, "\(r.stderr)")
    #expect(r.stdout.contains(#"one\x1b[2Jtwo"#), "\(r.stdout)")
    #expect(r.stdout.contains(#"bad\x1b]0;title\x07"#), "\(r.stdout)")
    #expect(!r.stdout.contains("\u{1b}[2J") && !r.stdout.contains("\u{7}"), "\(r.stdout)")
  }
}

/// Writes `source` as NAME.lua in a folder of its own and runs it.
func scriptRun(_ name: String, _ source: String, _ extra: [String] = []) throws -> Result {
  let dir = try HostileCLITests.folder("hygiene-\(name)")
  let path = dir + "/\(name).lua"
  try HostileCLITests.write(path, source)
  return try lifesim(["run", path] + extra)
}
