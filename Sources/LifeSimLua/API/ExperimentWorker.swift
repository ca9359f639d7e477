import CLua
import CLuaShim
import LifeSimEngine
import LifeSimPlatform

/// Runs the runs of an experiment, each from the same Lua state: the one the
/// experiment file left when it was loaded. What a run does to globals,
/// upvalues, library tables or the collector goes with it, so a run's result
/// depends only on the script, its parameters and its seed, whatever other
/// runs the same worker made before (`lifesim batch`'s `--jobs`, order and
/// shards).
///
/// The state after loading is saved once (`saveState`, in the arena that
/// `RuntimeOptions.snapshots` gives the state) and put back before each run.
/// When the arena cannot be mapped (an address-space limit, `ulimit -v`),
/// the worker loads the file again in a fresh state for each run instead:
/// the same state, made rather than copied, and slower (`reloads`).
public final class ExperimentWorker {
  private let path: String
  private let options: RuntimeOptions
  @exclusivity(unchecked) private(set) var runtime: LuaRuntime?
  /// The state after loading, when the runtime keeps snapshots.
  @exclusivity(unchecked) private(set) var base: RuntimeState?
  /// Whether the last run left the state (the next one must start from the base).
  @exclusivity(unchecked) private var dirty = false
  /// The error of a run with no room to load the experiment again, made
  /// while there was room to make it.
  private let noRoomToReload: RunOutcome
  /// What must be free before a state is loaded again: Swift cannot survive
  /// a refused allocation of its own (the runtime aborts), and the state's
  /// own refusals are Lua's to report only once it exists.
  static let reloadHeadroom = 32 << 20
  /// Whether each run loads the file again (no arena for snapshots).
  public var reloads: Bool { base == nil }
  /// Seconds spent putting the state back before runs (or, when `reloads`,
  /// making it again), for `lifesim bench`. Wall-clock time never reaches a result.
  public private(set) var isolationSeconds = 0.0
  /// How many runs started from a state put back (or made again).
  public private(set) var isolatedRuns = 0
  /// Over this worker's runs: devices that ran `options.ios`, and the other
  /// versions devices named (what tells `batch` that its `--ios` went unused).
  public private(set) var devicesOnOptionVersion = 0
  public private(set) var ownVersions: [Int] = []

  /// Loads the experiment file.
  /// - Throws: `LuaFailure` when the file fails or returns no experiment.
  public convenience init(experiment path: String, options: RuntimeOptions) throws {
    try self.init(experiment: path, options: options, snapshots: true)
  }

  /// Without `snapshots`, the worker loads the file again for each run, as
  /// when the arena cannot be mapped (for tests).
  init(experiment path: String, options: RuntimeOptions, snapshots: Bool) throws {
    self.path = path
    noRoomToReload = RunOutcome(
      error: "\(path): no room to load the experiment again for this run: \(Self.reloadHeadroom >> 20) MB "
        + "could not be allocated (is the address space limited, ulimit -v?)")
    var snapshotting = options
    snapshotting.snapshots = true
    self.options = options
    let made: LuaRuntime
    do {
      // Under --unsafe, io and os hold C resources (an open FILE*) that the
      // Lua state's bytes do not own: putting them back would revive a
      // closed file. Each run loads the file again instead.
      guard snapshots, !options.unsafe else { throw LuaFailure(kind: .memory, message: "no snapshots") }
      made = try LuaRuntime(options: snapshotting)
    } catch let f as LuaFailure where f.kind == .memory {
      // The arena is address space the system would not give.
      runtime = try Self.load(path, options: options)
      return
    }
    try Self.prepare(made, path)
    try made.checkSavable()
    base = made.saveState()
    runtime = made
  }

  /// A runtime that has loaded the file and is ready for a run (the state
  /// every run starts from).
  private static func load(_ path: String, options: RuntimeOptions) throws -> LuaRuntime {
    let made = try LuaRuntime(options: options)
    try prepare(made, path)
    return made
  }

  private static func prepare(_ runtime: LuaRuntime, _ path: String) throws {
    _ = try runtime.loadExperiment(path, expandGrid: false)
    try runtime.pinLiveDevices()
  }

  /// The modules and data files read since the last call (the loading's,
  /// then each run's), and forgets them.
  public func takeLoadedFiles() -> [LoadedFile] { runtime?.takeLoadedFiles() ?? [] }

  /// What the loading or a run said when it tried to read one of the
  /// command's outputs (`RuntimeOptions.outputs`), or nil.
  public var readOutput: String? { runtime?.readOutput }

  /// Runs one (point, seed) from the state after loading (`runExperiment`).
  public func run(point: [ParamValue], names: [String], seed: Int) -> RunOutcome {
    if dirty {
      let start = monotonicSeconds()
      if let base, let runtime {
        runtime.restoreForRun(base)
      } else {
        // Let go of the old state before making the new one: under an
        // address-space limit there may not be room for both.
        runtime = nil
        guard let room = malloc(Self.reloadHeadroom) else { return noRoomToReload }
        free(room)
        do {
          runtime = try Self.load(path, options: options)
        } catch let f as LuaFailure {
          return RunOutcome(error: "\(path): loading the experiment again for this run failed: \(f.message)")
        } catch {
          return RunOutcome(error: "\(path): loading the experiment again for this run failed: \(error)")
        }
      }
      isolationSeconds += monotonicSeconds() - start
      isolatedRuns += 1
    }
    guard let runtime else { return RunOutcome(error: "\(path): the experiment could not be loaded for this run") }
    dirty = true
    let outcome = runtime.runExperiment(point: point, names: names, seed: seed, collecting: false)
    // The runtime's counters are Swift's, not the Lua state's: taken and
    // cleared after each run, whether the next run restores or reloads.
    devicesOnOptionVersion += runtime.devicesOnOptionVersion
    for v in runtime.ownVersions where !ownVersions.contains(v) { ownVersions.append(v) }
    runtime.devicesOnOptionVersion = 0
    runtime.ownVersions = []
    return outcome
  }
}
