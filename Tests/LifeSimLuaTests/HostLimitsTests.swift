import Foundation
import Testing
import LifeSimEngine
@testable import LifeSimLua

/// What the host does and keeps for a script counts against the run's
/// limits: the engine's steps against the instruction budget, the records a
/// trace keeps against its memory cap, and every string a script hands over
/// against a length cap. Policies cannot act; read_csv stays beside the script.
struct HostLimitsTests {
  /// A drive's actions and the clock's events count 100 instructions each:
  /// a drive that would run for hours in Swift stops at the run's budget,
  /// and a pcall around it cannot go on.
  @Test func aDriveStopsAtTheRunsInstructionBudget() throws {
    let started = Date()
    let (_, out, failure) = try runScript("""
      local dev = lifesim.device{ ios = 17, trace = false }
      dev:install{ bundle = "com.example.a" }
      dev:install{ bundle = "com.example.b" }
      local ok, err = pcall(function()
        lifesim.workload.user{ switch_every = 0.1 }:drive(dev, { days = 29 })
      end)
      caught = err
      for i = 1, 1e9 do end
      """) { $0.maxInstructions = 2_000_000 }
    let f = try #require(failure)
    #expect(out.isEmpty)
    #expect(f.message.contains("instruction limit reached for the run (--max-instructions"), "\(f.message)")
    #expect(Date().timeIntervalSince(started) < 30)
  }

  /// The clock's own loop counts too: dev:run over events that call no script.
  @Test func theClocksEventsCountAgainstTheBudget() throws {
    let (_, _, failure) = try runScript("""
      local dev = lifesim.device{ ios = 17, trace = false }
      for i = 1, 1000 do dev:at(i, function() end) end
      dev:run()
      """) { $0.maxInstructions = 50_000 }
    let f = try #require(failure)
    #expect(f.message.contains("instruction limit reached for the run"), "\(f.message)")
  }

  @Test func aLockLoopStopsAtTheTracesMemoryCap() throws {
    let (rt, _, failure) = try runScript("""
      local dev = lifesim.device{ ios = 17 }
      for i = 1, 1e9 do dev:lock(); dev:unlock() end
      """) { o in
      o.maxTraceMemory = 2 << 20
      o.maxInstructions = 2_000_000  // before the fix, the loop ran to this budget
    }
    let f = try #require(failure)
    #expect(f.message.contains("test:2: dev:lock: the trace exceeded its memory cap of 2 MB (--max-trace-memory)")
              || f.message.contains("test:2: dev:unlock: the trace exceeded its memory cap of 2 MB (--max-trace-memory)"),
            "\(f.message)")
    let kept = try #require(rt.createdDevices.first).trace.bytesKept
    #expect(kept > 2 << 20 && kept < (2 << 20) + 65_536)
  }

  /// The cap is shared by the run's devices: one that keeps no record
  /// (trace = false) says so, rather than "with 0 records".
  @Test func aDeviceWithoutRecordsSaysTheCapIsShared() throws {
    let (_, _, failure) = try runScript("""
      local a = lifesim.device{ ios = 17 }
      local b = lifesim.device{ ios = 17, trace = false }
      local app = b:install{ bundle = "com.example.b" }
      pcall(function() for i = 1, 1e9 do a:log(string.rep("x", 100)) end end)
      b:launch(app)
      """) { o in o.maxTraceMemory = 1 << 20 }
    let f = try #require(failure)
    #expect(f.message.contains("test:5: dev:launch: the trace exceeded its memory cap of 1 MB (--max-trace-memory), which counts what every device"),
            "\(f.message)")
    #expect(f.message.contains("this device's trace has no records") && !f.message.contains("with 0 records"), "\(f.message)")
  }

  /// A refused `memory_mb` says the range it takes.
  @Test func memoryMBSaysItsRange() throws {
    let (_, _, failure) = try runScript("lifesim.device{ memory_mb = 1e8 }")
    let f = try #require(failure)
    #expect(f.message.contains("field 'memory_mb' must be a whole number of MB from 1 to 9999999, got 100000000"), "\(f.message)")
  }

  @Test func printAndLogCountTowardsTheTrace() throws {
    let (_, _, failure) = try runScript("""
      local dev = lifesim.device{ ios = 12 }
      local app = dev:install{ bundle = "com.example.a" }
      app:on("applicationDidBecomeActive:", function()
        for i = 1, 1e9 do print(string.rep("x", 1000)) end
      end)
      dev:launch(app)
      """) { o in
      o.maxTraceMemory = 1 << 20
      o.maxHandlerInstructions = 200_000  // before the fix, the loop ran to this budget
      o.printsToTrace = true
    }
    let f = try #require(failure)
    #expect(f.message.contains("print: the trace exceeded its memory cap of 1 MB (--max-trace-memory)"), "\(f.message)")
  }

  @Test func longStringsAreRefusedBeforeTheHostCopiesThem() throws {
    let cases: [(String, String)] = [
      (#"dev:install{ bundle = string.rep("b", 5000) }"#, "field 'bundle' is 5000 bytes long; names are at most 4096 bytes"),
      (#"dev:log(string.rep("x", 2 * 1024 * 1024))"#, "the text is 2097152 bytes long; a record's text is at most 1 MB"),
      (#"dev:launch(dev:install{ bundle = "u" }, { url = "app://" .. string.rep("x", 5000) })"#, "field 'url' is 5006 bytes long"),
      (#"dev:install{ bundle = "a\tb" }"#, "field 'bundle' must not hold control characters (a tab at byte 2)"),
      (#"dev:open_url(dev:install{ bundle = "o" }, "app://x\n")"#, "the URL must not hold control characters (a newline at byte 8)"),
    ]
    for (line, message) in cases {
      let (_, _, failure) = try runScript("local dev = lifesim.device{ ios = 17 }\n" + line)
      let f = try #require(failure, "\(line)")
      #expect(f.message.contains("test:2:") && f.message.contains(message), "\(line): \(f.message)")
    }
  }

  @Test func everyPolicyIsRefusedTheDevice() throws {
    for body in ["dev:advance(100)", "dev:launch(other)", "dev:kill(app)", "dev:home()", "dev:run()",
                 #"app:push{ class = "Detail" }"#] {
      let (_, _, failure) = try runScript("""
        local dev = lifesim.device{ ios = 17 }
        local app = dev:install{ bundle = "com.example.a", root = { class = "Root", from = "code" } }
        local other = dev:install{ bundle = "com.example.b" }
        dev:policy{ background_time = function(a) \(body); return 30 end }
        dev:launch(app)
        dev:launch(other)
        """)
      let f = try #require(failure, "\(body)")
      #expect(f.message.contains("cannot be called inside a policy (background_time)"), "\(body): \(f.message)")
      #expect(!f.message.contains("internal error"))
    }
  }

  /// read_csv resolves links: one beside the script that points elsewhere
  /// is refused, and nothing of what it points at is quoted.
  @Test func readCSVStaysInTheScriptsFolder() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lifesim-host-limits-\(getpid())")
    try? FileManager.default.removeItem(at: dir)
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let secret = dir.deletingLastPathComponent().appendingPathComponent("lifesim-secret-\(getpid()).csv")
    try "root:x:0:0:secret line\n".write(to: secret, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: secret) }
    try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("usage.csv").path,
                                               withDestinationPath: secret.path)
    try "0,com.example.a,open\n".write(to: dir.appendingPathComponent("ok.csv"), atomically: true, encoding: .utf8)
    try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("alias.csv").path,
                                               withDestinationPath: "ok.csv")
    let script = dir.appendingPathComponent("s.lua")
    try """
      print(#lifesim.workload.read_csv("ok.csv"), #lifesim.workload.read_csv("alias.csv"))
      lifesim.workload.read_csv("usage.csv")
      """.write(to: script, atomically: true, encoding: .utf8)
    let out = Output()
    var options = RuntimeOptions()
    options.output = { out.text += $0 }
    let rt = try LuaRuntime(options: options)
    let failure: LuaFailure? = {
      do { try rt.runFile(script.path); return nil } catch { return error as? LuaFailure }
    }()
    #expect(out.text == "1\t1\n", "a link inside the folder is fine")
    let f = try #require(failure)
    #expect(f.message.contains("s.lua:2:") && f.message.contains("resolves to a file outside the script's folder"), "\(f.message)")
    #expect(!f.message.contains("root:x") && !f.message.contains("secret line"), "\(f.message)")
  }
}

