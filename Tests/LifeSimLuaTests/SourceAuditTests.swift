import Foundation
import Testing
import LifeSimEngine

/// The Swift files under `folder`, each as (path, lines without `//` comments).
func swiftSources(under folder: String) throws -> [(path: String, lines: [Substring])] {
  let base = repositoryRoot.appendingPathComponent(folder)
  guard let walker = FileManager.default.enumerator(atPath: base.path) else { return [] }
  var out: [(String, [Substring])] = []
  for case let relative as String in walker where relative.hasSuffix(".swift") {
    let text = try String(contentsOf: base.appendingPathComponent(relative), encoding: .utf8)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> Substring in
      guard let comment = line.range(of: "//") else { return line }
      return line[..<comment.lowerBound]
    }
    out.append((folder + "/" + relative, lines))
  }
  return out.sorted { $0.0 < $1.0 }
}

/// The audit at the top of Bridge.swift, checked: Swift never calls a Lua API
/// function that can raise (run a metamethod, or longjmp for another reason).
/// Only C, in CLuaShim, raises, after Swift has returned.
struct SourceAuditTests {
  static let raising = [
    "lua_getfield(", "lua_gettable(", "lua_geti(", "lua_getglobal(", "lua_setfield(", "lua_settable(",
    "lua_seti(", "lua_setglobal(", "lua_len(", "luaL_len(", "lua_compare(", "lua_concat(", "lua_arith(",
    "luaL_tolstring(", "lua_call(", "lua_callk(", "lua_pcall(", "lua_pcallk(", "lua_error(", "luaL_error(",
    "luaL_argerror(", "luaL_typeerror(", "luaL_check", "luaL_opt", "luaL_dostring(", "luaL_dofile(",
    "lua_toclose(", "lua_closeslot(", "luaL_getsubtable(", "luaL_requiref(",
  ]

  @Test func swiftCallsNoLuaFunctionThatCanRaise() throws {
    var found: [String] = []
    for folder in ["Sources/LifeSimLua", "Sources/LifeSimREPL", "Sources/LifeSimBatch", "Sources/lifesim"] {
      for (path, lines) in try swiftSources(under: folder) {
        for (n, line) in lines.enumerated() {
          for name in Self.raising where line.contains(name) {
            found.append("\(path):\(n + 1): \(name)")
          }
        }
      }
    }
    #expect(found.isEmpty, "Lua calls that can raise, made from Swift:\n\(found.joined(separator: "\n"))")
    // The audit would pass vacuously if the folders were missing.
    #expect(try swiftSources(under: "Sources/LifeSimLua").count > 10)
  }
}

/// The project's reference keeps the numbering the code cites: every
/// "reference §N", "reference §N.M" or "reference §N.M.K" in the sources and scripts names a
/// section heading of docs/reference.md, and every callback row and
/// transition edge cites a section that exists.
struct ReferenceCitationTests {
  @Test func everyCitedSectionExists() throws {
    let reference = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/reference.md"), encoding: .utf8)
    var sections = Set<String>()
    for line in reference.split(separator: "\n") where line.hasPrefix("## ") || line.hasPrefix("### ") || line.hasPrefix("#### ") {
      let words = line.split(separator: " ")
      guard words.count > 1 else { continue }
      sections.insert(String(words[1]).trimmingCharacters(in: CharacterSet(charactersIn: ".")))
    }
    #expect(sections.contains("0") && sections.contains("5.6") && sections.contains("2.12"), "\(sections.sorted())")
    var cited = Set<String>()
    for folder in ["Sources", "Scripts"] {
      let base = repositoryRoot.appendingPathComponent(folder)
      let files = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil)!
      for case let url as URL in files where url.pathExtension == "swift" || url.pathExtension == "lua" {
        let text = try String(contentsOf: url, encoding: .utf8)
        var rest = Substring(text)
        while let r = rest.range(of: "reference §") {
          let number = rest[r.upperBound...].prefix { $0.isNumber || $0 == "." }
          let trimmed = number.hasSuffix(".") ? number.dropLast() : number
          if !trimmed.isEmpty { cited.insert(String(trimmed)) }
          rest = rest[r.upperBound...]
        }
      }
    }
    #expect(cited.count > 10)
    for c in cited.sorted() { #expect(sections.contains(c), "reference §\(c) is cited but docs/reference.md has no such section") }
    for row in Callback.rows {
      let section = row.reference.dropFirst().prefix { $0.isNumber || $0 == "." }
      #expect(sections.contains(String(section)), "\(row.selector) cites \(row.reference)")
    }
  }
}
