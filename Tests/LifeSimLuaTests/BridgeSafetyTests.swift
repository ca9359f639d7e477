import Testing
import LifeSimEngine
@testable import LifeSimLua

#if canImport(Glibc)
import Glibc
#endif

/// Engineering rule 2: no script can unwind a Swift frame, whatever its
/// metamethods do. Each hazard below once longjmped through Swift; the suite
/// also runs under AddressSanitizer (CONTRIBUTING.md, "Sanitizers and fuzzing").
struct BridgeSafetyTests {
  /// A victim policy returning a table whose __index raises, inside pcall: the
  /// error is a clean policy error, and the device is not left inside
  /// dev:advance (its `defer` blocks ran).
  @Test func trappingVictimPolicyLeavesTheDeviceUsable() throws {
    let (_, out, failure) = try runScript("""
      local dev = lifesim.device{ ios = 12, memory_mb = 1000 }
      dev:policy{ choose_victim = function()
        return setmetatable({}, { __index = function() error("trap") end })
      end }
      for _, name in ipairs{ "a", "b" } do
        local app = dev:install{ bundle = name, footprint_mb = 250 }
        dev:launch(app)
        dev:advance(1)
        dev:home()
      end
      local fg = dev:install{ bundle = "fg", footprint_mb = 100 }
      fg:on("applicationDidBecomeActive:", function(ctx) ctx:allocate(400) end)
      local ok, err = pcall(function() dev:launch(fg) dev:advance(1) end)
      print(ok, tostring(err):match("choose_victim") ~= nil, tostring(err):match("trap") == nil)
      dev:advance(1)
      print("usable", dev.now)
      """)
    #expect(failure == nil, "\(failure?.report ?? "")")
    #expect(out == "false\ttrue\ttrue\nusable\t3.0\n")
  }

  /// The same trap from background_time, whose result is read as a number.
  @Test func trappingBackgroundTimePolicyIsACleanError() throws {
    let (_, out, failure) = try runScript("""
      local dev = lifesim.device{ ios = 12 }
      dev:policy{ background_time = function()
        return setmetatable({}, { __index = function() error("trap") end, __tostring = function() error("trap") end })
      end }
      local app = dev:install{ bundle = "a" }
      dev:launch(app)
      local ok, err = pcall(function() dev:home() end)
      print(ok, tostring(err):match("background_time.-got a table") ~= nil)
      dev:advance(1)
      print("usable")
      """)
    #expect(failure == nil, "\(failure?.report ?? "")")
    #expect(out == "false\ttrue\nusable\n")
  }

  /// A view-controller spec whose `on` table has a trapping __index: its own
  /// functions are found raw, and nothing else is looked up.
  @Test func trappingOnTableOfASpec() throws {
    let (_, out, failure) = try runScript("""
      local dev = lifesim.device{ ios = 17 }
      local app = dev:install{ bundle = "a", root = { class = "Root" } }
      dev:launch(app)
      local trap = { __index = function() error("trap") end }
      local loaded = 0
      app:push{ class = "X", on = setmetatable({ viewDidLoad = function() loaded = loaded + 1 end }, trap) }
      dev:advance(1)
      app:push{ class = "Y", on = setmetatable({}, trap) }
      dev:advance(1)
      local ok, err = pcall(app.push, app, { class = "Z", on = setmetatable({ nope = print }, trap) })
      print(loaded, #app.stack, ok, err:match("'nope' is not a view%-controller callback") ~= nil)
      """)
    #expect(failure == nil, "\(failure?.report ?? "")")
    #expect(out == "1\t3\tfalse\ttrue\n")
  }

  /// Option tables are read raw: a trapping __index and a lying __pairs change nothing.
  @Test func optionTablesAreReadRaw() throws {
    let (_, out, failure) = try runScript("""
      local trap = { __index = function() error("trap") end, __pairs = function() error("trap") end }
      local dev = lifesim.device(setmetatable({ ios = 12 }, trap))
      local app = dev:install(setmetatable({ bundle = "a" }, trap))
      dev:launch(app, setmetatable({}, trap))
      dev:policy(setmetatable({ watchdog = setmetatable({ launch = 30 }, trap) }, trap))
      print(dev.ios, app.state, dev:policy().watchdog.launch)
      print(#dev.trace:callbacks(setmetatable({ app = app }, trap)))
      """)
    #expect(failure == nil, "\(failure?.report ?? "")")
    #expect(out == "12\tactive\t30.0\n3\n")
  }