extension HostLimitsTests {
  /// require follows the same rule: a module that is a link out of its folder is refused unread.
  @Test func requireRefusesALinkOutOfTheFolder() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lifesim-host-require-\(getpid())")
    try? FileManager.default.removeItem(at: dir)
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let secret = dir.deletingLastPathComponent().appendingPathComponent("lifesim-secret-\(getpid()).lua")
    try "root:x:0:0:secret line\n".write(to: secret, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: secret) }
    try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("linked_module.lua").path,
                                               withDestinationPath: secret.path)
    let script = dir.appendingPathComponent("s.lua")
    try "require(\"linked_module\")\n".write(to: script, atomically: true, encoding: .utf8)
    let rt = try LuaRuntime(options: RuntimeOptions())
    let failure: LuaFailure? = {
      do { try rt.runFile(script.path); return nil } catch { return error as? LuaFailure }
    }()
    let f = try #require(failure)
    #expect(f.message.contains("module 'linked_module' not found") && f.message.contains("a link out of its folder: refused"), "\(f.message)")
    #expect(!f.message.contains("root:x") && !f.message.contains("secret line"), "\(f.message)")
  }
}

extension HostLimitsTests {
  /// A device kept after its runtime is gone runs its clock without calling
  /// back into the runtime at a checkpoint.
  @Test func aDeviceOutlivesItsRuntimesCheckpoints() throws {
    var device: Device?
    do {
      let (rt, _, failure) = try runScript("""
        local dev = lifesim.device{ ios = 17, trace = false }
        dev:install{ bundle = "com.example.a" }
        """)
      #expect(failure == nil)
      device = rt.createdDevices.first
    }
    let dev = try #require(device)
    #expect(dev.checkpoint == nil && dev.host == nil)
    let apps = dev.apps.map(\.id)
    var user = UserModel(apps: apps)
    user.switchMean = .seconds(10)
    try dev.drive(user, for: .seconds(86_400))
    #expect(dev.now == .seconds(86_400))
  }
}
