/// What was asked of a device when something went wrong, in the engine's own
/// terms. The engine knows nothing of Lua or of the command line: the bridge
/// names each operation as scripts write it (`.advance` is `dev:advance`), and
/// the CLI words the limits after its flags.
public enum Operation: Hashable, Sendable, CustomStringConvertible {
  /// A user's or system's action, or one on an app's view hierarchy or
  /// scenes: a row of the action table (`DeviceAction`).
  case action(DeviceAction)
  case install, loadView
  // The clock.
  case advance, run, after
  // What app code does while it runs.
  case work, appTimer, beginBackgroundTask, playAudio, allocate, release, markDirty, save, finishBackgroundLaunch
  // BGTaskScheduler, from app code (reference §3.5).
  case registerTask, submitTask, taskProgress
  // A lock on a shared file (reference §3.5.1).
  case lockFile, unlockFile
  // Workloads.
  case drive, replay

  /// Every operation: each action, then the others.
  public static let allCases: [Operation] = DeviceAction.allCases.map { .action($0) } + [
    .install, .loadView, .advance, .run, .after, .work, .appTimer, .beginBackgroundTask, .playAudio, .allocate,
    .release, .markDirty, .save, .finishBackgroundLaunch, .registerTask, .submitTask, .taskProgress, .lockFile, .unlockFile, .drive, .replay,
  ]

  public var description: String {
    switch self {
    case .action(let a): return a.description
    case .install: return "install"
    case .loadView: return "loadView"
    case .advance: return "advance"
    case .run: return "run"
    case .after: return "after"
    case .work: return "work"
    case .appTimer: return "appTimer"
    case .beginBackgroundTask: return "beginBackgroundTask"
    case .playAudio: return "playAudio"
    case .allocate: return "allocate"
    case .release: return "release"
    case .markDirty: return "markDirty"
    case .save: return "save"
    case .finishBackgroundLaunch: return "finishBackgroundLaunch"
    case .registerTask: return "registerTask"
    case .submitTask: return "submitTask"
    case .taskProgress: return "taskProgress"
    case .lockFile: return "lockFile"
    case .unlockFile: return "unlockFile"
    case .drive: return "drive"
    case .replay: return "replay"
    }
  }
}

/// Why the device refused an operation, with what it saw: each case is one
/// check of the engine. `description` words it in iOS terms; the bridge adds
/// how a script gets past it (`LuaErrorWording`).
public enum Refusal: Equatable, Sendable, CustomStringConvertible {
  // The device.
  case alreadyLocked, notLocked, noInterruption, noAnsweredCall
  case tooManyApps(limit: Int)
  /// The system prewarms only an app with no process.
  case processRunning(app: String, state: AppState)
  /// App Intents exist from iOS 16 (`OSProfile.hasAppIntents`).
  case noAppIntents(ios: Int)
  /// A window beside another needs a model that shows windows side by side;
  /// `model` is nil for a device made without one.
  case noWindowsSideBySide(model: String?)
  /// A window opens beside an active window of the app on screen.
  case noActiveWindowToOpenBeside(app: String)
  // Workloads.
  case noAppsToOpen
  case meanTooShort(name: String, mean: SimTime, shortest: SimTime)
  case backInTime(row: Int, time: SimTime, last: SimTime)
  case eventNeedsApp(kind: String)
  // Scenes.
  case sceneClosed(app: String, scene: Int32)
  /// The system disconnects background scenes only; `state` is nil for a closed one.
  case sceneNotReclaimable(app: String, scene: Int32, state: SceneState?)
  // The view hierarchy: the app's focus window.
  case windowNotShown(app: String)
  case exiting(app: String)
  case transitionRunning(app: String)
  case presentedOverStack(app: String)
  case onlyRoot(app: String)
  case nothingPresented(app: String)
  case notSwipeable(style: ModalStyle)
  // Shared files (§3.5.1).
  case fileAlreadyLocked(app: String, file: String)
  case fileNotLocked(app: String, file: String)
  // One object, by its class.
  case deallocated(className: String)
  case notChild(className: String)
  case alreadyRemoved(className: String)
  case removed(className: String)

