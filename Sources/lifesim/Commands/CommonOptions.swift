import ArgumentParser
import LifeSimEngine
import LifeSimLua

/// The options every command that runs scripts shares.
struct CommonOptions: ParsableArguments {
  @Option(help: "The run's seed: math.random and devices without a seed use it.")
  var seed: UInt64 = Defaults.seed

  @Option(name: .customLong("ios"),
          help: ArgumentHelp("The iOS version of devices that do not name one (default: \(Defaults.ios)).",
                             valueName: "version"))
  var iosOption: Int?

  /// The version devices that do not name one run.
  var ios: Int { iosOption ?? Defaults.ios }

  /// What to say when `--ios` was given and no device ran it.
  func unusedVersionWarning(_ runtime: LuaRuntime, file: String) -> String? {
    iosOption == nil ? nil : runtime.unusedVersionWarning(file: file)
  }

  @Flag(help: "Give scripts the whole Lua standard library (io, os, debug). Only for scripts you trust.")
  var unsafe = false

  @Option(help: ArgumentHelp("The memory cap of a script's Lua state, in MB.", valueName: "MB"))
  var maxMemory: Int = Defaults.maxMemory

  @Option(help: ArgumentHelp("Lua instructions a run may execute.", valueName: "N"))
  var maxInstructions: Int64 = Defaults.maxInstructions

  @Option(help: ArgumentHelp("Lua instructions one handler, observer or timer may execute.", valueName: "N"))
  var maxHandlerInstructions: Int64 = Defaults.maxHandlerInstructions

  @Option(help: ArgumentHelp("How far dev:run() or a workload:drive may take the clock, in virtual seconds.", valueName: "seconds"))
  var maxTime: Double = Defaults.maxTime

  @Option(help: ArgumentHelp("What each device's trace may keep in memory (records and their text), in MB.", valueName: "MB"))
  var maxTraceMemory: Int = Defaults.maxTraceMemory

  @Option(help: ArgumentHelp("Events that may run at one virtual instant before the run counts as stalled.",
                             valueName: "N"))
  var maxEventsPerInstant: Int = Defaults.maxEventsPerInstant

  func validate() throws {
    guard OSProfile.supportedVersions.contains(ios) else {
      throw ValidationError(SimulationError.unsupportedVersion(ios).description)
    }
    guard maxMemory > 0, maxMemory <= 1 << 20 else {
      throw ValidationError("--max-memory must be between 1 and 1048576 MB")
    }
    guard maxInstructions > 0, maxHandlerInstructions > 0 else {
      throw ValidationError("instruction limits must be positive")
    }
    guard maxTime > 0, maxTime.isFinite else { throw ValidationError("--max-time must be a positive number") }
    // The longest span the clock takes at once; past it the option would be
    // ignored in silence.
    guard let span = SimTime(seconds: maxTime) else {
      throw ValidationError("--max-time must be at most 3153600000 seconds (100 years), the longest span the virtual clock takes")
    }
    guard span > .zero else { throw ValidationError("--max-time must be at least 0.000001 seconds (a microsecond)") }
    guard maxEventsPerInstant > 0 else { throw ValidationError("--max-events-per-instant must be positive") }
    guard maxTraceMemory > 0, maxTraceMemory <= 1 << 20 else {
      throw ValidationError("--max-trace-memory must be between 1 and 1048576 MB")
    }
  }

  /// The flags' defaults, named once for the declarations above and for `arguments`.
  enum Defaults {
    static let seed: UInt64 = 1
    static let ios = 17
    static let maxMemory = 256
    static let maxInstructions: Int64 = 300_000_000
    static let maxHandlerInstructions: Int64 = 50_000_000
    static let maxTime: Double = 30 * 86_400
    static let maxEventsPerInstant = 100_000
    static let maxTraceMemory = 1024
  }

  /// These flags as a command line, leaving out the ones at their defaults:
  /// what a command that runs the same script the same way needs.
  var arguments: [String] {
    let defaults = Defaults.self
    var out: [String] = []
    if seed != defaults.seed { out += ["--seed", String(seed)] }
    if ios != defaults.ios { out += ["--ios", String(ios)] }
    if unsafe { out.append("--unsafe") }
    if maxMemory != defaults.maxMemory { out += ["--max-memory", String(maxMemory)] }
    if maxInstructions != defaults.maxInstructions { out += ["--max-instructions", String(maxInstructions)] }
    if maxHandlerInstructions != defaults.maxHandlerInstructions {
      out += ["--max-handler-instructions", String(maxHandlerInstructions)]
    }
    if maxTime != defaults.maxTime { out += ["--max-time", String(maxTime)] }
    if maxEventsPerInstant != defaults.maxEventsPerInstant {
      out += ["--max-events-per-instant", String(maxEventsPerInstant)]
    }
    if maxTraceMemory != defaults.maxTraceMemory { out += ["--max-trace-memory", String(maxTraceMemory)] }
    return out
  }

  /// The runtime options these flags describe.
  func runtimeOptions() -> RuntimeOptions {
    var o = RuntimeOptions()
    o.seed = seed
    o.ios = ios
    o.unsafe = unsafe
    o.memoryLimit = maxMemory << 20
    o.maxInstructions = maxInstructions
    o.maxHandlerInstructions = maxHandlerInstructions
    o.maxTime = maxTime
    o.maxEventsPerInstant = maxEventsPerInstant
    o.maxTraceMemory = maxTraceMemory << 20
    o.output = { writeOut($0) }
    return o
  }
}

extension TraceFormat: ExpressibleByArgument {}
extension NameStyle: ExpressibleByArgument {}

/// The exit code for a script failure.
func scriptExitCode(for failure: LuaFailure) -> ExitCode {
  failure.isExpectation ? ExitCode(1) : ExitCode(2)
}
