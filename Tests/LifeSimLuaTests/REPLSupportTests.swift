import Testing
import LifeSimEngine
@testable import LifeSimLua

/// The bridge's side of the REPL: lua.c-style evaluation, the pretty-printer,
/// completion and :help. The terminal side is tested through the binary.
struct REPLSupportTests {
  func session(_ setup: String = """
    dev = lifesim.device{ ios = 17 }
    app = dev:install{ bundle = "com.example.notes" }
    """) throws -> LuaRuntime {
    let (rt, _, failure) = try runScript(setup)
    #expect(failure == nil, "\(failure?.report ?? "")")
    return rt
  }

  func values(_ rt: LuaRuntime, _ chunk: String) -> [String]? {
    if case .ok(let values, _) = rt.evaluate(chunk) { return values }
    return nil
  }

  @Test func expressionsFirstThenStatementsThenMoreLines() throws {
    let rt = try session()
    guard case .ok(let v, true) = rt.evaluate("1 + 41") else { Issue.record("not an expression"); return }
    #expect(v == ["42"])
    guard case .ok(let none, false) = rt.evaluate("x = 7") else { Issue.record("not a statement"); return }
    #expect(none.isEmpty)
    #expect(values(rt, "x, x * 2") == ["7", "14"])  // globals persist between chunks
    #expect({ if case .incomplete = rt.evaluate("for i = 1, 3 do") { return true }; return false }())
    #expect({ if case .incomplete = rt.evaluate("1 +") { return true }; return false }())
    #expect({ if case .incomplete = rt.evaluate("f(") { return true }; return false }())
    #expect(values(rt, "for i = 1, 3 do\n  x = x + i\nend") == [])
    #expect(values(rt, "x") == ["13"])
    guard case .failed(let syntax) = rt.evaluate("x = = 1") else { Issue.record("no syntax error"); return }
    #expect(syntax.kind == .syntax && syntax.message.hasPrefix("stdin:1:"))
    guard case .failed(let runtimeError) = rt.evaluate("nothing()") else { Issue.record("no error"); return }
    #expect(runtimeError.message.contains("attempt to call a nil value (global 'nothing')"))
    #expect(values(rt, "x") == ["13"], "the state survives an error")
  }

  @Test func eachChunkHasItsOwnInstructionBudget() throws {
    let (rt, _, _) = try runScript("", { $0.maxInstructions = 2_000_000 })
    guard case .failed(let f) = rt.evaluate("while true do end") else { Issue.record("no limit"); return }
    #expect(f.message.contains("--max-instructions"))
    #expect(values(rt, "1") == ["1"], "the next chunk starts with a full budget")
  }

  @Test func theSessionRecoversFromTheMemoryCap() throws {
    let (rt, _, _) = try runScript("", { $0.memoryLimit = 16 << 20 })
    #expect(values(rt, #"big = string.rep("x", 6 * 2^20)"#) == [])
    guard case .failed(let f) = rt.evaluate("big2 = big .. big") else { Issue.record("no memory error"); return }
    #expect(f.kind == .memory)
    #expect(f.message.hasPrefix("stdin:1: not enough memory"), "\(f.message)")
    #expect(values(rt, "#big") == ["6291456"], "the session goes on")
    // A table that grew to the cap stays in a global; the next chunks can still let it go.
    guard case .failed(let g) = rt.evaluate("t = {} for i = 1, 1e9 do t[i] = { i } end") else {
      Issue.record("no memory error"); return
    }
    #expect(g.kind == .memory)
    // (A chunk long enough to meet the count hook, which would see the cap tripped again.)
    #expect(values(rt, "n = 0 for i = 1, 5000 do n = n + i end return #t > 0") == ["true"])
    #expect(values(rt, "t = nil big = nil") == [])
    #expect(values(rt, "#string.rep('z', 1000)") == ["1000"])
    #expect(rt.memoryUsed < 16 << 20)
  }

