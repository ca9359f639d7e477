import Foundation
import Testing
@testable import LifeSimLua

/// The README's API list is checked against the rows the bridge registers, so
/// a new function cannot ship undocumented.
struct APIDocumentationTests {
  /// How a row may appear in prose and examples: `lifesim.device`,
  /// `dev:launch(` or `x:launch{`, `app.state`.
  static func mentioned(_ row: APIRow, in text: String) -> Bool {
    func has(_ pattern: String) -> Bool { text.range(of: pattern, options: .regularExpression) != nil }
    let end = "(?![A-Za-z0-9_])"
    switch row.owner {
    case .method, .workloadObject:
      return has(NSRegularExpression.escapedPattern(for: row.qualifiedName) + end) || has(":\(row.name)[({]")
    case .field:
      return has("\\.\(row.name)\(end)")
    default:
      return has(NSRegularExpression.escapedPattern(for: row.qualifiedName) + end)
    }
  }

  @Test func readmeMentionsEveryFunctionMethodAndField() throws {
    let readme = try String(contentsOf: repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
    let missing = API.rows.filter(\.isPublic).filter { !Self.mentioned($0, in: readme) }.map(\.qualifiedName)
    #expect(missing.isEmpty, "README.md does not mention: \(missing.joined(separator: ", "))")
  }

  /// The check itself can fail.
  @Test func theCheckNoticesAMissingName() throws {
    let row = try #require(API.rows.first { $0.qualifiedName == "dev:launch" })
    #expect(Self.mentioned(row, in: "dev:launch(app)"))
    #expect(!Self.mentioned(row, in: "dev:launcher(app)"))
  }
}
