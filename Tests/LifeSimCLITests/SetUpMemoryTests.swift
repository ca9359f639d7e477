import Foundation
import Testing

/// A Lua state set up where the address space is nearly gone (ulimit -v):
/// a refused allocation during set-up is an out-of-memory message and exit 2,
/// never a signal from an unprotected Lua error or a longjmp through Swift.
struct SetUpMemoryTests {
  @Test(arguments: ["batch", "run"])
  func aStateSetUpWithoutRoomEndsWithAMessage(command: String) throws {
    if binaryIsSanitized { return }
    let dir = try HostileCLITests.folder("setup-\(command)")
    let exp = dir + "/tiny.lua"
    try HostileCLITests.write(exp, """
      return lifesim.experiment{ name = "tiny", params = { x = { 1, 2 } }, seeds = 2,
        run = function(p, seed) return { v = p.x * seed } end }
      """)
    var outcomes: [Int32: Int] = [:]
    // Around where the worker's (or run's) state is made: the limits below
    // start nothing, those above finish; in between, set-up is refused.
    for kilobytes in stride(from: 96_000, through: 170_000, by: 1_000) {
      let args = command == "batch"
        ? ["batch", exp, "-j", "1", "-o", dir + "/t\(kilobytes).csv", "--quiet"]
        : ["run", exp]
      let r = try HostileCLITests.shell("ulimit -v \(kilobytes); SWIFT_BACKTRACE=enable=no", args, timeout: 30)
      outcomes[r.status, default: 0] += 1
      // 127: the dynamic loader could not map a library (nothing of lifesim ran).
      #expect([0, 1, 2, 127].contains(r.status), "\(kilobytes) kB: exit \(r.status): \(r.stderr.prefix(300))")
      #expect(!r.stderr.contains("unprotected Lua error"), "\(kilobytes) kB: \(r.stderr.prefix(300))")
      if r.status == 2 { #expect(!r.stderr.isEmpty, "\(kilobytes) kB: exit 2 without a message") }
    }
    #expect(outcomes[0, default: 0] > 0, "no limit let the \(command) finish: \(outcomes)")
  }
}
