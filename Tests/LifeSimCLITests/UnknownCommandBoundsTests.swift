import Foundation
import Testing

/// An unknown first word goes into lifesim's message: it must reach the
/// terminal escaped, and a huge one must neither fill the message nor cost a
/// distance table of its length times each command's.
struct UnknownCommandBoundsTests {
  @Test func anUnknownCommandIsShownEscaped() throws {
    let r = try lifesim(["\u{1b}[31mred"])
    #expect(r.status == 2)
    #expect(!r.stderr.contains("\u{1b}"), "\(r.stderr.debugDescription)")
    #expect(r.stderr.contains("no command '\\x1b[31mred'"), "\(r.stderr.debugDescription)")
  }

  @Test func aHugeUnknownCommandIsCutInTheMessage() throws {
    let r = try lifesim([String(repeating: "x", count: 100_000)])
    #expect(r.status == 2)
    #expect(r.stderr.utf8.count < 2_000, "\(r.stderr.utf8.count) bytes of message")
    #expect(r.stderr.contains("no command 'xxx"), "\(r.stderr.prefix(300))")
  }
}
