import Foundation
import Testing

/// The parts' rules run on every action and process event. An array literal
/// returned as `Effects` is built on the heap and freed at once, in every
/// step (the optimizer does not keep it on the stack); the rules name their
/// effects with `Effects(a, b, …)` and `Effects()` instead.
struct RuleAllocationAuditTests {
  static let literal = try! Regex(#"(return|\?|:|\?\?|=) \[(\.|\])"#)

  @Test func noRuleReturnsItsEffectsAsAnArrayLiteral() throws {
    var found: [String] = []
    for (path, lines) in try swiftSources(under: "Sources/LifeSimEngine") {
      // A file of rules: it returns effects.
      guard lines.contains(where: { $0.contains("-> Effects<") }) else { continue }
      for (i, line) in lines.enumerated() where line.contains(Self.literal) {
        found.append("\(path):\(i + 1): \(line.trimmingCharacters(in: .whitespaces))")
      }
    }
    #expect(found.isEmpty, "array literals where effects are made:\n\(found.joined(separator: "\n"))")
  }

  @Test func theAuditFindsALiteral() throws {
    #expect("      return [.walk(.push, a: a, b: b)]".contains(Self.literal))
    #expect("      return isSwitcherOpen ? [] : Effects(.walk(.toActive, f))".contains(Self.literal))
    #expect(!"      return Effects(.walk(.push, a: a, b: b))".contains(Self.literal))
  }
}
