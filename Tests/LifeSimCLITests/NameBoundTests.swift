import Foundation
import Testing

/// Names are bounded where they come in, and messages quote a bounded part.
struct NameBoundTests {
  @Test func aReplayNameIsBoundedAndQuotedShort() throws {
    let r = try scriptRun("replay", """
      local dev = lifesim.device{}
      lifesim.workload.replay{ { t = 1, app = string.rep("x", 10 * 1024 * 1024), event = "open" } }
      """)
    #expect(r.status == 2)
    #expect(r.stderr.contains("names are at most 4096 bytes"), "\(r.stderr.prefix(400))")
    #expect(r.stderr.utf8.count < 2000, "the message quotes \(r.stderr.utf8.count) bytes")
    let unknown = try scriptRun("replay-app", """
      local dev = lifesim.device{}
      local w = lifesim.workload.replay{ { t = 1, app = string.rep("y", 4000), event = "open" } }
      w:drive(dev)
      """)
    #expect(unknown.status == 2)
    #expect(unknown.stderr.contains("(4000 bytes)"), "\(unknown.stderr.prefix(400))")
    #expect(unknown.stderr.utf8.count < 2000, "the message quotes \(unknown.stderr.utf8.count) bytes")
  }
}
