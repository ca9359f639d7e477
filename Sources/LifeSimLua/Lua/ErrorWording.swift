import LifeSimEngine

// The engine's errors in a script's terms. The engine throws data
// (`.locked(.launch)`); here it becomes "dev:launch: the device is locked; call
// dev:unlock() first", with the script's `file:line:` added by the trampoline.

extension ActionRow.Target {
  /// How a script names the object an action is a method of.
  var receiver: String {
    switch self {
    case .device: return "dev:"
    case .app: return "app:"
    case .scene: return "scene:"
    case .viewController: return "vc:"
    case .view: return "view:"
    case .anyView: return ""  // vc:add_view or view:add_view: the caller names it
    }
  }
}

extension Operation {
  /// How a script writes the operation: an action's from its row.
  var luaName: String {
    switch self {
    case .action(let a):
      let row = a.row
      return row.target.receiver + row.method
    case .install: return "dev:install"
    case .loadView: return "vc:load_view"
    case .advance: return "dev:advance"
    case .run: return "dev:run"
    case .after: return "dev:after"
    case .work: return "ctx:work"
    case .appTimer: return "ctx:after"
    case .beginBackgroundTask: return "ctx:begin_background_task"
    case .playAudio: return "ctx:play_audio"
    case .allocate: return "ctx:allocate"
    case .release: return "ctx:release"
    case .markDirty: return "ctx:dirty"
    case .save: return "ctx:save"
    case .finishBackgroundLaunch: return "ctx:complete"
    case .registerTask: return "app:register_task"
    case .submitTask: return "ctx:submit_task"
    case .taskProgress: return "task:progress"
    case .lockFile: return "ctx:lock_file"
    case .unlockFile: return "ctx:unlock_file"
    case .drive, .replay: return "workload:drive"
    }
  }
}

extension Refusal {
  /// What a script does about it, where there is something to say.
  var luaHint: String? {
    switch self {
    case .noAnsweredCall: return "answer one with end_interrupt{ accept = true }"
    case .noWindowsSideBySide: return "open_scene{ beside = true } is for iPads"
    default: return nil
    }
  }
}

extension Activity {
  /// What was running, in a script's terms.
  var luaDescription: String {
    switch self {
    case .scheduled: return "a dev:at/dev:after function"
    case .clock: return "dev:advance or dev:run"
    default: return description
    }
  }
}

/// The message a script sees for an engine error (without `file:line:`).
/// `calledAs`: the function the script called, where one operation has two
/// (`ctx:submit_task` in a handler, `app:submit_task` outside any): the
/// message names the one called.
func luaMessage(for error: SimulationError, calledAs: String? = nil) -> String {
  switch error {
  case .invalidAction(.action(.addView), let why):
    return "\(why)"  // vc:add_view or view:add_view: the bridge adds the function's name
  case .invalidAction(let op, let why):
    return "\(op.luaName): \(why)" + (why.luaHint.map { "; " + $0 } ?? "")
  case .locked(let op):
    return "\(op.luaName): the device is locked; call dev:unlock() first"
  case .interruptionShowing(let op, let current):
    return "\(op.luaName): an interruption (\(current)) is already showing; call dev:end_interrupt() first"
  case .notExecuting(let op, let app, let state):
    switch op {
    case .appTimer: return "\(op.luaName): \(app) is not running"
    case .action(.push), .action(.pop), .action(.popGesture), .action(.present), .action(.dismiss),
         .action(.dismissGesture), .action(.addView), .action(.removeView), .loadView:
      return "\(op.luaName): \(app) is \(state), so none of its code runs"
    default: return "\(op.luaName): \(app) is \(state)"
    }
  case .outsideAppCode(let op):
    return "\(op.luaName): only app code can do this (call it inside a handler or an app timer, with its ctx)"
  case .noRootViewController(let op, let app):
    return "\(op.luaName): \(app) has no root view controller (give dev:install a root = { class = …, from = … })"
  case .missingBackgroundMode(let op, let app, let mode):
    return "\(op.luaName): \(app) has no '\(mode)' background mode (install it with background_modes = { \"\(mode)\" })"
  case .backgroundTaskRefused(let op, let app, let why):
    let method = { (name: String) in name.split(separator: ":").last }
    let name = calledAs.flatMap { method($0) == method(op.luaName) ? $0 : nil } ?? op.luaName
    return "\(name): \(app): \(why) (reference §3.5)"
  case .noScenes(let op, let app, let sceneless, let ios):
    let why = sceneless ? "it was installed with scenes = false" : "iOS \(ios) has no scenes"
    return "\(op.luaName): \(app) uses the app-delegate model (\(why)); multi-window needs iOS 13 or later and an app with scenes"
  case .reentrant(let op, let app, let inside):
    let on = app.map { " on \($0)" } ?? ""
    return "\(op.luaName)\(on) cannot be called inside \(inside.luaDescription); schedule it with dev:at or dev:after instead"
  case .stalled(let t, let n):
    return "\(n) events ran at t=\(t) without the clock moving: a timer or dev:after reschedules itself with no delay (--max-events-per-instant)"
  case .horizonReached(let t):
    return "the run reached its virtual-time limit at t=\(t) with events still scheduled (--max-time)"
  case .clockRange(let op, let now, let span):
    return "\(op.luaName): t=\(now) + \(span) s is past the end of the virtual clock (t=\(SimTime.clockEnd), about 146,000 years)"
  case .pastHorizon(let op, let span, let horizon):
    return "\(op.luaName): \(span) s of virtual time is more than a run may take, \(horizon) s (--max-time)"
  case .traceFull(let records, let limit):
    guard records == 0 else {
      return "the trace exceeded its memory cap of \(limit >> 20) MB (--max-trace-memory) with \(records) records; stream it (lifesim run --stream), record less, or raise the cap"
    }
    // The cap is shared: a device that keeps no record (trace = false) is
    // stopped by what the others keep, or by the names it holds.
    return "the trace exceeded its memory cap of \(limit >> 20) MB (--max-trace-memory), which counts what every device "
      + "of the run keeps for its trace (records, their text and the names of apps, scenes and views); this device's "
      + "trace has no records, so the rest is the other devices' or the names': stream the traces (lifesim run --stream), "
      + "record less, or raise the cap"
  case .replayRow(let row, let inner):
    return "workload:drive: replay row \(row): \(luaMessage(for: inner))"
  case .unsupportedVersion, .illegalTransition, .illegalSceneTransition, .inconsistent, .processKilled,
       .policyFailed, .duplicateBundle, .handlerFailed:
    return error.description
  }
}
