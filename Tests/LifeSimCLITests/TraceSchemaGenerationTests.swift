import Foundation
import LifeSimEngine
import Testing

/// docs/trace.schema.json's enumerations are written from the engine's
/// tables by `generate-api-doc --schema`: a new action (or record kind, kill
/// reason, ...) is no hand edit of the schema, and a stale schema fails here.
struct TraceSchemaGenerationTests {
  static let command = "swift run generate-api-doc -o docs/api.md --schema docs/trace.schema.json"

  static func committed() throws -> String {
    try String(contentsOf: TraceSchemaTests.schemaURL, encoding: .utf8)
  }

  @Test func theCommittedSchemaListsTheTablesNames() throws {
    let text = try Self.committed()
    #expect(try TraceSchema.updating(text) == text, "docs/trace.schema.json is out of date: run `\(Self.command)`")
  }

  /// The action list is the action table's, in its order.
  @Test func theActionListIsTheActionTable() throws {
    let actions = try #require(TraceSchema.enumerations.first { $0.property == "action" })
    #expect(actions.values == ActionRow.table.map(\.name))
    let s = try TraceSchemaTests.schema()
    let properties = try #require(s["properties"] as? [String: Any])
    let action = try #require(properties["action"] as? [String: Any])
    #expect(action["enum"] as? [String] == ActionRow.table.map(\.name))
  }

  /// The check can fail, and the generator mends: a schema with an action
  /// missing, one too many, or its list out of order is rewritten to the
  /// committed one; a schema without the list is refused.
  @Test func aStaleListIsRewrittenAndAMissingOneRefused() throws {
    let text = try Self.committed()
    let home = "        \"home\",\n"
    #expect(text.contains(home))
    let missing = text.replacingOccurrences(of: home, with: "")
    let extra = text.replacingOccurrences(of: home, with: home + "        \"rotate_twice\",\n")
    for stale in [missing, extra] {
      #expect(stale != text)
      #expect(try TraceSchema.updating(stale) == text)
    }
    let without = text.replacingOccurrences(of: "\n    \"action\": {\n", with: "\n    \"act\": {\n")
    #expect(throws: TraceSchema.MissingEnumeration.self) { try TraceSchema.updating(without) }
  }
}
