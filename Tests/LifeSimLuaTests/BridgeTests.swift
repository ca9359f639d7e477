import Testing
import LifeSimEngine
@testable import LifeSimLua

struct BridgeErrorTests {
  /// DEVELOPERS rule 2: 100,000 calls into Swift with bad arguments, each a clean
  /// Lua error. Run under `swift test --sanitize=address` too.
  @Test func hundredThousandBadArgumentsRaiseCleanErrors() throws {
    let (_, out, failure) = try runScript("""
      local dev = lifesim.device{ ios = 12 }
      local app = dev:install{ bundle = "a" }
      local bad = {
        function() dev:advance("soon") end,
        function() dev:launch(42) end,
        function() dev:interrupt("meteor") end,
        function() app:on("applicationDidBecomeActiv:", print) end,
        function() app:on("applicationDidBecomeActive:", 5) end,
        function() dev.trace:records{ kind = "nope" } end,
        function() lifesim.device{ ios = 3 } end,
        function() dev:install{ bundle = "a" } end,
        function() dev.now = 5 end,
        function() dev:at(-1, print) end,
      }
      local errors = 0
      for i = 1, 100000 do
        local ok, err = pcall(bad[i % #bad + 1])
        if not ok and type(err) == "string" then errors = errors + 1 end
      end
      print(errors)
      """)
    #expect(failure == nil)
    #expect(out == "100000\n")
  }

  @Test func argumentErrorsUseLuasFormat() throws {
    let (_, _, f) = try runScript("local dev = lifesim.device{}\ndev:advance(nil)")
    #expect(f?.message == "test:2: bad argument #1 to 'advance' (number expected, got nil)")
    let (_, _, g) = try runScript("local dev = lifesim.device{}\nlocal a = dev:install{bundle='x'}\na:on('applicationDidBecomeActiv:', print)")
    #expect(g?.message.contains("did you mean 'applicationDidBecomeActive:'?") == true)
    let (_, _, h) = try runScript("local dev = lifesim.device{}\ndev:launch('com.nope')")
    #expect(h?.message.contains("no app 'com.nope' is installed") == true)
    let (_, _, u) = try runScript("local dev = lifesim.device{ iso = 12 }")
    #expect(u?.message.contains("unknown option 'iso' (did you mean 'ios'?)") == true)
  }

  @Test func aHandlerErrorNamesTheAppTheCallbackAndTheTime() throws {
    let (_, _, f) = try runScript("""
      local dev = lifesim.device{ ios = 12 }
      local app = dev:install{ bundle = "com.example.notes" }
      app:on("applicationDidEnterBackground:", function(ctx) error("disk full") end)
      dev:launch(app)
      dev:advance(12)
      dev:home()
      """)
    let h = try #require(f?.handler)
    #expect(h.app == "com.example.notes")
    #expect(h.callback.contains("applicationDidEnterBackground:"))
    #expect(h.time == .seconds(12))
    #expect(f?.message == "test:3: disk full")
    #expect(f?.traceback?.contains("stack traceback") == true)
    #expect(f?.isExpectation == false)
  }

  @Test func nonStringErrorValuesAreReported() throws {
    let (_, _, f) = try runScript("error({ code = 7 })")
    #expect(f?.message == "error object is a table: { code = 7 }")
    let (_, _, g) = try runScript("error(nil)")
    #expect(g?.message == "error object is nil")
    let (_, _, h) = try runScript("error(setmetatable({}, { __tostring = function() return 'custom' end }))")
    #expect(h?.message.contains("custom") == true)
  }

  @Test func failedExpectationsAreNotErrors() throws {
    let (_, _, f) = try runScript("assert(1 == 2, 'one is not two')")
    #expect(f?.isExpectation == true)
    #expect(f?.message == "test:1: one is not two")
    let (_, _, g) = try runScript("""
      lifesim.expect_callbacks({ "a", "b", "c" }, { "a", "x", "c" })
      """)
    #expect(g?.isExpectation == true)
    #expect(g?.message.contains("~ x") == true)
  }

  @Test func reentrantActionsInsideHandlersAreRefused() throws {
    let (_, _, f) = try runScript("""
      local dev = lifesim.device{ ios = 12 }
      local app = dev:install{ bundle = "a" }
      app:on("applicationDidBecomeActive:", function(ctx) dev:advance(1) end)
      dev:launch(app)
      """)
    #expect(f?.message.contains("dev:advance cannot be called inside a handler") == true)
  }

