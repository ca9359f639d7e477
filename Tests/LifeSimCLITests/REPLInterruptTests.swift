import Foundation
import Testing

/// Ctrl-C in the REPL stops a chunk that runs in Swift (a workload's drive),
/// not only Lua code, and the session goes on.
struct REPLInterruptTests {
  @Test func ctrlCStopsADriveAndTheSessionGoesOn() throws {
    let home = FileManager.default.temporaryDirectory.appendingPathComponent("lifesim-repl-interrupt-home").path
    try? FileManager.default.removeItem(atPath: home)
    try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
    let started = Date()
    let out = try REPLTerminalTests().terminal([
      (0.5, "d = lifesim.device{ ios = 17, trace = false } d:install{ bundle = \"a\" } d:install{ bundle = \"b\" }\n"),
      // Millions of switches: minutes of Swift without a Lua instruction.
      (0.3, "lifesim.workload.user{ switch_every = 0.1 }:drive(d, { days = 29 })\n"),
      (1.0, "\u{3}"),
      (0.5, "d.now < 29 * 86400\n"),
      (0.3, "40 + 2\n"),
      (0.3, ":quit\n"),
    ], env: ["HOME": home, "TERM": "xterm", "NO_COLOR": "1"])
    #expect(out.contains("interrupted (Ctrl-C)"), "\(out)")
    #expect(out.contains("true"), "the drive stopped part way:\n\(out)")
    #expect(out.contains("42"), "the session survived Ctrl-C:\n\(out)")
    #expect(Date().timeIntervalSince(started) < 25, "the REPL was not killed by the test's watchdog")
  }
}
