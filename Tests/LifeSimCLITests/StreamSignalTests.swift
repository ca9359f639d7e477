import Foundation
import Testing

/// `lifesim run --stream -o FILE` over an existing file writes a hidden
/// staging file beside it; SIGINT, SIGTERM or SIGHUP removes it, and the old
/// file stays as it was. A signal ignored at start stays ignored.
struct StreamSignalTests {
  @Test(arguments: [SIGINT, SIGTERM, SIGHUP])
  func aStoppedStreamLeavesNoStagingFile(signal: Int32) throws {
    let dir = try HostileCLITests.folder("stream-signal-\(signal)")
    let out = dir + "/trace.txt"
    try HostileCLITests.write(out, "the old trace\n")
    let file = dir + "/forever.lua"
    try HostileCLITests.write(file, """
      local dev = lifesim.device{ ios = 17 }
      dev:launch(dev:install{ bundle = "com.example.notes" })
      while true do end
      """)
    let p = Process()
    p.executableURL = binary
    p.arguments = ["run", file, "--stream", "-o", out, "--max-instructions", "1000000000000000"]
    p.standardOutput = FileHandle.nullDevice
    p.standardError = FileHandle.nullDevice
    try p.run()
    func staging() -> [String] {
      ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).filter { $0.hasPrefix(".trace.txt.") }
    }
    let start = Date()
    while staging().isEmpty && p.isRunning && Date().timeIntervalSince(start) < 20 { usleep(10_000) }
    #expect(!staging().isEmpty, "no staging file appeared")
    usleep(300_000)  // the script is in its loop
    kill(p.processIdentifier, signal)
    // A run the signal did not end is ended here, so that the test fails instead of hanging.
    let sent = Date()
    while p.isRunning && Date().timeIntervalSince(sent) < 20 { usleep(10_000) }
    if p.isRunning { kill(p.processIdentifier, SIGKILL) }
    p.waitUntilExit()
    #expect(p.terminationReason == .uncaughtSignal && p.terminationStatus == signal,
            "\(p.terminationReason) \(p.terminationStatus)")
    #expect(staging().isEmpty, "left behind: \(staging())")
    #expect((try? String(contentsOfFile: out, encoding: .utf8)) == "the old trace\n")
  }

  /// A background job's shell starts it with SIGINT ignored: Ctrl-C at the
  /// terminal must not end it, staging file or not.
  @Test func anIgnoredSignalStaysIgnored() throws {
    let dir = try HostileCLITests.folder("stream-signal-ignored")
    let out = dir + "/trace.txt"
    try HostileCLITests.write(out, "the old trace\n")
    let file = dir + "/short.lua"
    try HostileCLITests.write(file, """
      local dev = lifesim.device{ ios = 17 }
      dev:launch(dev:install{ bundle = "com.example.notes" })
      local n = 0
      for i = 1, 5e7 do n = n + i end
      """)
    // The shell ignores SIGINT, then execs lifesim, which inherits it; the
    // signal goes to lifesim once its staging file exists.
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/bin/sh")
    p.arguments = ["-c", "trap '' INT; exec \"$0\" run \"$1\" --stream -o \"$2\"", binary.path, file, out]
    p.standardOutput = FileHandle.nullDevice
    p.standardError = FileHandle.nullDevice
    try p.run()
    func staging() -> [String] {
      ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).filter { $0.hasPrefix(".trace.txt.") }
    }
    let start = Date()
    while staging().isEmpty && p.isRunning && Date().timeIntervalSince(start) < 20 { usleep(10_000) }
    #expect(!staging().isEmpty, "no staging file appeared")
    kill(p.processIdentifier, SIGINT)
    let sent = Date()
    while p.isRunning && Date().timeIntervalSince(sent) < 60 { usleep(10_000) }
    if p.isRunning { kill(p.processIdentifier, SIGKILL) }
    p.waitUntilExit()
    #expect(p.terminationReason == .exit && p.terminationStatus == 0, "\(p.terminationReason) \(p.terminationStatus)")
    #expect(staging().isEmpty, "left behind: \(staging())")
    #expect((try? String(contentsOfFile: out, encoding: .utf8)) != "the old trace\n")
  }
}
