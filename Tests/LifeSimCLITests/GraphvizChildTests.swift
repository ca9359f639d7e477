import Foundation
import Testing

/// `lifesim diagram` runs Graphviz's `dot` as a child: a dot that exits
/// without reading its input, or that never finishes, ends the command with a
/// message (exit 2), never with SIGPIPE or a hang.
struct GraphvizChildTests {
  func fakeDot(_ name: String, _ body: String) throws -> String {
    let dir = tempPath("fake-dot-\(name)")
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    // Written through a descriptor closed on exec: a child another test
    // spawns meanwhile must not inherit it open for writing, or running
    // the script fails with ETXTBSY ("Text file busy").
    let fd = open(dir + "/dot", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
    #expect(fd >= 0)
    let bytes = Array("#!/bin/sh\n\(body)\n".utf8)
    #expect(write(fd, bytes, bytes.count) == bytes.count)
    close(fd)
    chmod(dir + "/dot", 0o755)
    return dir
  }

  @Test func aDotThatReadsNothingIsAnErrorNotASignal() throws {
    let dir = try fakeDot("exits", "exit 0")
    for _ in 0..<5 {
      let r = try lifesim(["diagram", "--layout", "graphviz"], env: ["PATH": dir + ":/usr/bin:/bin"])
      #expect(r.status == 2, "exit \(r.status): \(r.stderr)")
      #expect(r.stderr.contains("failed"), "\(r.stderr)")
    }
  }

  @Test func aDotThatHangsIsStoppedWithAMessage() throws {
    let dir = try fakeDot("hangs", "exec sleep 100")
    let r = try runTool([binary.path, "diagram", "--layout", "graphviz"], in: repoRoot,
                        env: ["PATH": dir + ":/usr/bin:/bin"], timeout: 60)
    #expect(r.status == 2, "exit \(r.status): \(r.stderr)")
    #expect(r.stderr.contains("did not finish within 30 s"), "\(r.stderr)")
  }
}
