import CLua
import CLuaShim
import LifeSimEngine

// The engine's long loops (the clock's events, a workload's actions) run in
// Swift, where Lua's count hook never looks. At each of their checkpoints
// (`Device.checkpoint`) the runtime charges the steps to the run's
// instruction budget and stops the loop on Ctrl-C, as the hook does for Lua
// code.

extension LuaRuntime {
  /// What one step of the engine's loops costs of the run's instruction
  /// budget: about the time a hundred Lua instructions take.
  public static let instructionsPerStep: Int64 = 100

  /// Charges `steps` to the run's budget.
  /// - Throws: a `ScriptError` on Ctrl-C, or once the budget is spent; it
  ///   passes through the engine's frames (which catch only their own
  ///   errors) to the host function the script called.
  func checkpoint(steps: Int) throws {
    let S: UnsafeMutablePointer<ls_state> = ls_getstate(mainState)
    if S.pointee.tripped == LS_TRIP_INTERRUPT {
      throw ScriptError(message: "interrupted (Ctrl-C)")
    }
    guard S.pointee.run_remaining >= 0 else { return }  // unlimited
    S.pointee.run_remaining -= Int64(steps) * Self.instructionsPerStep
    if S.pointee.run_remaining < 0 {
      // Sticky as the hook's own trip: a pcall around the call cannot go on.
      if S.pointee.tripped == LS_TRIP_NONE { S.pointee.tripped = LS_TRIP_RUN }
      throw ScriptError(message:
        "instruction limit reached for the run (--max-instructions; each event the engine runs and each action of a workload counts \(Self.instructionsPerStep))")
    }
  }
}