  public var description: String {
    switch self {
    case .alreadyLocked: return "the device is already locked"
    case .notLocked: return "the device is not locked"
    case .noInterruption: return "no interruption is showing"
    case .noAnsweredCall: return "no answered call is in progress"
    case .tooManyApps(let limit): return "a device holds at most \(limit) apps"
    case .processRunning(let app, let state):
      return "\(app) is \(state); the system prewarms only an app with no process (reference §2.1)"
    case .noAppIntents(let ios): return "App Intents exist from iOS 16 (reference §2.13); this device runs iOS \(ios)"
    case .noWindowsSideBySide(let model):
      let what = model.map { "the \($0)" } ?? "a device without a model"
      return "a window beside another needs an iPad model, such as the iPad Pro 11 2018; \(what) shows one window at a time (reference §1.2)"
    case .noActiveWindowToOpenBeside(let app):
      return "a window beside another opens next to an active one on screen; \(app) has none"
    case .noAppsToOpen: return "the user has no apps to open"
    case .meanTooShort(let name, let mean, let shortest): return "the user's \(name) of \(mean) s is shorter than \(shortest) s"
    case .backInTime(let row, let time, let last): return "row \(row) goes back in time (\(time) after \(last))"
    case .eventNeedsApp(let kind): return "the \(kind) event needs an app"
    case .sceneClosed(let app, let scene): return "scene \(scene) of \(app) is closed (its session was discarded)"
    case .sceneNotReclaimable(let app, let scene, let state):
      return "only a background scene can be disconnected by the system (reference §1.2); scene \(scene) of \(app) is \(state.map(\.description) ?? "closed")"
    case .windowNotShown(let app): return "\(app)'s window is not on screen yet"
    case .exiting(let app):
      return "\(app) is exiting (UIApplicationExitsOnSuspend, reference §3.7): its view controllers have left the screen for good"
    case .transitionRunning(let app):
      return "a transition of \(app) is still running; UIKit would log \"Unbalanced calls to begin/end appearance transitions\". Start it from a later callback or a timer"
    case .presentedOverStack(let app): return "\(app) has a view controller presented over its navigation stack; dismiss it first"
    case .onlyRoot(let app): return "\(app)'s navigation stack holds only its root"
    case .nothingPresented(let app): return "\(app) has no view controller presented"
    case .notSwipeable(let style):
      return "only a .pageSheet or .formSheet can be swiped down; the top view controller is presented \(style.rawValue)"
    case .fileAlreadyLocked(let app, let file): return "\(app) already holds the lock on '\(file)'"
    case .fileNotLocked(let app, let file): return "\(app) holds no lock on '\(file)'"
    case .deallocated(let c): return "this \(c) was deallocated"
    case .notChild(let c): return "this \(c) is not a child view controller"
    case .alreadyRemoved(let c): return "this \(c) was already removed"
    case .removed(let c): return "this \(c) was removed"
    }
  }
}

/// What was running when an operation was refused for re-entrancy.
public enum Activity: Equatable, Sendable, CustomStringConvertible {
  /// An app's delegate method, with the app's bundle id.
  case callback(app: String, selector: String)
  /// An observer of a notification.
  case observer(app: String, notification: String)
  /// An app timer.
  case appTimer(app: String)
  /// A background task's expiration handler.
  case expiration(app: String)
  /// A BGTaskScheduler task's launch handler.
  case taskLaunch(app: String)
  /// A function the host scheduled on the device's clock.
  case scheduled
  /// The clock itself: `advance` or `run`.
  case clock
  /// A host policy, by its name (`background_time`, `choose_victim`).
  case policy(String)

  public var description: String {
    switch self {
    case .callback(let app, let selector): return "a handler (\(app) \(selector))"
    case .observer(let app, let name): return "an observer (\(app) \(name))"
    case .appTimer(let app): return "an app timer (\(app))"
    case .expiration(let app): return "an expiration handler (\(app))"
    case .taskLaunch(let app): return "a background task's launch handler (\(app))"
    case .scheduled: return "a scheduled function"
    case .clock: return "advance or run"
    case .policy(let name): return "a policy (\(name))"
    }
  }
}

