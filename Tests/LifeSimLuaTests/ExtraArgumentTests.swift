import Testing
@testable import LifeSimLua

/// A value past the parameters a function's usage line lists is refused at
/// the script's line, in Lua's words; a trailing nil and the documented
/// optional arguments are still taken.
struct ExtraArgumentTests {
  /// The message of a script that fails, or nil.
  private func failure(_ body: String) throws -> String? {
    let (_, _, f) = try runScript("""
      local dev = lifesim.device{ ios = 17 }
      local app = dev:install{ bundle = "com.example.notes" }
      \(body)
      """)
    return f?.message
  }

  @Test func aValuePastTheOptionsTableIsRefused() throws {
    let m = try failure("dev:launch(app, { url = \"notes://1\" }, \"https://x\")")
    #expect(m?.contains(#"test:3: bad argument #3 to 'launch' (no value expected, got string; usage: dev:launch(app [, { url = "…" }]))"#) == true,
            "\(m ?? "accepted")")
  }

  @Test func anArgumentToAFunctionThatTakesNoneIsRefused() throws {
    let m = try failure("dev:launch(app)\ndev:home(app)")
    #expect(m?.contains("test:4: bad argument #1 to 'home' (no value expected, got ") == true, "\(m ?? "accepted")")
    #expect(m?.contains("usage: dev:home()") == true, "\(m ?? "accepted")")
  }

  @Test(arguments: [
    "lifesim.test(\"t\", function() end, 3)",
    "lifesim.expect_eq(1, 1, \"label\", 4)",
    "app:on(\"applicationDidBecomeActive:\", function() end, true)",
    "dev:advance(1, 2)",
    "lifesim.workload.user{ switch_every = 30 }:drive(dev, { minutes = 1 }, 5)",
  ])
  func oneValueTooManyIsRefused(call: String) throws {
    let m = try failure(call)
    #expect(m?.contains("no value expected") == true, "\(call): \(m ?? "accepted")")
  }

  @Test func documentedOptionalArgumentsAndTrailingNilsAreTaken() throws {
    let m = try failure("""
      dev:launch(app, nil)
      dev:home(nil)
      dev:launch(app, { url = "notes://1" })
      dev:interrupt("call", { style = "banner" })
      dev:end_interrupt()
      app:on("applicationDidEnterBackground:", function(ctx) ctx:dirty(2) ctx:save({ seconds = 0.1 }) ctx:save() end)
      dev:home()
      dev:advance(1, nil, nil)
      lifesim.expect_eq(1, 1, "label")
      lifesim.expect_eq(1, 1)
      """)
    #expect(m == nil, "\(m ?? "")")
  }

  /// Every function a script calls has its count read from its usage line,
  /// and these counts (self included) are the documented ones.
  @Test func everyCallHasItsParametersFromItsUsageLine() {
    var counts: [String: Int32] = [:]
    for row in API.rows where row.isPublic {
      guard case .function = row.body else { continue }
      if case .field = row.owner { continue }
      #expect(row.maxArguments != nil, "\(row.qualifiedName): its usage line \(row.usage) lists no parameters lifesim can read")
      counts[row.qualifiedName] = row.maxArguments
    }
    let expected: [String: Int32] = [
      "dev:launch": 3, "dev:home": 1, "dev:kill": 2, "dev:install": 2, "dev:interrupt": 3, "dev:end_interrupt": 2,
      "dev:mark": 1, "dev:run_intent": 3, "dev:at": 3, "dev:policy": 2, "lifesim.device": 1, "lifesim.experiment": 1,
      "lifesim.invariant": 2, "lifesim.action": 2, "lifesim.expect_eq": 3, "lifesim.replay": 1, "workload:drive": 3,
      "trace:text": 2, "ctx:begin_background_task": 3, "ctx:save": 2, "ctx:complete": 1, "app:on": 3,
      "app:present": 3, "app:open_scene": 2, "lifesim.workload.read_csv": 1,
    ]
    for (name, n) in expected { #expect(counts[name] == n, "\(name): \(counts[name].map(String.init) ?? "none"), expected \(n)") }
  }

  @Test func theUsageReaderSkipsTablesStringsAndFunctionBodies() {
    #expect(APIRow.parameterCount("f.g(a, function(x, y) return x [, m] end)", "g") == 2)
    #expect(APIRow.parameterCount("o:g(\"a, b\" | { c = 1, d = 2 })", "g") == 1)
    #expect(APIRow.parameterCount("local x = o:g()", "g") == 0)
    #expect(APIRow.parameterCount("o:g([n])", "g") == 1)
    #expect(APIRow.parameterCount("o:g{ a = 1, b = 2 }", "g") == 1)
    #expect(APIRow.parameterCount("o:h(a)", "g") == nil)
  }
}
