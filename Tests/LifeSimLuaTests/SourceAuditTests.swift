import Foundation
import Testing

/// The repository's folder, found from this file's path.
let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

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
