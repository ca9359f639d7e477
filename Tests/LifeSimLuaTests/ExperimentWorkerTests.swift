import Foundation
import Testing
import LifeSimEngine
@testable import LifeSimLua

/// `ExperimentWorker`: every run from the state after loading, and nothing of
/// a run (its devices, their ids) left for the next.
struct ExperimentWorkerTests {
  static func file(_ name: String, _ source: String) throws -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lifesim-worker-tests-\(getpid())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let path = dir.appendingPathComponent(name).path
    try source.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  static func options() -> RuntimeOptions {
    var o = RuntimeOptions()
    o.retainDevices = false
    o.output = { _ in }
    return o
  }

  static func metric(_ o: RunOutcome, _ name: String) -> Double? {
    guard case .number(let x)? = o.metrics.first(where: { $0.name == name })?.value else { return nil }
    return x
  }

  /// The devices a run made are gone once the next starts (the Lua objects
  /// went with the run's bytes; the bridge's slots go with them), and ids
  /// start where they started: devices made at load keep theirs, and their
  /// engine state goes back too.
  @Test func devicesOfARunAreGoneAndLoadedOnesComeBack() throws {
    let path = try Self.file("devices.lua", """
      local shared = lifesim.device{ ios = 17, memory_mb = 1000, trace = false }
      local app = shared:install{ bundle = "com.example.shared" }
      return lifesim.experiment{ name = "devices", seeds = 1, run = function(p, seed)
        local before = shared.stats.opens
        shared:launch(app) shared:home() shared:advance(10)
        local made = {}
        for i = 1, 3 do made[i] = lifesim.device{ ios = 17, trace = false } end
        return { before = before, after = shared.stats.opens, made = #made }
      end }
      """)
    let worker = try ExperimentWorker(experiment: path, options: Self.options())
    #expect(!worker.reloads)
    let rt = try #require(worker.runtime)
    #expect(rt.devices.count == 1)
    let firstID = rt.nextDeviceID
    for _ in 0..<20 {
      let o = worker.run(point: [], names: [], seed: 1)
      #expect(o.error == nil, "\(o.error ?? "")")
      #expect(Self.metric(o, "before") == 0 && Self.metric(o, "after") == 1, "\(o.metrics)")
      #expect(rt.devices.count == 4)
      #expect(rt.nextDeviceID == firstID + 3)
    }
    #expect(worker.isolatedRuns == 19)
    // Back at the state after loading: only the device made at load.
    rt.restoreForRun(try #require(worker.base))
    #expect(rt.devices.count == 1 && rt.nextDeviceID == firstID)
  }

  /// Without room for the snapshot arena the worker loads the file again for
  /// each run, and gives what the snapshots give.
  @Test func reloadingGivesWhatRestoringGives() throws {
    let path = try Self.file("reload.lua", """
      local calls = 0
      return lifesim.experiment{ name = "reload", seeds = 1, run = function(p, seed)
        calls = calls + 1
        local junk = {}
        for i = 1, 100 * seed do junk[i] = { i } end
        return { calls = calls, memory = collectgarbage("count") }
      end }
      """)
    let restoring = try ExperimentWorker(experiment: path, options: Self.options())
    let reloading = try ExperimentWorker(experiment: path, options: Self.options(), snapshots: false)
    #expect(!restoring.reloads && reloading.reloads)
    for seed in [1, 5, 2, 5] {
      let a = restoring.run(point: [], names: [], seed: seed), b = reloading.run(point: [], names: [], seed: seed)
      #expect(a.error == nil && a == b, "\(a) vs \(b)")
      #expect(Self.metric(a, "calls") == 1)
    }
  }
}
