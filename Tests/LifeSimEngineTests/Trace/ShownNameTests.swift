import Testing
@testable import LifeSimEngine

/// `shownName`, the one way a message quotes a name, in every layer.
struct ShownNameTests {
  @Test func aPlainNameIsQuotedAsItIs() {
    #expect(shownName("com.example.notes") == "'com.example.notes'")
    #expect(shownName("") == "''")
    #expect(shownName("café ☕") == "'café ☕'")
  }

  @Test func controlCharactersAreEscaped() {
    #expect(shownName("a\0b") == #"'a\0b'"#)
    #expect(shownName("a\nb\r\tc") == #"'a\nb\r\tc'"#)
    #expect(shownName("a\u{1b}[31mb\u{7f}") == #"'a\x1b[31mb\x7f'"#)
    #expect(shownName("a\u{9b}b") == #"'a\u{9b}b'"#)
  }

  @Test func aLongNameIsCutAndItsLengthSaid() {
    let long = String(repeating: "x", count: 4000)
    #expect(shownName(long) == "'" + String(repeating: "x", count: shownNameMaxBytes) + "…' (4000 bytes)")
    #expect(shownName(String(repeating: "y", count: shownNameMaxBytes)) == "'" + String(repeating: "y", count: shownNameMaxBytes) + "'")
  }

  @Test func theCutFallsWhereACharacterStarts() {
    // 199 bytes, then a 3-byte character across the 200-byte mark.
    let name = String(repeating: "a", count: shownNameMaxBytes - 1) + "☕" + "tail"
    let shown = shownName(name)
    #expect(shown == "'" + String(repeating: "a", count: shownNameMaxBytes - 1) + "…' (\(name.utf8.count) bytes)")
  }

  @Test func escapesCountAfterTheCut() {
    // The cut is of the name's bytes; an escape past it is not shown.
    let name = String(repeating: "a", count: shownNameMaxBytes) + "\n"
    #expect(shownName(name) == "'" + String(repeating: "a", count: shownNameMaxBytes) + "…' (201 bytes)")
  }
}