/// Everything that can go wrong in the engine, with the context to explain it.
///
/// The engine throws these and never swallows one (the SimPy rule). Each case
/// carries data, not a sentence in someone else's language: the bridge words
/// them for scripts (`LuaErrorWording`), and the CLI maps them to messages and
/// exit codes in one function. `description` is the engine's own plain wording,
/// for engine tests and logs.
public enum SimulationError: Error, Equatable, CustomStringConvertible {
  /// An iOS version without a profile.
  case unsupportedVersion(Int)
  /// An operation that makes no sense in the device's current situation, and why.
  case invalidAction(Operation, Refusal)
  /// An operation that needs the device unlocked.
  case locked(Operation)
  /// An interruption is showing already.
  case interruptionShowing(Operation, Interruption)
  /// App code that needs its process executing, while it is not.
  case notExecuting(Operation, app: String, state: AppState)
  /// An operation only app code can make, made outside any.
  case outsideAppCode(Operation)
  /// A navigation or presentation on an app that declared no root view controller.
  case noRootViewController(Operation, app: String)
  /// A background event for an app without the background mode it needs.
  case missingBackgroundMode(Operation, app: String, mode: String)
  /// BGTaskScheduler refused (reference §3.5), in the words iOS uses.
  case backgroundTaskRefused(Operation, app: String, BGTaskRefusal)
  /// A multi-window operation on an app-delegate app: `sceneless` says it was
  /// installed without scenes on an OS that has them.
  case noScenes(Operation, app: String, sceneless: Bool, ios: Int)
  /// A state-machine edge that does not exist. The engine never attempts one
  /// unless a table is wrong, so this is a bug report, not a user error.
  case illegalTransition(app: String, from: AppState, event: AppEvent, at: SimTime)
  /// The same for a scene's machine.
  case illegalSceneTransition(app: String, scene: Int32, from: SceneState, event: SceneEvent, at: SimTime)
  /// Two parts of the engine disagree: a bug report, with what was seen.
  case inconsistent(String)
  /// A process was killed while its own code ran: the cascade that ran it
  /// unwinds. The engine catches it; a script never sees it.
  case processKilled(AppID)
  /// A host policy failed or returned nonsense.
  case policyFailed(policy: String, message: String)
  /// An operation made from inside running code that must not make it; `app`
  /// names the app it was made on, when it is not the running one's business.
  case reentrant(Operation, app: String? = nil, inside: Activity)
  /// Two apps with the same bundle id.
  case duplicateBundle(String)
  /// A run that reached its virtual-time horizon with events still pending.
  case horizonReached(SimTime)
  /// A time `span` after `now` lies past the end of the clock (`SimTime.clockEnd`).
  case clockRange(Operation, now: SimTime, span: SimTime)
  /// A workload's duration reaches past the horizon (how far a run may take the clock).
  case pastHorizon(Operation, span: SimTime, horizon: SimTime)
  /// The records the traces keep went past their budget (`MemoryBudget`);
  /// `records` counts this device's.
  case traceFull(records: Int, limit: Int)
  /// More events ran at one instant than the limit allows: something
  /// reschedules itself with no delay, so the clock can never move.
  case stalled(at: SimTime, events: Int)
  /// A handler, observer or timer failed; `underlying` is the host's error.
  case handlerFailed(HandlerFailure)
  /// A row of a replayed workload (counted from 1) whose action failed.
  indirect case replayRow(Int, SimulationError)

  /// True for an operation the device refused in its current situation: the
  /// caller asked for something that makes no sense now, and nothing changed
  /// but the `action` record. False for failures and bugs.
  public var isRefusal: Bool {
    switch self {
    case .invalidAction, .locked, .interruptionShowing, .notExecuting, .outsideAppCode, .noRootViewController,
         .missingBackgroundMode, .backgroundTaskRefused, .noScenes, .reentrant, .duplicateBundle, .clockRange,
         .pastHorizon:
      return true
    case .replayRow(_, let inner):
      return inner.isRefusal
    case .unsupportedVersion, .illegalTransition, .illegalSceneTransition, .inconsistent, .processKilled,
         .policyFailed, .horizonReached, .stalled, .handlerFailed, .traceFull:
      return false
    }
  }