  /// The REPL prints values whose metatables trap, and survives a failing __tostring.
  @Test func replSurvivesTrappingValues() throws {
    let rt = try LuaRuntime(options: RuntimeOptions())
    _ = rt.evaluate("x = setmetatable({}, setmetatable({}, { __index = function() error'boom' end }))")
    guard case .ok(let values, _) = rt.evaluate("x") else { Issue.record("x failed"); return }
    #expect(values == ["{}"])
    _ = rt.evaluate("y = setmetatable({ 1 }, { __tostring = function() error'boom' end })")
    guard case .ok(let shown, _) = rt.evaluate("y") else { Issue.record("y failed"); return }
    #expect(shown == ["{ 1 }"])
    guard case .failed(let f) = rt.evaluate("tostring(y)") else { Issue.record("tostring(y) did not fail"); return }
    #expect(f.message.hasSuffix("boom"))
    // A table changed by its own __tostring while the printer walks it.
    _ = rt.evaluate("""
      z = {}
      for i = 1, 20 do z[setmetatable({}, { __tostring = function() for k = 100, 140 do z["k" .. k] = k end return "k" end })] = i end
      """)
    guard case .ok(let walked, _) = rt.evaluate("z") else { Issue.record("z failed"); return }
    #expect(walked.count == 1)
    #expect(rt.completions(for: "x.", before: "").isEmpty)
    guard case .ok(let after, _) = rt.evaluate("1 + 1") else { Issue.record("the session ended"); return }
    #expect(after == ["2"])
  }

