import Foundation
import Testing

/// `lifesim diagram` runs Graphviz's `dot` as a child: a dot that exits
/// without reading its input, or that never finishes, ends the command with a
/// message (exit 2), never with SIGPIPE or a hang.
struct GraphvizChildTests {
  func fakeDot(_ name: String, _ body: String) throws -> String {
    let dir = tempPath("fake-dot-\(name)")
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    try "#!/bin/sh\n\(body)\n".write(toFile: dir + "/dot", atomically: true, encoding: .utf8)
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
