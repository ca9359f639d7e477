// The enumerations of the JSONL schema (docs/trace.schema.json) are the
// engine's own names: `generate-api-doc --schema` writes them from the
// tables (the action table, the record kinds, ...), and a test fails when the
// committed schema differs, so a new action or kind is not a hand edit there.

/// The schema's enumerated properties, from the engine's tables.
public enum TraceSchema {
  /// Each property whose values the schema enumerates, with the values in the
  /// engine's order.
  public static var enumerations: [(property: String, values: [String])] {
    var states: [String] = []
    for name in AppState.allCases.map(\.description) + SceneState.allCases.map(\.description)
    where !states.contains(name) { states.append(name) }
    return [
      ("kind", RecordKind.allCases.map(\.description)),
      ("from", states),
      ("to", states),
      ("action", DeviceAction.allCases.map(\.description)),
      ("reason", KillReason.allCases.map(\.description)),
      ("watchdog", WatchdogKind.allCases.map(\.description)),
      ("level", MemoryLevel.allCases.map(\.description)),
    ]
  }

  /// A schema's text without the enumeration of a property (top-level, in
  /// `properties`, two-space indents as the committed file has them).
  public struct MissingEnumeration: Error, CustomStringConvertible {
    public let property: String
    public var description: String { "no \"enum\" for the property \"\(property)\"" }
  }

  /// `schema` (the text of docs/trace.schema.json) with the list of each
  /// property of `enumerations` replaced by the engine's names, one a line;
  /// the rest of the text as it was.
  /// - Throws: `MissingEnumeration`.
  public static func updating(_ schema: String) throws -> String {
    var text = schema
    for (property, values) in enumerations {
      guard let start = text.firstRange(of: "\n    \"\(property)\": {\n"),
            let end = text[start.upperBound...].firstRange(of: "\n    }"),
            let open = text[start.upperBound..<end.lowerBound].firstRange(of: "\"enum\": ["),
            let close = text[open.upperBound..<end.lowerBound].firstIndex(of: "]")
      else { throw MissingEnumeration(property: property) }
      let lineStart = text[..<open.lowerBound].lastIndex(of: "\n").map { text.index(after: $0) } ?? text.startIndex
      let indent = String(text[lineStart..<open.lowerBound])
      let items = values.map { indent + "  " + quoted($0) }.joined(separator: ",\n")
      text.replaceSubrange(open.upperBound..<close, with: "\n" + items + "\n" + indent)
    }
    return text
  }

  /// A JSON string of `s`.
  static func quoted(_ s: String) -> String {
    var out = "\""
    for c in s.unicodeScalars {
      switch c {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case _ where c.value < 0x20: out += "\\u" + String(repeating: "0", count: 4 - String(c.value, radix: 16).count)
        + String(c.value, radix: 16)
      default: out.unicodeScalars.append(c)
      }
    }
    return out + "\""
  }
}
