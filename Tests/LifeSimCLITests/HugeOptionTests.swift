import Foundation
import Testing

/// An argument too long to be an option is refused before any search for it.
struct HugeOptionTests {
  @Test func aHugeUnknownOptionIsRefusedAtOnce() throws {
    let start = Date()
    let r = try lifesim(["run", "--" + String(repeating: "a", count: 120_000), "x.lua"])
    #expect(r.status == 2)
    #expect(r.stderr.contains("is no lifesim option"), "\(r.stderr.prefix(300))")
    #expect(Date().timeIntervalSince(start) < 2)
  }
}
