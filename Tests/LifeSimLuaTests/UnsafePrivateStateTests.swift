import Testing
import CLua
import CLuaShim
import LifeSimEngine
import LifeSimTestSupport
@testable import LifeSimLua

/// Under `--unsafe` the debug library is the script's, but lifesim's own
/// state is not reachable through it (the prelude's host table, the upvalue
/// of a C trampoline that says which host function it runs, the registry,
/// objects' user values), and every host function checks its arguments as
/// the public ones do.
struct UnsafePrivateStateTests {
  private func unsafe(_ source: String) throws -> (String, LuaFailure?) {
    let (_, out, f) = try runScript(source) { $0.unsafe = true }
    return (out, f)
  }

  /// Every upvalue of every function reachable from the globals: none is a
  /// table holding the host's functions; reading one of lifesim's is refused.
  @Test func noUpvalueOfAReachableFunctionIsTheHostTable() throws {
    let (out, f) = try unsafe("""
      local seen, found, refused = {}, {}, 0
      local function visit(v, depth)
        if depth > 4 or seen[v] then return end
        seen[v] = true
        if type(v) == "table" then
          if rawget(v, "source_line") ~= nil or rawget(v, "read_module") ~= nil then found[#found + 1] = "table" end
          -- (a table with keys pairs refuses is skipped)
          local ok, values = pcall(function()
            local xs = {}
            for _, x in pairs(v) do xs[#xs + 1] = x end
            return xs
          end)
          for _, x in ipairs(ok and values or {}) do
            if type(x) == "table" or type(x) == "function" then visit(x, depth + 1) end
          end
        elseif type(v) == "function" then
          for i = 1, 60 do
            local ok, name, x = pcall(debug.getupvalue, v, i)
            if not ok then
              assert(name:find("lifesim's own state", 1, true), name)
              refused = refused + 1
              break
            end
            if name == nil then break end
            if type(x) == "table" or type(x) == "function" then visit(x, depth + 1) end
          end
        end
      end
      local globals = {}
      for k, v in pairs(_G) do if type(k) == "string" then globals[k] = v end end
      visit(globals, 0)
      print(#found, refused > 0)
      """)
    #expect(f == nil, "\(f?.message ?? "")")
    #expect(out == "0\ttrue\n")
  }

  @Test(arguments: [
    "debug.getupvalue(assert, 1)",
    "debug.setupvalue(lifesim.device, 1, 1e9)",
    "debug.upvalueid(print, 1)",
    "debug.upvaluejoin(function() return x end, 1, assert, 1)",
    "debug.getregistry()",
    "debug.setuservalue(lifesim.device{}, 5, 1)",
    "debug.getuservalue(lifesim.device{}, 1)",
    "table.sort({ 2, 1 }, function() debug.setlocal(2, 1, 5) return false end)",
    "table.sort({ 2, 1 }, function() local x = debug.getlocal(2.0, 1) return false end)",
    "local d = lifesim.device{}; local a = d:install{ bundle = 'a' }; a:on('*', function() debug.setlocal(2, 1, 'x') end); d:launch(a)",
  ])
  func debugRefusesLifesimsOwnState(code: String) throws {
    let (_, f) = try unsafe(code)
    #expect(f?.message.contains("lifesim's own state") == true, "\(code): \(f?.message ?? "no error")")
    #expect(f?.message.hasPrefix("test:1:") == true, "\(code): \(f?.message ?? "no error")")
  }

  /// What stays the script's: its own functions' upvalues and locals, at the
  /// levels stock Lua counts.
  @Test func debugStillWorksOnTheScriptsOwnFunctions() throws {
    let (out, f) = try unsafe("""
      local secret = 41
      local function get() return secret end
      local name, value = debug.getupvalue(get, 1)
      debug.setupvalue(get, 1, value + 1)
      local function frame(a, b)
        local c = a + b
        return debug.getlocal(1, 3), debug.getlocal(2, 1), debug.getlocal(coroutine.running(), 1, 1)
      end
      local l1, l2, l3 = frame(1, 2)
      print(name, get(), l1, l2, l3, debug.getlocal(frame, 2))
      """)
    #expect(f == nil, "\(f?.message ?? "")")
    #expect(out == "secret\t42\tc\tsecret\ta\tb\n")
  }

  /// Every host function, called with arguments of every wrong kind, either
  /// returns or raises a Lua error: none traps (`Int(1e300)` did).
  @Test func hostFunctionsCheckTheirArguments() throws {
    var options = RuntimeOptions()
    options.output = { _ in }
    let rt = try LuaRuntime(options: options)
    let L = rt.L
    for (id, row) in API.rows(of: .prelude) {
      ls_push_function(L, id, row.name)
      lua_setglobal(L, "host_" + row.name)
    }
    let calls = API.rows(of: .prelude).map(\.row.name).flatMap { name in
      ["(\"@x.lua\", 1e300)", "(\"@x.lua\", -1e300)", "(\"@x.lua\", 0/0)", "(\"@x.lua\", 1.5)", "(1e300, 1e300)",
       "({}, {})", "()", "(\"@x.lua\", math.mininteger)"].map { "host_\(name)\($0)" }
    }
    for call in calls {
      try rt.run(source: "pcall(function() \(call) end)", chunkName: "=test")
    }
    try rt.run(source: """
      local ok, err = pcall(host_source_line, "@x.lua", 1e300)
      assert(not ok and err:find("number has no integer representation", 1, true), err)
      """, chunkName: "=test")
  }
}
