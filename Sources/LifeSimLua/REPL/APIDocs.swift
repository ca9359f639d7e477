/// One entry of the API reference that the REPL's `:help` shows.
public struct APIDoc: Sendable {
  /// The name as scripts write it: `lifesim.device`, `dev:launch`, `ctx:work`.
  public let name: String
  /// The call with its arguments.
  public let usage: String
  /// What it does, in a sentence or two.
  public let summary: String
}

/// The receivers' names in `:help`, one per kind of object, as the API reference writes them.
let receiverNames: [ObjectKind: String] = Dictionary(uniqueKeysWithValues: ObjectKind.allCases.map { ($0, $0.receiver) })

/// Every function, method, field and value of the Lua API, read from the rows
/// the bridge registers (Bridge.swift), in their order.
public let apiDocs: [APIDoc] = API.rows.filter(\.isPublic).map {
  APIDoc(name: $0.qualifiedName, usage: $0.usage, summary: $0.summary)
}

/// The `:help` text for `name`: an entry (`dev:launch`, `lifesim.device`), every
/// entry with that short name (`launch`), or a kind of object (`dev`, `app`) with
/// its methods and fields. Nil when nothing matches.
public func apiHelp(_ name: String) -> String? {
  if let doc = apiDocs.first(where: { $0.name == name }) { return render(doc) }
  if let (kind, receiver) = receiverNames.first(where: { $0.value == name || $0.key.luaName == name }).map({ ($0.key, $0.value) }) {
    var out = "\(receiver): a lifesim \(kind.luaName) object\n"
    let methods = apiDocs.filter { $0.name.hasPrefix(receiver + ":") }
    if !methods.isEmpty {
      out += "methods:\n" + methods.map { "  \($0.usage)\n      \($0.summary)" }.joined(separator: "\n") + "\n"
    }
    let fields = API.rows(of: .field(kind)).map(\.row)
    if !fields.isEmpty {
      out += "fields: " + fields.map(\.name).joined(separator: ", ") + "\n"
      let width = fields.map(\.name.count).max() ?? 0
      out += fields.map { "  \($0.name)\(String(repeating: " ", count: width - $0.name.count))  \($0.summary)" }
        .joined(separator: "\n") + "\n"
    }
    return out
  }
  if name == "lifesim" {
    return "lifesim: the API table\n" + apiDocs.filter { $0.name.hasPrefix("lifesim.") }
      .map { "  \($0.name)  \($0.summary)" }.joined(separator: "\n") + "\n"
  }
  let short = apiDocs.filter { doc in
    doc.name.split(whereSeparator: { $0 == "." || $0 == ":" }).last.map(String.init) == name
  }
  guard !short.isEmpty else { return nil }
  return short.map(render).joined(separator: "\n")
}

/// "no help for 'x'", with the nearest name when there is one.
public func apiHelpMiss(_ name: String) -> String {
  let short = apiDocs.compactMap { $0.name.split(whereSeparator: { $0 == "." || $0 == ":" }).last.map(String.init) }
  let names = apiDocs.map(\.name) + short + receiverNames.values.sorted() + ["lifesim"]
  return "no help for '\(name)'" + suggestion(for: name, in: names)
}

private func render(_ doc: APIDoc) -> String { "\(doc.usage)\n  \(doc.summary)\n" }
