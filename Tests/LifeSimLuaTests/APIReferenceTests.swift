import Foundation
import Testing
@testable import LifeSimLua

/// docs/api.md is made from the rows the bridge registers, so a new function
/// cannot ship undocumented and a removed one cannot stay in the reference.
struct APIReferenceTests {
  @Test func theCommittedReferenceIsCurrent() throws {
    let committed = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/api.md"), encoding: .utf8)
    #expect(committed == apiReferenceMarkdown(),
            "docs/api.md is out of date: run `swift run generate-api-doc -o docs/api.md`")
  }

  @Test func theReferenceListsEveryPublicRowAndNoPrivateOne() {
    let text = apiReferenceMarkdown()
    for row in API.rows where row.isPublic {
      #expect(text.contains("`\(row.usage)`"), "docs/api.md does not list \(row.qualifiedName)")
    }
    #expect(!text.contains("`host."), "the prelude's private functions are not API")
  }

  /// The check can fail: a row more, or one summary changed, is a different file.
  @Test func aChangedRowChangesTheReference() throws {
    let rows = API.rows.filter(\.isPublic)
    let one = try #require(rows.firstIndex { $0.qualifiedName == "dev:launch" })
    var edited = rows
    edited[one] = APIRow(owner: rows[one].owner, name: rows[one].name, usage: rows[one].usage,
                         summary: rows[one].summary + " More.", body: rows[one].body)
    #expect(apiReferenceMarkdown(edited) != apiReferenceMarkdown())
    #expect(apiReferenceMarkdown(Array(rows.dropLast())) != apiReferenceMarkdown())
  }
}