  /// Error values that are not strings still give a useful message.
  @Test func errorObjectsThatAreNotStrings() throws {
    func message(_ source: String) throws -> String {
      try runScript(source).2?.message ?? "(no error)"
    }
    #expect(try message("error({ code = 1 })") == "error object is a table: { code = 1 }")
    #expect(try message("error(setmetatable({}, { __tostring = function() error('inner') end }))")
      == "error object is a table whose __tostring failed (test:1: inner): {}")
    #expect(try message("error(setmetatable({}, { __tostring = function() return 'told' end }))")
      == "error object is a table: told")
    // A __tostring that raises an object whose __tostring raises, and so on.
    #expect(try message("""
      local function object() return setmetatable({}, { __tostring = function() error(object()) end }) end
      error(object())
      """).hasPrefix("error object is a table whose __tostring failed"))
    #expect(try message("error(true)") == "error object is a boolean: true")
  }

  /// A yield across a handler boundary says where it happened.
  @Test func yieldAcrossAHandlerSaysWhere() throws {
    let (_, _, f) = try runScript("""
      local dev = lifesim.device{ ios = 12 }
      local app = dev:install{ bundle = "a" }
      app:on("applicationDidBecomeActive:", function()
        coroutine.yield()
      end)
      coroutine.wrap(function() dev:launch(app) end)()
      """)
    #expect(f?.message.hasPrefix("test:4: attempt to yield") == true, "\(f?.message ?? "")")
    #expect(f?.handler?.callback.contains("applicationDidBecomeActive:") == true)
  }

  /// Every row, called with wrong argument types and trapping tables, as a
  /// method and through pcall: nothing crashes (a crash, or in debug builds an
  /// unbalanced stack, ends the test process), and every message names the
  /// function.
  @Test func everyRowSurvivesBadArgumentsAndNamesItself() throws {
    // Each function row as { receiver key, name, qualified name, is a method }.
    var rows: [String] = []
    var fields: [String] = []
    for row in API.rows where row.isPublic {
      switch row.owner {
      case .lifesim where row.name != "experiment" && row.name != "test":
        if case .function = row.body { rows.append("{ \"lifesim\", \"\(row.name)\", \"\(row.qualifiedName)\", false }") }
      case .workload: rows.append("{ \"workload\", \"\(row.name)\", \"\(row.qualifiedName)\", false }")
      case .workloadObject: rows.append("{ \"W\", \"\(row.name)\", \"\(row.qualifiedName)\", true }")
      case .method(let kind): rows.append("{ \"\(kind.luaName)\", \"\(row.name)\", \"\(row.qualifiedName)\", true }")
      case .field(let kind): fields.append("{ \"\(kind.luaName)\", \"\(row.name)\" }")
      default: break
      }
    }
    let (_, out, failure) = try runScript("""
      local out = print
      print = function() end  -- timers the walk schedules may print
      local trap = setmetatable({}, { __index = function() error("trap") end,
        __newindex = function() error("trap") end, __tostring = function() error("trap") end,
        __len = function() error("trap") end, __pairs = function() error("trap") end,
        __eq = function() error("trap") end, __lt = function() error("trap") end, __le = function() error("trap") end,
        __call = function() error("trap") end, __concat = function() error("trap") end })
      local argument_lists = {
        {}, { nil }, { 42 }, { "x" }, { true }, { {} }, { trap }, { trap, trap }, { "x", trap },
        { 1, trap, trap }, { 0 / 0 }, { 1 / 0 }, { -1 }, { out }, { "x", 1, out }, { trap, out },
        { "x", "y", "z" }, { 2^63 }, { { trap } },
      }
      local rows = { \(rows.joined(separator: ",\n  ")) }
      local fields = { \(fields.joined(separator: ", ")) }
      local R, calls, unnamed, walked = {}, 0, {}, {}

      local function check(qualified, name, ok, err)
        calls = calls + 1
        if ok then return end
        -- A failed expectation (lifesim.expect_eq on unequal values) is the
        -- function doing its job, not a usage error: it names the caller's line.
        if type(err) == "table" and rawget(err, "expectation") == true then return end
        -- lifesim.skip and lifesim.xfail end a case with a mark: their job too.
        if type(err) == "table" and (rawget(err, "skip") ~= nil or rawget(err, "xfail") ~= nil) then return end
        local message = type(err) == "table" and tostring(rawget(err, "message")) or tostring(err)
        if not (message:find("'" .. name .. "'", 1, true) or message:find(qualified, 1, true)) then
          unnamed[#unnamed + 1] = qualified .. ": " .. message
        end
      end

      -- Calls every row whose receiver is in `keys`, and reads every field.
      local function walk(keys)
        for _, r in ipairs(rows) do
          local receiver, name, qualified, is_method = R[r[1]], r[2], r[3], r[4]
          if keys[r[1]] and receiver ~= nil then
            local fn = receiver[name]
            walked[qualified] = true
            for _, a in ipairs(argument_lists) do
              local x, y, z = a[1], a[2], a[3]
              if is_method then
                check(qualified, name, pcall(function() return receiver[name](receiver, x, y, z) end))
                check(qualified, name, pcall(fn, receiver, x, y, z))
                check(qualified, name, pcall(fn, x, y, z))  -- a wrong self
              else
                check(qualified, name, pcall(function() return receiver[name](x, y, z) end))
                check(qualified, name, pcall(fn, x, y, z))
              end
            end
          end
        end
        for _, f in ipairs(fields) do
          if keys[f[1]] and R[f[1]] ~= nil then pcall(function() return R[f[1]][f[2]] end) end
        end
      end

      local dev = lifesim.device{ ios = 17, debugger = true, memory_mb = 2000 }
      local app = dev:install{ bundle = "a", root = { class = "Root" }, background_modes = { "audio", "fetch" } }
      R.lifesim, R.workload = lifesim, lifesim.workload
      R.W = lifesim.workload.user{ apps = { app }, switch_every = 60 }
      R.device, R.app, R.trace = dev, app, dev.trace
      dev:launch(app)
      R.vc = app.top
      R.view = app.top:add_view{ class = "V" }
      R.scene = app.scenes[1]
      walk({ lifesim = true, workload = true, W = true, device = true, app = true, trace = true,
             vc = true, view = true, scene = true })
      -- ctx and task exist only while app code runs: walk their rows there, on a
      -- device of their own (the walk above may have locked this one).
      local other = lifesim.device{ ios = 17, debugger = true }
      local worker = other:install{ bundle = "w", background_modes = { "audio" } }
      worker:on("sceneDidBecomeActive:", function(ctx)
        R.ctx, R.task = ctx, ctx:begin_background_task("t")
        walk({ ctx = true, task = true })
      end)
      other:launch(worker)
      -- A BGTaskScheduler task exists only while it runs: walk its rows in
      -- its launch handler, on a third device.
      local third = lifesim.device{ ios = 17, debugger = true }
      local fetcher = third:install{ bundle = "f", background_modes = { "fetch" }, background_tasks = { "f.r" } }
      fetcher:register_task("f.r", function(_, task)
        R.bgtask = task
        walk({ bgtask = true })
      end)
      fetcher:on("sceneDidBecomeActive:", function(ctx) ctx:submit_task{ id = "f.r", kind = "refresh", earliest = 3600 } end)
      third:launch(fetcher)
      third:run_task(fetcher, "f.r")
      out(calls)
      for _, r in ipairs(rows) do
        if not walked[r[3]] then out("not called: " .. r[3]) end
      end
      for _, u in ipairs(unnamed) do out(u) end
      """)
    #expect(failure == nil, "\(failure?.report ?? "")")
    let lines = out.split(separator: "\n")
    let calls = Int(lines.first ?? "") ?? 0
    #expect(calls > 3000, "only \(calls) calls were made")
    #expect(lines.dropFirst().isEmpty, "messages that do not name their function:\n\(lines.dropFirst().joined(separator: "\n"))")
  }
}
