import Foundation
import Testing
@testable import LifeSimLua

/// `lifesim stubs`: the lua-language-server definitions are made from the API
/// rows, the repository's copy is current, every public row has its
/// definition, and the file is Lua that compiles.
struct APIStubsTests {
  @Test func theCommittedCopyIsCurrent() throws {
    let committed = try String(contentsOf: repositoryRoot.appendingPathComponent("types/lifesim.lua"), encoding: .utf8)
    #expect(committed == luaLanguageServerStubs(), "types/lifesim.lua is out of date: run `lifesim stubs -o types/lifesim.lua`")
  }

  @Test func everyPublicRowHasItsDefinition() {
    let text = luaLanguageServerStubs()
    for row in API.rows where row.isPublic {
      switch row.owner {
      case .field(let kind):
        // A field of its class: the class line comes before it.
        let cls = text.range(of: "---@class lifesim.\(className(kind))\n")
        #expect(cls != nil, "no class for \(kind)")
        if let cls {
          let rest = text[cls.upperBound...]
          let block = rest.range(of: "\nlocal ").map { rest[..<$0.lowerBound] } ?? rest
          #expect(block.contains("---@field \(row.name) "), "no ---@field for \(row.qualifiedName)")
        }
      case .lifesim:
        if case .value = row.body {
          #expect(text.contains("---@field \(row.name) "), "no ---@field for \(row.qualifiedName)")
        } else {
          #expect(text.contains("function lifesim.\(row.name)("), "no definition of \(row.qualifiedName)")
        }
      case .workload:
        #expect(text.contains("function lifesim.workload.\(row.name)("), "no definition of \(row.qualifiedName)")
      case .workloadObject:
        #expect(text.contains("function Workload:\(row.name)("), "no definition of \(row.qualifiedName)")
      case .method(let kind):
        #expect(text.contains("function \(className(kind)):\(row.name)("), "no definition of \(row.qualifiedName)")
      case .prelude, .meta:
        Issue.record("\(row.qualifiedName) is not public")
      }
    }
    // Every callback and notification name is a value of its alias, so a misspelt one is flagged.
    #expect(text.contains("---| \"sceneDidEnterBackground:\"\n"))
    #expect(text.contains("---| \"UIApplicationDidEnterBackgroundNotification\"\n"))
    #expect(text.contains("---@param selector lifesim.Callback|\"*\""), "app:on's first parameter is not typed")
    #expect(text.contains("---@return lifesim.Device\nfunction lifesim.device(options) end"))
  }

  private func className(_ kind: ObjectKind) -> String {
    ["device": "Device", "app": "App", "trace": "Trace", "ctx": "Context", "scene": "Scene", "task": "Task",
     "vc": "ViewController", "view": "View", "bgtask": "BGTask"][kind.luaName]!
  }

  /// The tables of types name only rows that exist: a renamed row cannot
  /// leave its type behind.
  @Test func theTypeTablesNameRows() {
    let names = Set(API.rows.filter(\.isPublic).map(\.qualifiedName))
    for name in stubReturns.keys { #expect(names.contains(name), "stubReturns names \(name), which is no row") }
    let fieldKeys = Set(ObjectKind.allCases.flatMap { kind in API.rows(of: .field(kind)).map { stubFieldKey(kind, $0.row.name) } })
    for key in stubFieldTypes.keys { #expect(fieldKeys.contains(key), "stubFieldTypes names \(key), which is no field") }
  }

  /// The file compiles as Lua 5.4: wrapped in a function that is never
  /// called, every statement is parsed and none runs.
  @Test func theDefinitionsCompile() throws {
    let rt = try LuaRuntime(options: RuntimeOptions())
    try rt.run(source: "local _ = function()\n" + luaLanguageServerStubs() + "\nend", chunkName: "=stubs")
    // And a broken file would not: the check can fail.
    #expect(throws: LuaFailure.self) {
      try rt.run(source: "local _ = function()\n" + luaLanguageServerStubs() + "\nfunction x( end\nend", chunkName: "=stubs")
    }
  }

  /// The other words for a device's methods lead to methods that exist.
  /// An example value in a usage line is no type: expect_state takes any
  /// state, and lifesim.test without its options is an overload.
  @Test func examplesAreNotTypesAndOptionalsFirstGiveOverloads() {
    let stubs = luaLanguageServerStubs()
    #expect(!stubs.contains("---@param kind \"suspended\"") && !stubs.contains("---@param kind? \"call\""), "\(stubs)")
    let test = stubs.components(separatedBy: "function lifesim.test(")[0].components(separatedBy: "\n\n").last ?? ""
    #expect(test.contains("---@param fn function") && test.contains("---@overload fun(name: string, fn: function)"), "\(test)")
  }

  @Test func otherNamesLeadToMethods() {
    for (kind, names) in API.otherNames {
      let methods = Set(API.methodNames(kind))
      for (word, method) in names {
        #expect(methods.contains(method), "\(word) -> \(method), which is no method of \(kind.luaName)")
        #expect(!methods.contains(word), "\(word) is a method of its own")
      }
    }
  }
}
