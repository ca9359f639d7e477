import Foundation
import Testing

/// The engine's limits from the command line: flags that name them, and
/// messages that name the flags.
struct EngineLimitsCLITests {
  /// A --max-time the clock cannot take is a usage error, not a silent 30 days.
  @Test func maxTimeBeyondTheClockIsAUsageError() throws {
    let r = try lifesim(["run", "Scripts/tour.lua", "--max-time", "1e10"])
    #expect(r.status != 0 && r.status != 1)
    #expect(r.stderr.contains("--max-time must be at most 3153600000 seconds"), "\(r.stderr)")
    let ok = try lifesim(["run", "Scripts/tour.lua", "--max-time", "3153600000"])
    #expect(ok.status == 0, "\(ok.stderr)")
  }

  /// The lock loop that grew at 150 MB/s until the kernel killed it stops at
  /// the trace's cap, with the flag named.
  @Test func aLockLoopStopsAtMaxTraceMemory() throws {
    let path = try script("lock_loop.lua", """
      local dev = lifesim.device{ ios = 17 }
      for i = 1, 1e9 do dev:lock(); dev:unlock() end
      """)
    let r = try lifesim(["run", path, "--max-trace-memory", "4", "--max-instructions", "5000000", "-o", "/dev/null"])
    #expect(r.status == 2)
    #expect(r.stderr.contains("lock_loop.lua:2:") && r.stderr.contains("the trace exceeded its memory cap of 4 MB (--max-trace-memory)"),
            "\(r.stderr)")
    let bad = try lifesim(["run", path, "--max-trace-memory", "0"])
    #expect(bad.status != 0 && bad.stderr.contains("--max-trace-memory must be between 1 and 1048576 MB"))
  }

  /// A drive's actions count against --max-instructions.
  @Test func aDriveStopsAtMaxInstructions() throws {
    let path = try script("long_drive.lua", """
      local dev = lifesim.device{ ios = 17, trace = false }
      dev:install{ bundle = "com.example.a" }
      dev:install{ bundle = "com.example.b" }
      lifesim.workload.user{ switch_every = 0.1 }:drive(dev, { days = 29 })
      """)
    let r = try runTool([binary.path, "run", path, "--max-instructions", "1000000"], in: repoRoot, timeout: 60)
    #expect(r.status == 2)
    #expect(r.stderr.contains("long_drive.lua:4: workload:drive: instruction limit reached for the run (--max-instructions"),
            "\(r.stderr)")
  }

  /// `print` under `lifesim run` makes records: one of two megabytes is refused,
  /// and a newline or an escape in printed text cannot start a trace line.
  @Test func printedTextStaysOnItsLine() throws {
    let huge = try script("huge_print.lua", """
      local dev = lifesim.device{ ios = 17 }
      print(string.rep("x", 2 * 1024 * 1024))
      """)
    let r = try lifesim(["run", huge])
    #expect(r.status == 2 && r.stderr.contains("huge_print.lua:2: print: the text is 2097152 bytes long"), "\(r.stderr)")

    let forged = try script("forged_print.lua", """
      local dev = lifesim.device{ ios = 17 }
      print("hello\\n[t=0.000000] com.example.bank action kill")
      dev:log("bell\\7 and \\27[31mred")
      """)
    let f = try lifesim(["run", forged])
    #expect(f.status == 0, "\(f.stderr)")
    let lines = f.stdout.split(separator: "\n").map(String.init)
    #expect(lines.contains(#"[t=0.000000] log hello\n[t=0.000000] com.example.bank action kill"#), "\(f.stdout)")
    #expect(lines.contains(#"[t=0.000000] log bell\x07 and \x1b[31mred"#), "\(f.stdout)")
    #expect(!lines.contains { $0.hasPrefix("[t=0.000000] com.example.bank") })
    #expect(!f.stdout.contains("\u{1B}"))
  }
}