  @Test func limitsStopRunawayScripts() throws {
    let (_, _, loop) = try runScript("""
      local dev = lifesim.device{ ios = 12 }
      local app = dev:install{ bundle = "a" }
      app:on("applicationDidBecomeActive:", function() while true do end end)
      dev:launch(app)
      """) { $0.maxHandlerInstructions = 1_000_000 }
    #expect(loop?.message.contains("--max-handler-instructions") == true)
    #expect(loop?.handler?.app == "a")
    // A pcall inside the script cannot swallow the limit: it is sticky.
    let (_, _, sticky) = try runScript("""
      for i = 1, 100 do pcall(function() while true do end end) end
      """) { $0.maxInstructions = 2_000_000 }
    #expect(sticky?.message.contains("--max-instructions") == true)
    let (_, _, memory) = try runScript("""
      local t = {} for i = 1, 1e8 do t[i] = string.rep("x", 100) .. i end
      """) { $0.memoryLimit = 8 << 20 }
    #expect(memory?.kind == .memory)
    #expect(memory?.message.hasPrefix("test:1: not enough memory") == true, "located: \(memory?.message ?? "")")
    #expect(memory?.traceback?.contains("in main chunk") == true)
  }
}

struct BridgeConversionTests {
  @Test func handlerResultsAndContextFields() throws {
    let (_, out, f) = try runScript("""
      local dev = lifesim.device{ ios = 12 }
      local app = dev:install{ bundle = "com.example.notes", footprint_mb = 150 }
      app:on("application:didFinishLaunchingWithOptions:", function(ctx)
        print(ctx.callback, ctx.options.url, ctx.app.bundle, ctx.app.state, ctx.now)
        return false
      end)
      dev:launch(app, { url = "notes://x" })
      print(#dev.trace:records{ kind = "callback" }, app.launches, app.pid, app.footprint_mb, dev.ios)
      print(tostring(app))
      """)
    #expect(f == nil)
    #expect(out == """
      application:didFinishLaunchingWithOptions:\tnotes://x\tcom.example.notes\tinactive\t0.0
      3\t1\t1\t150.0\t12
      <app com.example.notes: active, 150 MB, pid 1>

      """)
  }

  @Test func traceRecordsCarryTheJSONLFieldNames() throws {
    let (_, out, f) = try runScript("""
      local dev = lifesim.device{ ios = 12 }
      local app = dev:install{ bundle = "a" }
      dev:launch(app)
      local m = dev:mark()
      dev:home()
      for _, r in ipairs(dev.trace:records{ since = m }) do
        print(r.seq, r.kind, r.app, r.callback, r.handled, r.from, r.to, r.action)
      end
      """)
    #expect(f == nil)
    let lines = out.split(separator: "\n")
    #expect(lines.first == "9\taction\tnil\tnil\tnil\tnil\tnil\thome")
    #expect(lines.contains("10\tcallback\ta\tapplicationWillResignActive:\tfalse\tnil\tnil\tnil"))
    #expect(lines.contains("16\tsnapshot\ta\tnil\tnil\tnil\tnil\tnil"))
  }

  @Test func observersRunAfterTheDelegateInOrder() throws {
    let (_, out, _) = try runScript("""
      local dev = lifesim.device{ ios = 17 }
      local app = dev:install{ bundle = "a" }
      app:on("sceneDidEnterBackground:", function() print("delegate") end)
      app:observe("UIApplicationDidEnterBackgroundNotification", function() print("observer 1") end)
      app:observe("UIApplicationDidEnterBackgroundNotification", function(ctx) print("observer 2", ctx.callback) end)
      app:on("*", function(ctx) if ctx.callback == "sceneDidEnterBackground:" then print("wildcard") end end)
      dev:launch(app)
      dev:home()
      """)
    #expect(out == "delegate\nwildcard\nobserver 1\nobserver 2\tUIApplicationDidEnterBackgroundNotification\n")
  }
}

struct BridgeLifetimeTests {
  @Test func devicesAreCollectedEvenWhenHandlersCaptureThem() throws {
    let (rt, out, f) = try runScript("""
      for i = 1, 200 do
        local dev = lifesim.device{ ios = 12, seed = i }
        local app = dev:install{ bundle = "a" }
        app:on("applicationDidBecomeActive:", function(ctx) return dev.now end)
        dev:launch(app)
      end
      collectgarbage("collect")
      collectgarbage("collect")
      print("done")
      """) { $0.retainDevices = false }
    #expect(f == nil && out == "done\n")
    #expect(rt.devices.count < 5, "devices leaked: \(rt.devices.count)")
  }

  /// The engine's device holds the bridge's slot as its host, and the slot
  /// holds the device: the slot must let go when the userdata is collected,
  /// or every device of a batch would stay in memory.
  @Test func collectedDevicesFreeTheEngineDevices() throws {
    final class WeakDevices: @unchecked Sendable {
      var refs: [() -> Device?] = []
    }
    let seen = WeakDevices()
    let (rt, _, f) = try runScript("""
      for i = 1, 50 do
        local dev = lifesim.device{ ios = 17, seed = i }
        local app = dev:install{ bundle = "a" }
        app:on("*", function(ctx) return dev.now end)
        dev:launch(app)
        dev:home()
      end
      collectgarbage("collect")
      collectgarbage("collect")
      """) { options in
      options.retainDevices = false
      options.traceStream = { device, _ in
        seen.refs.append { [weak device] in device }
        return nil
      }
    }
    #expect(f == nil)
    #expect(seen.refs.count == 50)
    let alive = seen.refs.filter { $0() != nil }.count
    #expect(alive < 5, "engine devices kept alive: \(alive) of 50")
    withExtendedLifetime(rt) {}
  }

  @Test func aCtxKeptPastItsHandlerGivesAClearError() throws {
    let (_, _, f) = try runScript("""
      local dev = lifesim.device{ ios = 12 }
      local app = dev:install{ bundle = "a" }
      local saved
      app:on("applicationDidBecomeActive:", function(ctx) saved = ctx end)
      dev:launch(app)
      saved:work(1)
      """)
    #expect(f?.message.contains("belongs to a handler that has returned") == true)
  }

  @Test func appTimersGetTheirOwnCtx() throws {
    let (_, out, f) = try runScript("""
      local dev = lifesim.device{ ios = 12 }
      local app = dev:install{ bundle = "a" }
      app:on("applicationDidBecomeActive:", function(ctx)
        ctx:after(5, function(t) print("timer", t.app.bundle, t.now, t.callback) end)
      end)
      dev:launch(app)
      dev:advance(10)
      """)
    #expect(f == nil)
    #expect(out == "timer\ta\t5.0\ttimer\n")
  }

  // Each app has one ctx, reused by every function of that app: it stands for
  // whatever code of the app runs now.
  @Test func aCtxStandsForItsAppsRunningCodeOnly() throws {
    let (_, out, f) = try runScript("""
      local dev = lifesim.device{ ios = 12 }
      local a = dev:install{ bundle = "a" }
      local b = dev:install{ bundle = "b" }
      local kept, first
      a:on("applicationDidBecomeActive:", function(ctx) kept = ctx; first = first or ctx end)
      a:on("applicationWillResignActive:", function(ctx)
        print(rawequal(ctx, first), kept.callback)  -- the same object, now for this callback
      end)
      b:on("applicationDidBecomeActive:", function(ctx)
        print(pcall(kept.dirty, kept, 1))  -- a's ctx while b's code runs
      end)
      dev:launch(a)
      dev:launch(b)
      """)
    #expect(f == nil)
    let lines = out.split(separator: "\n").map(String.init)
    #expect(lines.first == "true\tapplicationWillResignActive:")
    #expect(lines.count == 2 && lines[1].hasPrefix("false") && lines[1].contains("belongs to a handler that has returned"))
  }

  @Test func anObserverAddedDuringAPostWaitsForTheNextOne() throws {
    let (_, out, f) = try runScript("""
      local dev = lifesim.device{ ios = 12 }
      local app = dev:install{ bundle = "a" }
      local added = false
      app:observe("UIApplicationDidBecomeActiveNotification", function(ctx)
        print("first")
        if not added then
          added = true
          app:observe("UIApplicationDidBecomeActiveNotification", function() print("second") end)
        end
      end)
      dev:launch(app)
      dev:home()
      dev:launch(app)
      """)
    #expect(f == nil)
    #expect(out == "first\nfirst\nsecond\n")
  }

  @Test func lifesimObjectsAreLocked() throws {
    let (_, _, f) = try runScript("local dev = lifesim.device{}\nprint(getmetatable(dev))\nsetmetatable(dev, {})")
    #expect(f?.message.contains("setmetatable") == true || f?.message.contains("table expected") == true)
    let (_, out, _) = try runScript("local dev = lifesim.device{}\nprint(getmetatable(dev))")
    #expect(out == "false\n")
  }
}

struct SandboxAndDeterminismTests {
  @Test(arguments: [
    ("io.open('/etc/passwd')", "io.open is blocked"),
    ("os.execute('ls')", "os.execute is blocked"),
    ("os.time()", "os.time is blocked"),
    ("require 'os'", "require 'os' is blocked"),
    ("load(string.dump(print))", "string.dump is blocked"),
    ("setmetatable({}, { __gc = print })", "__gc finalizers are blocked"),
    ("debug.sethook()", "debug.sethook is blocked"),
    ("dofile('/etc/passwd')", "dofile is blocked"),
    ("collectgarbage('stop')", "collectgarbage('stop') is blocked"),
    ("math.randomseed()", "reads the clock"),
    ("string.format('%p', {})", "%p prints an address"),
  ])
  func blockedUsesNameWhatAndTheFlag(code: String, message: String) throws {
    let (_, _, f) = try runScript(code)
    #expect(f?.message.contains(message) == true, "\(code): \(f?.message ?? "no error")")
  }

  @Test func unsafeGivesTheWholeLibrary() throws {
    let (_, out, f) = try runScript("print(type(io.open), type(os.time()))") { $0.unsafe = true }
    #expect(f == nil && out == "function\tnumber\n")
  }

  @Test func pairsAndNextFollowAFixedOrder() throws {
    let (_, out, _) = try runScript("""
      local t = { zeta = 1, alpha = 2, [3] = "c", [1] = "a", mid = 3, [true] = "t", [2.5] = "x" }
      local keys = {}
      for k in pairs(t) do keys[#keys + 1] = tostring(k) end
      print(table.concat(keys, " "))
      local k, n = nil, 0
      repeat k = next(t, k); n = n + 1 until k == nil
      print(n - 1)
      """)
    #expect(out == "1 2.5 3 alpha mid zeta true\n7\n")
  }

  @Test func sortIsStableAndTostringHasNoAddresses() throws {
    let (_, out, _) = try runScript("""
      local items = {}
      for i = 1, 200 do items[i] = { key = i % 3, id = i } end
      table.sort(items, function(a, b) return a.key < b.key end)
      local ok = true
      for i = 2, #items do
        if items[i - 1].key == items[i].key and items[i - 1].id > items[i].id then ok = false end
      end
      print(ok, tostring({}), tostring(print), string.format("%s", {}))
      """)
    #expect(out == "true\ttable: #1\tfunction: #2\ttable: #3\n")
  }

  @Test func mathRandomIsSeededFromTheRun() throws {
    let (_, a, _) = try runScript("print(math.random(1, 1000000))") { $0.seed = 7 }
    let (_, b, _) = try runScript("print(math.random(1, 1000000))") { $0.seed = 7 }
    let (_, c, _) = try runScript("print(math.random(1, 1000000))") { $0.seed = 8 }
    #expect(a == b && a != c)
  }
}

struct BridgeSourceTests {
  /// A chunk's bytes reach Lua unchanged, also when they are not UTF-8.
  @Test func bytesThatAreNotUTF8SurviveLoading() throws {
    let out = Output()
    var options = RuntimeOptions()
    options.output = { out.text += $0 }
    let rt = try LuaRuntime(options: options)
    let source: [UInt8] = Array("print(#\"".utf8) + [0xE9, 0xFF] + Array("\")".utf8)
    try rt.run(bytes: source, chunkName: "=latin1")
    #expect(out.text == "2\n")
  }
}

struct BridgeDeviceModelTests {
  @Test func modelsByNameAndUnknownOnesListed() throws {
    let (_, out, f) = try runScript("""
      local dev = lifesim.device{ ios = 13, model = "iPhone 11" }
      print(dev.model, dev.memory_mb, dev.per_process_limit_mb)
      local plain = lifesim.device{ memory_mb = 3000 }
      print(plain.model, plain.memory_mb, plain.per_process_limit_mb)
      """)
    #expect(f == nil)
    #expect(out == "iPhone 11\t3844\t2068\nnil\t3000\t1500\n")
    let (_, _, g) = try runScript("lifesim.device{ model = 'iPhone 11 Pro' }")
    #expect(g?.message.contains("unknown device model 'iPhone 11 Pro' (did you mean 'iPhone 12 Pro'?)") == true)
    #expect(g?.message.contains("known models: iPad 1, iPad 2") == true)
  }
}