  public var description: String {
    switch self {
    case .unsupportedVersion(let v):
      let list = OSProfile.supportedVersions.map(String.init).joined(separator: ", ")
      return "unsupported iOS version \(v) (supported: \(list))"
    case .invalidAction(let op, let why):
      return "\(op): \(why)"
    case .locked(let op):
      return "\(op): the device is locked"
    case .interruptionShowing(let op, let current):
      return "\(op): an interruption (\(current)) is already showing"
    case .notExecuting(let op, let app, let state):
      return "\(op): \(app) is \(state)"
    case .outsideAppCode(let op):
      return "\(op): only app code can do this, inside a callback or an app timer"
    case .noRootViewController(let op, let app):
      return "\(op): \(app) has no root view controller"
    case .missingBackgroundMode(let op, let app, let mode):
      return "\(op): \(app) has no '\(mode)' background mode"
    case .backgroundTaskRefused(let op, let app, let why):
      return "\(op): \(app): \(why)"
    case .noScenes(let op, let app, let sceneless, let ios):
      return "\(op): \(app) uses the app-delegate model (\(sceneless ? "installed without scenes" : "iOS \(ios) has no scenes"))"
    case .illegalTransition(let app, let from, let event, let t):
      return "internal error: \(app) has no transition from \(from) on \(event) (t=\(t))"
    case .illegalSceneTransition(let app, let scene, let from, let event, let t):
      return "internal error: scene \(scene) of \(app) has no transition from \(from) on \(event) (t=\(t))"
    case .inconsistent(let what):
      return "internal error: \(what)"
    case .processKilled(let app):
      return "the process of app #\(app.index) was killed while its code ran"
    case .policyFailed(let policy, let message):
      return "policy '\(policy)': \(message)"
    case .reentrant(let op, let app, let inside):
      return "\(op)\(app.map { " on \($0)" } ?? "") cannot run inside \(inside)"
    case .duplicateBundle(let b):
      return "an app with bundle id '\(b)' is already installed"
    case .stalled(let t, let n):
      return "\(n) events ran at t=\(t) without the clock moving: something reschedules itself with no delay"
    case .horizonReached(let t):
      return "the run reached its virtual-time limit at t=\(t) with events still scheduled"
    case .clockRange(let op, let now, let span):
      return "\(op): t=\(now) + \(span) s is past the end of the virtual clock (t=\(SimTime.clockEnd))"
    case .pastHorizon(let op, let span, let horizon):
      return "\(op): \(span) s of virtual time is more than a run may take (\(horizon) s)"
    case .traceFull(let records, let limit):
      return "the trace's \(records) records hold more than its budget of \(limit >> 20) MB"
    case .handlerFailed(let f):
      return f.description
    case .replayRow(let row, let e):
      return "replay: row \(row): \(e)"
    }
  }
}

/// Where a script function failed: the app, the callback, and the virtual time.
public struct HandlerFailure: Equatable, Sendable, CustomStringConvertible {
  /// The bundle id, when the function belonged to an app.
  public var app: String?
  /// The selector, notification, or "timer" / "dev:at" description.
  public var callback: String
  /// The virtual time of the failure.
  public var time: SimTime
  /// The host's message, with the script's `file:line:`.
  public var message: String
  /// The Lua traceback, if any.
  public var traceback: String?
  /// True when the failure is a failed expectation rather than an error.
  public var isExpectationFailure: Bool

  public init(app: String?, callback: String, time: SimTime, message: String,
              traceback: String?, isExpectationFailure: Bool) {
    self.app = app
    self.callback = callback
    self.time = time
    self.message = message
    self.traceback = traceback
    self.isExpectationFailure = isExpectationFailure
  }

  public var description: String {
    let who = app.map { "\($0) " } ?? ""
    return "error in \(who)\(callback) at t=\(time): \(message)"
  }
}