  @Test func handlerErrorsNameTheAppAndCallback() throws {
    let rt = try session()
    _ = rt.evaluate(#"app:on("sceneDidBecomeActive:", function() error("nope") end)"#)
    guard case .failed(let f) = rt.evaluate("dev:launch(app)") else { Issue.record("no error"); return }
    #expect(f.description.contains("com.example.notes"))
    #expect(f.description.contains("sceneDidBecomeActive:"))
  }

  @Test func prettyPrintsTablesInAStableOrderWithBoundedDepth() throws {
    let rt = try session()
    #expect(values(rt, #"{ 3, 1, z = 1, a = "x\ny", [10] = true, ["not id"] = 2 }"#)
      == [#"{ 3, 1, [10] = true, a = "x\ny", ["not id"] = 2, z = 1 }"#])
    #expect(values(rt, "{ a = { b = { c = { d = 1 } } } }") == ["{ a = { b = { c = {…} } } }"])
    #expect(values(rt, "{}") == ["{}"])
    let long = values(rt, "{ first = string.rep('a', 30), second = string.rep('b', 30), third = { 1, 2, 3 } }")?.first ?? ""
    #expect(long == """
      {
        first = "\(String(repeating: "a", count: 30))",
        second = "\(String(repeating: "b", count: 30))",
        third = { 1, 2, 3 },
      }
      """)
    _ = rt.evaluate("t = { name = 't' }; t.self = t")
    #expect(values(rt, "t") == [#"{ name = "t", self = <cycle> }"#])
    #expect(values(rt, "1.5, 2^53, 10 // 3, nil, false") == ["1.5", "9.007199254741e+15", "3", "nil", "false"])
    #expect(values(rt, "print")?.first == "<function: builtin>")
    #expect(values(rt, "function f() end")?.isEmpty == true)
    #expect(values(rt, "f")?.first == "<function stdin:1>")
    #expect(values(rt, "setmetatable({}, { __tostring = function() return 'custom' end })") == ["custom"])
    let big = values(rt, "(function() local t = {} for i = 1, 80 do t[i] = i end return t end)()")?.first ?? ""
    #expect(big.contains("… (30 more)"))
  }

  @Test func lifesimObjectsDescribeThemselves() throws {
    let rt = try session()
    #expect(values(rt, "app") == ["<app com.example.notes: notRunning, 100 MB>"])
    _ = rt.evaluate("dev:launch(app) dev:home()")
    #expect(values(rt, "app") == ["<app com.example.notes: suspended, 100 MB, pid 1>"])
    #expect(values(rt, "{ app = app, n = 1 }") == ["{ app = <app com.example.notes: suspended, 100 MB, pid 1>, n = 1 }"])
    #expect(values(rt, "dev")?.first?.hasPrefix("<device iOS 17, 1 app") == true)
  }

  @Test func completesGlobalsFieldsMethodsSelectorsAndBundles() throws {
    let rt = try session()
    #expect(rt.completions(for: "dev:la", before: "") == ["dev:launch"])
    #expect(rt.completions(for: "dev:s", before: "") == ["dev:silent_push", "dev:switch_to", "dev:switcher"])
    #expect(rt.completions(for: "app.sta", before: "") == ["app.stack", "app.state"])
    #expect(rt.completions(for: "app:p", before: "x = ") == ["app:pop", "app:pop_gesture", "app:present", "app:push"])
    #expect(rt.completions(for: "dev.trace:cal", before: "") == ["dev.trace:callbacks"])
    #expect(rt.completions(for: "lifesim.work", before: "") == ["lifesim.workload"])
    #expect(rt.completions(for: "lifesim.workload.re", before: "") == ["lifesim.workload.read_csv", "lifesim.workload.replay"])
    #expect(rt.completions(for: "ap", before: "") == ["app"])
    #expect(rt.completions(for: "whi", before: "") == ["while"])
    #expect(rt.completions(for: "string.fo", before: "") == ["string.format"])
    // A completed string is closed with its quote (CompletionQuoteTests).
    #expect(rt.completions(for: "applicationDidBe", before: #"app:on(""#) == [#"applicationDidBecomeActive:""#])
    #expect(rt.completions(for: "sceneWillEnter", before: "app:on( '") == ["sceneWillEnterForeground:'"])
    #expect(rt.completions(for: "UIApplicationDidB", before: #"app:observe(""#)
      == [#"UIApplicationDidBecomeActiveNotification""#])
    _ = rt.evaluate(#"dev:install{ bundle = "com.example.mail" }"#)
    #expect(rt.completions(for: "com.ex", before: #"dev:app(""#) == [#"com.example.mail""#, #"com.example.notes""#])
    #expect(rt.completions(for: "nothing.x", before: "").isEmpty)
    #expect(rt.completions(for: "app.nope.x", before: "").isEmpty)
  }

  @Test func completionRunsNoScriptCode() throws {
    let rt = try session()
    _ = rt.evaluate("""
      calls = 0
      proxy = setmetatable({}, { __index = function(t, k) calls = calls + 1 return {} end })
      """)
    _ = rt.completions(for: "proxy.anything.x", before: "")
    _ = rt.completions(for: "proxy:x", before: "")
    #expect(values(rt, "calls") == ["0"])
  }

  @Test func everyRowHasHelp() throws {
    // :help reads the rows the bridge registers, so each needs its usage and summary.
    for row in API.rows where row.isPublic {
      #expect(!row.summary.isEmpty, "no summary for \(row.qualifiedName)")
      #expect(row.usage.contains(row.name), "the usage of \(row.qualifiedName) does not show its name")
      #expect(apiDocs.contains { $0.name == row.qualifiedName })
    }
    #expect(apiHelp("dev.now")?.contains("The virtual time") == true)
    #expect(apiHelp("dev:launch")?.contains("dev:launch(app") == true)
    #expect(apiHelp("launch")?.contains("Taps the app's icon") == true)
    #expect(apiHelp("ctx")?.contains("ctx:work(seconds)") == true)
    #expect(apiHelp("app")?.contains("fields: bundle, state") == true)
    #expect(apiHelp("lifesim.device")?.contains("OS profile") == true)
    #expect(apiHelp("nothing") == nil)
    #expect(apiHelpMiss("lauch").contains("did you mean"))
  }
}
