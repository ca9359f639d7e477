import Foundation
import Testing
@testable import LifeSimEngine

/// The engine knows nothing of Lua or of the command line: its messages are
/// typed errors in its own words, which the bridge and the CLI word for their
/// users. These checks keep Lua and CLI vocabulary out of its string literals.
struct EngineWordingTests {
  static let foreign = ["dev:", "ctx:", "dev.", "app:on", "--max", "lifesim", "Lua", "= {", "()", "= true", "= false"]

  @Test func engineStringsSpeakNeitherLuaNorCLI() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources/LifeSimEngine")
    let walker = try #require(FileManager.default.enumerator(atPath: root.path))
    var files = 0
    var found: [String] = []
    for case let relative as String in walker where relative.hasSuffix(".swift") {
      files += 1
      let text = try String(contentsOf: root.appendingPathComponent(relative), encoding: .utf8)
      for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
        let code = line.range(of: "//").map { line[..<$0.lowerBound] } ?? line[...]
        // The string literals on the line: every other piece between quotes.
        let literals = code.split(separator: "\"", omittingEmptySubsequences: false).enumerated()
          .filter { $0.offset % 2 == 1 }.map(\.element)
        for literal in literals {
          // Swift method names in the callback table ("viewDidLoad()") are UIKit's, not Lua's.
          if literal.hasSuffix("()") && !literal.contains(" ") { continue }
          for word in Self.foreign where literal.contains(word) {
            found.append("\(relative):\(n + 1): \"\(literal)\"")
          }
          if Self.hasTableCall(literal) { found.append("\(relative):\(n + 1): \"\(literal)\"") }
        }
      }
    }
    #expect(files > 20)
    #expect(found.isEmpty, "engine strings in Lua or CLI terms:\n\(found.joined(separator: "\n"))")
  }

  /// A Lua call with a table argument, `end_interrupt{ accept = true }`: a
  /// name running into a brace (Swift's interpolated closures have a space,
  /// and its `\u{…}` escapes a backslash).
  static func hasTableCall<S: StringProtocol>(_ literal: S) -> Bool {
    var before: Character = " ", previous: Character = " "
    for c in literal {
      if c == "{" && (previous.isLetter || previous == "_") && !(before == "\\" && previous == "u") { return true }
      before = previous
      previous = c
    }
    return false
  }

  @Test func aTableCallIsLuaSyntax() {
    #expect(Self.hasTableCall("answer one with end_interrupt{ accept = true }"))
    #expect(!Self.hasTableCall("\\(app.map { \" on \\($0)\" } ?? \"\")"))
    #expect(!Self.hasTableCall("\\u{FFFD}"))
  }

  @Test func errorsCarryDataAndRefusalsAreMarked() {
    #expect(SimulationError.locked(.action(.launch)).description == "launch: the device is locked")
    #expect(SimulationError.locked(.action(.launch)).isRefusal)
    #expect(SimulationError.reentrant(.advance, inside: .clock).description == "advance cannot run inside advance or run")
    #expect(!SimulationError.horizonReached(.seconds(1)).isRefusal)
    #expect(SimulationError.replayRow(3, .locked(.action(.launch))).isRefusal)
  }
}
