import LifeSimEngine

/// What `lifesim explain` searches with.
public struct ExplainOptions: Sendable {
  public var ios = 17
  public var model: DeviceModel?
  /// Whether the app adopts scenes; nil: when the log names a scene method.
  public var scenes: Bool?
  /// The longest sequence of steps tried; nil: as long as a sequence that
  /// explains the log can be (`ExplainSearch.longest`), so that only the
  /// other bounds stop the search.
  public var depth: Int?
  /// How many other explanations of the same length to give.
  public var alternatives = ExplainSearch.listedByDefault
  /// Stop after this many distinct states; nil: `ExplainSearch.defaultMaxStates`
  /// for the log's length.
  public var maxStates: Int?
  /// The most steps in a row that account for no line of the log: what
  /// keeps the search of a log no sequence explains finite.
  public var maxUnlogged = 3
  /// Stop when what the search keeps (its states, the ways into them, the
  /// device states it will expand, the steps it read back) would hold more
  /// than this, in bytes: `--max-saved-memory`, as `lifesim explore` bounds
  /// the states it saves.
  public var maxSavedBytes = ExplainOptions.defaultMaxSavedMB << 20
  /// `--max-saved-memory` by default, in MB: explore's.
  public static let defaultMaxSavedMB = 1024
  /// The app's bundle id in the explanation and the script.
  public var bundle = "com.example.app"
  /// The documented variants (reference §8) the device has. With
  /// `exits_on_suspend_terminate_only`, the app is one with
  /// UIApplicationExitsOnSuspend: the only apps that quirk is about.
  public var quirks = QuirkSet()
  /// Whether the app may open, close and lose other windows (a scene app on
  /// a device that shows several: an iPad, or any model when none is given).
  public var windows = false
  /// Whether the app's own code may act inside a step: pass its memory
  /// limit, and be killed there, or begin a background task.
  public var appCode = false
  public init() {}

  /// The device's memory when the app may be killed for its own: the model's,
  /// or this (the per-process limit follows from it).
  public static let ownMemoryMB = 4096

  /// The memory the device is made with: none unless the app may pass its
  /// limit (a device with none has no limit).
  public var memoryMB: Int? { appCode && model == nil ? Self.ownMemoryMB : nil }

  /// How long the app's code blocks where a step has the watchdog kill it:
  /// past every watchdog's limit on this version.
  public var hang: SimTime {
    (try? OSProfile(version: ios)).map { ExplainHost.hang(Policy(profile: $0)) } ?? .seconds(3_600)
  }

  /// The app's memory limit, when it may pass it: what its code allocates to.
  public var limitMB: Int? {
    guard appCode else { return nil }
    return model?.perProcessLimitMB ?? DeviceModel.defaultLimitMB(ramMB: Self.ownMemoryMB)
  }
}

/// One step of an explanation and the log lines it accounts for.
public struct ExplainedStep: Equatable, Sendable {
  public var step: ExplainStep
  /// The indices into `ParsedLog.events` of the lines it accounts for, if any.
  public var events: Range<Int>
  /// Records of the log's kinds it made before the log's first line.
  public var beforeLog: [String]
  /// Records of the log's kinds it made after the log's last line: the log
  /// ends in the middle of this step (a log is cut anywhere, often by a crash).
  public var afterLog: [String] = []
}

/// A sequence of steps whose trace, restricted to the log's kinds, is the log.
public struct Explanation: Equatable, Sendable {
  public var steps: [ExplainedStep]
  /// The log's kinds the trace shows before the log starts.
  public var beforeLog: [String] { steps.flatMap(\.beforeLog) }
  /// The log's kinds the last step makes after the log ends.
  public var afterLog: [String] { steps.flatMap(\.afterLog) }
}

/// What stopped a search that found no explanation.
public enum ExplainStop: Equatable, Sendable {
  /// Every sequence was tried: none explains the log.
  case exhausted
  /// The search reached `--depth`.
  case depth(Int)
  /// The search reached `--max-states`.
  case maxStates(Int)
  /// What the search keeps reached `--max-saved-memory` (in MB).
  case savedMemory(Int)
  /// Every sequence with at most `--max-unlogged` steps in a row that
  /// account for no line was tried.
  case maxUnlogged(Int)
}

extension ExplainStop {
  /// The bound that stopped the search, as the flag that changes it
  /// ("--max-states 200000"); nil when no bound did.
  public var bound: String? {
    switch self {
    case .depth(let d): return "--depth \(d)"
    case .maxStates(let m): return "--max-states \(m)"
    case .savedMemory(let mb): return "--max-saved-memory \(mb) MB"
    case .exhausted, .maxUnlogged: return nil
    }
  }

  /// The flag alone ("--max-states").
  public var boundFlag: String? { bound.map { String($0.split(separator: " ")[0]) } }
}

/// The answer: explanations, shortest first, or where the log parts from the model.
public struct ExplainResult: Sendable {
  /// The first is the answer; the others are as short.
  public var explanations: [Explanation] = []
  /// Whether the app had scenes.
  public var scenes = false
  /// Whether the app ran a BGTaskScheduler refresh task (`ExplainSearch.tasks`).
  public var tasks = false
  /// Distinct states reached, and steps taken.
  public var states = 0
  public var steps = 0
  // When no explanation was found:
  public var stop: ExplainStop?
  /// How many of the log's lines some sequence explains, from the first.
  public var reached = 0
  /// A sequence that explains those lines.
  public var prefix: Explanation?
  /// What the model sends where the log goes on (the kinds of the log the
  /// trace showed at line `reached`), in the order first seen.
  public var expected: [String] = []
  /// The line's kind came there too, but never at the time the log gives.
  public var wrongTime = false
  /// No step of the search sent the line's kind at all, anywhere: the device
  /// chosen may never send it (another --ios, --model, --scenes).
  public var neverSent = false
  /// Fewer other explanations were found than asked for, and some may have
  /// been left out: the search keeps `ExplainSearch.ways` ways into a state.
  public var alternativesCut = false
  /// The search found explanations, then stopped at `--max-states` (this
  /// many) in the same step: others of the same length may be left out.
  public var alternativesCutAtStates: Int?
  /// The same, stopped at `--max-saved-memory` (this many MB).
  public var alternativesCutAtMemory: Int?
}

/// The breadth-first search from a log to the steps that produce it.
public final class ExplainSearch {
  public let log: ParsedLog
  public let options: ExplainOptions
  let device: Device
  let app: AppID
  /// The log's kind of each callback and notification, by raw value (-1: not logged).
  private var callbackSymbol: [Int]
  private var notificationSymbol: [Int]
  /// The log's kind of each view-controller class it names.
  private var screenSymbol: [String: Int] = [:]
  /// The log's kind of each Flutter state, in `Flutter.states` order (-1: not logged).
  private var flutterSymbol: [Int]
  /// Whether each of the log's kinds is the app becoming active: the line
  /// a busy step may make late (`busy(before:)`).
  private var becomesActive: [Bool]
  /// Every line of the log has a time (and there are two or more).
  let timed: Bool
  /// The app's own code acts where a step says (`ExplainStep.killedAt`, `taskAt`).
  let appCode: Bool
  /// The app runs a BGTaskScheduler refresh task (`ExplainAlphabet.runsTasks`).
  public let tasks: Bool
  /// The bounds in force: the options', or those the log's length gives.
  public let depth: Int
  public let maxStates: Int
  /// The most events pending in a state the search kept: what a step from
  /// it copies and fingerprints, so what keeps a step's cost flat however
  /// far into a long log it is.
  private(set) var mostPending = 0

  public init(log: ParsedLog, options: ExplainOptions) throws {
    self.log = log
    self.options = options
    device = Device(profile: try OSProfile(version: options.ios), seed: 1, model: options.model,
                    memoryMB: options.memoryMB, quirks: options.quirks)
    device.trapsOnViolation = false
    device.passcode = Self.passcode(log)
    let scenes = options.scenes ?? log.namesSceneMethods
    // A log that names screens is of an app with view controllers: the
    // first screen it names is its root.
    let root = log.screens.first.map { ObjectSpec(className: $0, creation: .code) }
    tasks = ExplainAlphabet.runsTasks(on: device.profile, log)
    var config = AppConfig(bundle: options.bundle, scenes: scenes,
                           exitsOnSuspend: options.quirks.contains(.exitsOnSuspendTerminateOnly),
                           backgroundModes: ExplainStep.backgroundModes, root: root)
    if tasks { config.backgroundTasks = [ExplainStep.task] }
    app = try device.install(config)
    appCode = options.appCode && device.perProcessLimitMB != nil
    if appCode || tasks {
      // The app's code: with `appCode` it runs in every callback and
      // notification, and passes its limit where a step says; with `tasks`
      // it runs the refresh task.
      device.host = ExplainHost(app: app, allocates: device.perProcessLimitMB.map(Double.init) ?? 0)
    }
    if appCode {
      device.setHandlesAll(for: app)
      for n in AppNotification.allCases { device.setObserved(n, for: app) }
    }
    if tasks {
      // Registered at every launch, submitted by an earlier process, and run
      // only by a step (`dev:run_task`): the scheduler never runs it on its own.
      device.policy.taskSchedulerFromHost = true
      try device.registerTask(app, identifier: ExplainStep.task)
      try device.submitTask(app, ExplainHost.request(at: device.now))
    }
    callbackSymbol = Callback.allCases.map { log.symbol(of: .callback($0)) ?? -1 }
    for c in Self.implemented(by: log) { device[app].implemented.insert(c) }
    notificationSymbol = AppNotification.allCases.map { log.symbol(of: .notification($0)) ?? -1 }
    for screen in log.screens { screenSymbol[screen] = log.symbol(of: .screen(screen)) }
    flutterSymbol = Flutter.states.map { state in log.symbols.firstIndex { $0.name == "AppLifecycleState." + state } ?? -1 }
    becomesActive = log.symbols.map { symbol in
      symbol.name == "AppLifecycleState.resumed" || symbol.atoms.contains {
        $0 == .callback(.didBecomeActive) || $0 == .callback(.sceneDidBecomeActive) || $0 == .notification(.didBecomeActive)
      }
    }
    timed = log.events.count > 1 && log.events.allSatisfy { $0.time != nil }
    depth = options.depth ?? Self.longest(lines: log.events.count, maxUnlogged: options.maxUnlogged)
    maxStates = options.maxStates ?? Self.defaultMaxStates(lines: log.events.count)
  }

  /// Whether the device has a passcode: when the log shows protected data
  /// locking or unlocking, which only a passcode brings (reference §0).
  public static func passcode(_ log: ParsedLog) -> Bool {
    [Callback.protectedDataWillBecomeUnavailable, .protectedDataDidBecomeAvailable].contains {
      log.symbol(of: .callback($0)) != nil || $0.info.notification.map { log.symbol(of: .notification($0)) != nil } == true
    }
  }

  /// The most steps an explanation can have: each step accounts for a line
  /// or is one of at most `maxUnlogged` in a row that do not, so no search
  /// goes deeper than this before it ends.
  public static func longest(lines: Int, maxUnlogged: Int) -> Int { (lines + 1) * (maxUnlogged + 1) }

  /// The distinct states a search may reach: 200,000, or 200 a line of a
  /// longer log (a search reaches about a hundred and twenty a line).
  public static func defaultMaxStates(lines: Int) -> Int { max(200_000, 200 * lines) }

  /// Whether the app adopts scenes on this device.
  public var scenes: Bool { device.apps[Int(app.index)].model == .scene }

  /// Whether the search gives the app other windows: a scene app, with
  /// `windows`, on a model that shows several (or none given).
  var windows: Bool { options.windows && scenes && options.model?.showsWindowsSideBySide != false }

  struct Edge {
    var parent: Int
    var step: ExplainStep
    var events: Range<Int>
    var before: [Int]
    var after: [Int] = []

    /// From the same node, a step the answer names alike (the ways of
    /// bringing the app forward are all a launch), accounting for the same
    /// lines: every explanation through one is one through the other.
    func tellsTheSame(as other: Edge) -> Bool {
      parent == other.parent && events == other.events && before == other.before && after == other.after
        && step.asTold == other.step.asTold
    }
  }

  struct Node {
    /// The device's state, by its fingerprint (`Device.hashFingerprint`).
    var device: StateDigest
    var k: Int
    var last: Int
    /// The virtual time since the last line matched, in microseconds.
    var sinceMatched: Int64
    /// Steps in a row, up to this node, that accounted for no line.
    var idle: Int
    var depth: Int
    var parents: [Edge]
    /// A way of the same length into it was dropped (past `ExplainSearch.ways`).
    var waysCut = false
  }

  /// What a step did from a device state: the state it left, how long it
  /// took, and the app's records of the log's kinds it made. The same for
  /// every state with the same fingerprint (which "behaves the same under
  /// the same actions"): a long log goes through the same few thousand
  /// device states at many of its lines, and each step from each is taken
  /// once, then read back.
  struct Transition {
    var to: StateDigest
    /// In microseconds.
    var took: Int64
    var marks: [Mark]
    /// Where the app's code acted, for a step where it does.
    var actedIn: ExplainHost.Delivered?
    /// The app's callbacks and notifications in the step.
    var deliveries = 0
  }

  /// One of a step's records that matters to the log, with its time from
  /// the step's start in microseconds.
  /// Each has the count of the app's callbacks and notifications in the
  /// step up to it (its own included): where the app's code runs.
  enum Mark: Equatable {
    /// A record of one of the log's kinds.
    case symbol(Int, Int64, Int)
    /// For a Flutter log: the state the iOS embedding reports, in `Flutter.states` order.
    case flutter(Int, Int64, Int)
    /// For a Flutter log: the process ended (the framework's state goes with it).
    case died

    /// Its count of callbacks and notifications (a death has none).
    var ord: Int? {
      switch self {
      case .symbol(_, _, let o), .flutter(_, _, let o): return o
      case .died: return nil
      }
    }
  }

  /// A step from a device state: the step's index in the alphabet, or -1
  /// and the wait.
  struct Move: Hashable {
    var from: StateDigest
    var step: Int
    var wait: Int64
    /// The app's callback or notification where it is killed for its own
    /// memory, past `watchdogCode` where its watchdog kills it, or
    /// (negative) where it begins a background task; 0: none.
    var code = 0
  }

  /// Added to a `Move`'s callback for a watchdog's kill there.
  static let watchdogCode = 1 << 20
  /// Added to a `Move`'s callback for the app's code working there (the
  /// move's `wait` is how long).
  static let busyCode = 2 << 20

  /// The device steps actually taken (the others were read back from the
  /// transitions already taken from the same device state).
  private(set) var simulated = 0

  /// The log's gap between line `i - 1` and line `i`, in microseconds, when both have times.
  func gap(_ i: Int) -> Int64? {
    guard timed, i > 0, let a = log.events[i - 1].time, let b = log.events[i].time else { return nil }
    var g = b - a
    if g < 0 && log.timesWrapDaily { g += 86_400_000_000 }
    return g >= 0 ? g : nil
  }

  /// How far from the log's gap a simulated gap may be: a second, and a tenth of the gap.
  static func tolerance(_ gap: Int64) -> Int64 { 1_000_000 + gap / 10 }

  /// The longest a launch may take from its first callback to the first
  /// become-active, whose callbacks the model delivers at one instant: the
  /// launch watchdog's limit (reference §0, "Watchdogs").
  static let launchCodeLimit: Int64 = 20_000_000

  /// What starts a launch, and what ends it, in the log's kinds: between
  /// the two the app's own launch code runs, which the model does not time.
  /// Elsewhere a gap inside a step is the user's (a pause in the switcher
  /// between resigning and leaving), so it is not taken as the app's code.
  static func launchMarks(_ log: ParsedLog) -> (starts: [Bool], ends: [Bool]) {
    func has(_ symbol: LogSymbol, _ test: (LogAtom) -> Bool) -> Bool { symbol.atoms.contains(where: test) }
    let starts = log.symbols.map { s in
      has(s) {
        switch $0 {
        case .callback(let c): return c == .willFinishLaunching || c == .didFinishLaunching || c == .sceneWillConnect
        case .notification(let n): return n == .didFinishLaunching
        case .screen: return false
        }
      }
    }
    let ends = log.symbols.map { s in
      has(s) {
        switch $0 {
        case .callback(let c): return c == .didBecomeActive || c == .sceneDidBecomeActive
        case .notification(let n): return n == .didBecomeActive
        case .screen: return false
        }
      }
    }
    return (starts, ends)
  }

  public func run() -> ExplainResult {
    var result = ExplainResult()
    result.scenes = scenes
    result.tasks = tasks
    let n = log.events.count
    let start = fingerprint()
    var nodes = [Node(device: start, k: 0, last: -1, sinceMatched: 0, idle: 0, depth: 0, parents: [])]
    var visited: [StateDigest: Int] = [:]
    visited[key(start, k: 0, last: -1, sinceMatched: 0)] = 0
    // The transitions kept: those from a device state two nodes or more
    // have (a log that goes through most of its device states once, as one
    // with many screens does, would keep them all for nothing). How many
    // nodes have each device state, and a state of each fingerprint that a
    // node not yet expanded has, or two nodes have had. The fingerprint of
    // the state the device is in.
    var transitions: [Move: Transition?] = [:]
    var nodesOf: [StateDigest: Int] = [start: 1]
    var states: [StateDigest: DeviceState] = [start: device.saveState()]
    // What all these hold, estimated as they grow, against --max-saved-memory.
    var held = Self.nodeBytes + states[start]!.approximateBytes
    var deviceAt: StateDigest? = start
    var idleCut = false
    var level = [0]
    var best = 0, bestNode = 0
    var expectedAt: [Int: [Int]] = [:]
    var lateAt: Set<Int> = []
    // Each kind of the log any step sent, anywhere.
    var sent = [Bool](repeating: false, count: log.symbols.count)
    /// Notes what the model sent where a step parted from the log at line `at`.
    func note(_ at: Int, at symbol: Int?, late: Bool) {
      guard at < n else { return }
      if late { lateAt.insert(at) }
      if let symbol, !expectedAt[at, default: []].contains(symbol) { expectedAt[at, default: []].append(symbol) }
    }
    /// How many of `out` match the log from line `k`; where the first that
    /// does not is, its kind, and whether only its time was wrong.
    /// Times are from the step's start; the last line matched was `since` before it.
    let launch = Self.launchMarks(log)
    func match(_ out: ArraySlice<(symbol: Int, time: Int64, ord: Int)>, from k: Int, since: Int64) -> (Int, Int?, Bool) {
      var prev = -since
      var i = 0
      var launching = false
      for o in out {
        let line = k + i
        guard line < n else { return (i, o.symbol, false) }
        guard o.symbol == log.events[line].symbol else { return (i, o.symbol, false) }
        if line > 0, i > 0 || k > 0, let g = gap(line) {
          let d = o.time - prev
          if launching && d == 0 {
            // Two records of one launch at one instant: between them the
            // app's launch code ran, which the model does not time.
            if g > Self.launchCodeLimit { return (i, o.symbol, true) }
          } else if abs(d - g) > Self.tolerance(g) {
            return (i, o.symbol, true)
          }
        }
        if launch.starts[o.symbol] { launching = true }
        if launch.ends[o.symbol] { launching = false }
        prev = o.time
        i += 1
      }
      return (i, nil, false)
    }
    let actions = ExplainAlphabet.actions(on: device.profile, screens: log.screens, windows: windows,
                                          notify: log.symbol(of: .callback(.userNotificationCenterWillPresent)) != nil, tasks: tasks)
    var depth = 0
    var complete: [Int] = []
    search: while complete.isEmpty {
      guard !level.isEmpty else { result.stop = idleCut ? .maxUnlogged(options.maxUnlogged) : .exhausted; break }
      guard depth < self.depth else { result.stop = .depth(self.depth); break }
      depth += 1
      var next: [Int] = []
      for index in level {
        let node = nodes[index]
        let state = states[node.device]!
        let keeps = nodesOf[node.device, default: 0] > 1
        // Expanded: a state no other node has had is not needed again.
        if !keeps, let dropped = states.removeValue(forKey: node.device) { held -= dropped.approximateBytes }
        var steps = actions
        var remaining: Int64?
        if node.k > 0, let g = gap(node.k) {
          let r = g - node.sinceMatched
          if r < -Self.tolerance(g) { continue }  // too late for the next line already
          remaining = r
        }
        if let r = remaining {
          for w in ExplainAlphabet.waits where w.microseconds < r { steps.append(.init(.advance(w))) }
          if r > 500_000 { steps.append(.init(.advance(SimTime(microseconds: r)))) }
        } else {
          for w in ExplainAlphabet.waits { steps.append(.init(.advance(w))) }
        }
        for (number, step) in steps.enumerated() {
          var move = Move(from: node.device, step: number, wait: 0)
          if number >= actions.count, case .advance(let w) = step.kind { move = Move(from: node.device, step: -1, wait: w.microseconds) }
          let taken: Transition
          if let known = transitions[move] {
            guard let known else { continue }
            taken = known
          } else {
            guard let made = take(step, from: state) else {
              if keeps { transitions[move] = .some(nil); held += Self.transitionBytes(nil) }
              deviceAt = nil
              continue
            }
            if keeps { transitions[move] = made; held += Self.transitionBytes(made) }
            deviceAt = made.to
            taken = made
          }
          result.steps += 1
          /// The log's kinds a step's records show, in order, and the last.
          func shown(_ marks: [Mark]) -> (out: [(symbol: Int, time: Int64, ord: Int)], last: Int) {
            var out: [(symbol: Int, time: Int64, ord: Int)] = []
            var last = node.last
            for mark in marks {
              switch mark {
              case .died:
                last = -1  // `last` is the framework's state; a new process has none.
              case .flutter(let to, let time, let ord):
                for state in Flutter.walk(from: last, to: to) where flutterSymbol[state] >= 0 { out.append((flutterSymbol[state], time, ord)) }
                last = to
              case .symbol(let s, let time, let ord):
                guard !(log.collapsesRepeats && s == last) else { continue }
                out.append((s, time, ord))
                last = s
              }
            }
            return (out, last)
          }
          let (out, last) = shown(taken.marks)
          defer { for o in out { sent[o.symbol] = true } }
          // The children: from the log's start (k = 0), the step's records may
          // begin the log at any of them, or all come before it; past its last
          // line they may go on (`after`): the log ends in the middle of the step.
          // With a step where the app's code acts (a kill, a task), the step and what it did.
          // A busy step's own records (the same kinds, later), when it is one.
          var children: [(k: Int, skip: Int, after: Int, acting: (Transition, ExplainStep)?,
                          records: [(symbol: Int, time: Int64, ord: Int)]?)] = []
          /// The step again, with the app killed for its own memory in its
          /// last callback or notification before `out[upTo]`: the step's
          /// records up to `out[upTo - 1]` and no more, when the kill gives them.
          func killed(before upTo: Int, by cause: ExplainStep.KillCause) -> (Transition, ExplainStep)? {
            guard appCode, upTo > 0, upTo < out.count, out[upTo].ord - 1 >= out[upTo - 1].ord else { return nil }
            let at = out[upTo].ord - 1
            let code = cause == .watchdog ? Self.watchdogCode + at : at
            guard let made = acted(Move(from: node.device, step: number, wait: 0, code: code), step.killed(at: at, in: "", by: cause))
            else { return nil }
            // Only a kill that leaves exactly the records before it is the one meant.
            guard made.marks.filter({ $0.ord != nil }) == taken.marks.filter({ ($0.ord ?? 0) > 0 && $0.ord! <= at }) else { return nil }
            return (made, step.killed(at: at, in: made.actedIn?.name ?? "", by: cause))
          }
          /// The step again, with the app's code beginning a background task
          /// in its last callback or notification, when that leaves the step's
          /// records as they were (tried where lines follow: at the end of the
          /// log a task changes nothing it shows).
          func withTask() -> (Transition, ExplainStep)? {
            let at = taken.deliveries
            guard appCode, at > 0, let made = acted(Move(from: node.device, step: number, wait: 0, code: -at),
                                                    step.beginningTask(at: at, in: "")), made.marks == taken.marks
            else { return nil }
            return (made, step.beginningTask(at: at, in: made.actedIn?.name ?? ""))
          }
          /// The step again, with the app's code working in its last callback
          /// or notification before `out[upTo]`, which the log has later than
          /// the model sends it, for the difference (reference §3.8): what the
          /// system tells the app meanwhile waits for its main thread. With its
          /// records, when they match the log from line `k` (`from`) on.
          /// Only a become-active: coming forward is one tap, which no step
          /// of the user's can split, while a pause elsewhere in a step (in
          /// the switcher, between resigning and leaving) is the user's own.
          func busy(before upTo: Int, from j: Int, line k: Int)
            -> ((Transition, ExplainStep), [(symbol: Int, time: Int64, ord: Int)], Int)? {
            guard appCode, upTo > j, upTo < out.count, becomesActive[out[upTo].symbol], out[upTo].ord - 1 >= out[upTo - 1].ord,
                  let g = gap(k + upTo - j) else { return nil }
            let span = g - (out[upTo].time - out[upTo - 1].time)
            // Becoming active is a scene update the system watches as a whole
            // (§3.1): work as long as its watchdog's limit is a kill instead.
            guard span > Self.tolerance(g), span < device.policy.watchdogSceneUpdate.microseconds else { return nil }
            let at = out[upTo].ord - 1
            let working = step.busy(at: at, in: "", for: SimTime(microseconds: span))
            guard let made = acted(Move(from: node.device, step: number, wait: span, code: Self.busyCode + at), working)
            else { return nil }
            let records = shown(made.marks).out
            guard records.map(\.symbol) == out.map(\.symbol) else { return nil }
            let (matched, _, _) = match(records[j...], from: k, since: node.sinceMatched)
            guard matched == records.count - j || k + matched == n else { return nil }
            return ((made, step.busy(at: at, in: made.actedIn?.name ?? "", for: working.busyFor)), records, matched)
          }
          func acted(_ move: Move, _ acting: ExplainStep) -> Transition? {
            if let known = transitions[move] { return known }
            let made = take(acting, from: state)
            deviceAt = made?.to
            if keeps { transitions[move] = .some(made); held += Self.transitionBytes(made) }
            return made
          }
          if node.k == 0 {
            for j in 0..<out.count {
              let (matched, at, late) = match(out[j...], from: 0, since: node.sinceMatched)
              if matched == out.count - j || matched == n {
                children.append((matched, j, out.count - j - matched, nil, nil))
                if matched > 0, matched == out.count - j, matched < n, let t = withTask() { children.append((matched, j, 0, t, nil)) }
              } else {
                note(matched, at: at, late: late)
                if matched > 0 {
                  for cause in [ExplainStep.KillCause.ownMemory, .watchdog] {
                    if let t = killed(before: j + matched, by: cause) { children.append((matched, j, 0, t, nil)) }
                  }
                  if late, let (t, records, m) = busy(before: j + matched, from: j, line: 0) {
                    children.append((m, j, records.count - j - m, t, records))
                  }
                }
              }
            }
            children.append((0, out.count, 0, nil, nil))
          } else {
            let (matched, at, late) = match(out[...], from: node.k, since: node.sinceMatched)
            if matched == out.count || node.k + matched == n {
              children.append((node.k + matched, 0, out.count - matched, nil, nil))
              if matched > 0, matched == out.count, node.k + matched < n, let t = withTask() { children.append((node.k + matched, 0, 0, t, nil)) }
            }
            else {
              note(node.k + matched, at: at, late: late)
              if matched > 0 {
                for cause in [ExplainStep.KillCause.ownMemory, .watchdog] {
                  if let t = killed(before: matched, by: cause) { children.append((node.k + matched, 0, 0, t, nil)) }
                }
                if late, let (t, records, m) = busy(before: matched, from: 0, line: node.k) {
                  children.append((node.k + m, 0, records.count - m, t, records))
                }
              }
            }
          }
          for (k, skip, after, acting, records) in children {
            let taken = acting?.0 ?? taken
            let step = acting?.1 ?? step
            let out = records ?? out
            // The records kept: those up to a kill, or all of them.
            let kept = step.killedAt == 0 ? out.count : k - node.k + skip
            let sinceMatched = k > node.k ? taken.took - out[kept - 1 - after].time : taken.took + node.sinceMatched
            let idle = k > node.k ? 0 : node.idle + 1
            if idle > options.maxUnlogged { idleCut = true; continue }
            // A kill ends the process: a Flutter framework's state goes with it.
            let last = step.killedAt == 0 ? last : log.flutterWalks ? -1 : out[kept - 1].symbol
            let digest = key(taken.to, k: k, last: last, sinceMatched: sinceMatched, cut: after > 0)
            let edge = Edge(parent: index, step: step, events: node.k..<k, before: out.prefix(skip).map(\.symbol),
                            after: out[..<kept].suffix(after).map(\.symbol))
            // A state seen before, as early and with no fewer unlogged steps
            // behind it, can do nothing more: the same length is another way
            // there (an alternative), a longer one is dropped.
            if let seen = visited[digest], idle >= nodes[seen].idle {
              if nodes[seen].depth == depth, idle == nodes[seen].idle {
                // A way the answer tells apart from none already kept (the
                // same step before, as the answer names it) is no other way.
                if nodes[seen].parents.contains(where: { $0.tellsTheSame(as: edge) }) {
                } else if nodes[seen].parents.count < Self.ways {
                  nodes[seen].parents.append(edge)
                  held += Self.edgeBytes(edge)
                } else {
                  nodes[seen].waysCut = true
                }
              }
              continue
            }
            guard nodes.count < maxStates else {
              result.stop = .maxStates(maxStates)
              break search
            }
            guard held <= options.maxSavedBytes else {
              result.stop = .savedMemory(options.maxSavedBytes >> 20)
              break search
            }
            visited[digest] = nodes.count
            if k > best { best = k; bestNode = nodes.count }
            if k == n { complete.append(nodes.count) }
            if k < n, states[taken.to] == nil {
              if deviceAt != taken.to {
                // Read back: the node needs the state itself.
                _ = take(step, from: state)
                deviceAt = taken.to
              }
              let saved = device.saveState()
              states[taken.to] = saved
              held += saved.approximateBytes
            }
            nodesOf[taken.to, default: 0] += 1
            nodes.append(Node(device: taken.to, k: k, last: last, sinceMatched: sinceMatched,
                              idle: idle, depth: depth, parents: [edge]))
            held += Self.nodeBytes + Self.edgeBytes(edge)
            if k < n { next.append(nodes.count - 1) }
          }
        }
      }
      level = next
    }
    result.states = nodes.count

    if !complete.isEmpty {
      var seen: Set<[String]> = []
      // The same for every --alternatives, so that the list for K is the
      // start of the list for a larger K: the paths come in one order, and
      // only how many are read of it depends on K.
      let limit = Self.ways * (Self.listedByDefault + 1)
      var listedAll = true
      // Of the same length, an explanation of every record of its last step
      // comes before one the log ends in the middle of.
      let cut = complete.filter { !nodes[$0].parents[0].after.isEmpty }
      for c in complete.filter({ nodes[$0].parents[0].after.isEmpty }) + cut {
        let found = paths(to: c, in: nodes, limit: limit)
        if found.count >= limit || waysCut(behind: c, in: nodes) { listedAll = false }
        for path in found {
          let e = explanation(path)
          // Ways of bringing the app forward that the log cannot tell apart
          // are one explanation, given as a launch.
          let names = e.steps.map { "\($0.step.story(bundle: options.bundle)) \($0.events) \($0.beforeLog.count)" }
          guard seen.insert(names).inserted else { continue }
          result.explanations.append(e)
          if result.explanations.count > options.alternatives { break }
        }
        if result.explanations.count > options.alternatives { break }
      }
      result.alternativesCut = !listedAll && result.explanations.count <= options.alternatives
      if case .maxStates(let m) = result.stop, result.explanations.count <= options.alternatives {
        result.alternativesCutAtStates = m
      }
      if case .savedMemory(let mb) = result.stop, result.explanations.count <= options.alternatives {
        result.alternativesCutAtMemory = mb
      }
      result.stop = nil
    } else {
      result.reached = best
      result.prefix = paths(to: bestNode, in: nodes, limit: 1).first.map(explanation)
      result.expected = expectedAt[best, default: []].map { log.symbols[$0].name }
      result.wrongTime = lateAt.contains(best)
      result.neverSent = best < n && !sent[log.events[best].symbol]
    }
    return result
  }

  // What the search's structures hold, for --max-saved-memory: each entry's
  // size and a heap block's header, rounded up as the allocator does.
  static let blockBytes = 64
  /// A node, its entries in `visited` and `nodesOf`, and its list of ways in.
  static let nodeBytes = MemoryLayout<Node>.stride + 2 * (MemoryLayout<StateDigest>.stride + 16) + blockBytes
  /// A way into a node, with the kinds it names before and after the log.
  static func edgeBytes(_ e: Edge) -> Int {
    MemoryLayout<Edge>.stride + (e.before.isEmpty ? 0 : blockBytes + 8 * e.before.count)
      + (e.after.isEmpty ? 0 : blockBytes + 8 * e.after.count)
  }
  /// A step read back (`transitions`), with its marks.
  static func transitionBytes(_ t: Transition?) -> Int {
    MemoryLayout<Move>.stride + MemoryLayout<Transition?>.stride + 16
      + (t.map { $0.marks.isEmpty ? 0 : blockBytes + $0.marks.count * MemoryLayout<Mark>.stride } ?? 0)
  }

  /// Whether the step makes sense now: ending a call is for a call, ending
  /// another overlay for that overlay (both end the same way).
  func applies(_ step: ExplainStep) -> Bool {
    switch step.kind {
    case .endCall: return device.interruption == .call
    case .endInterrupt: return device.interruption != nil && device.interruption != .call
    // Swiped away in the switcher: an app with a card there, one the user
    // opened (a prewarm or an intent run in the background shows none).
    case .kill: return device[app].hasSwitcherCard
    // Another window is one beside a session the app has: with none, it is a launch.
    case .openScene: return (1..<ExplainAlphabet.windows).contains(device[app].scenes.count)
    case .closeScene(let n): return n <= device[app].scenes.count
    case .disconnectScene(let n): return n <= device[app].scenes.count && device[app].scenes[n - 1].state == .background
    default: return true
    }
  }

  /// What tells two search states apart: the device's fingerprint, the
  /// lines matched, the last kind seen (for logs of state changes), with
  /// timestamps the time since the last line matched, and whether the log
  /// ended in the middle of the last step.
  func key(_ device: StateDigest, k: Int, last: Int, sinceMatched: Int64, cut: Bool = false) -> StateDigest {
    var h = StateHasher()
    if cut { h.append(word: -1) }  // the log ended in the middle of the last step
    h.append(word: Int64(bitPattern: device.a))
    h.append(word: Int64(bitPattern: device.b))
    h.append(word: Int64(k))
    h.append(word: Int64(log.collapsesRepeats ? last : -1))
    if timed, k > 0, k < log.events.count { h.append(word: sinceMatched) }
    return h.digest
  }

  /// The device's fingerprint now, and whether the app has a card in the
  /// switcher, which decides whether the search may kill it there
  /// (`applies`) though nothing the device does depends on it.
  func fingerprint() -> StateDigest {
    var h = StateHasher()
    device.hashFingerprint(into: &h)
    h.append(byte: device[app].hasSwitcherCard ? 1 : 0)
    return h.digest
  }

  /// Takes `step` from `state` on the device: what it did, or nil when it
  /// does not apply there or the device refuses it.
  func take(_ step: ExplainStep, from state: DeviceState) -> Transition? {
    device.restoreState(state)
    guard applies(step) else { return nil }
    let mark = device.trace.records.count
    let start = device.now
    let host = device.host as? ExplainHost
    do { try step.take(on: device, app: app) } catch { return nil }
    let acts = step.acts
    if acts && host?.actedIn == nil { return nil }  // the step delivered fewer
    simulated += 1
    // A search of a long log goes back and forth between states through
    // thousands of steps: their dead deadlines would pile up in each.
    device.dropVoidDeadlines()
    mostPending = max(mostPending, device.kernel.pendingCount)
    var marks: [Mark] = []
    let records = device.trace.records
    var ord = 0
    for i in mark..<records.count where records[i].app == app {
      let r = records[i]
      let time = (r.time - start).microseconds
      if r.kind == .callback || r.kind == .notification { ord += 1 }
      if log.flutterWalks {
        if r.kind == .state, r.scene == nil, r.to == .notRunning { marks.append(.died); continue }
        guard r.kind == .notification, let nt = r.notification, let to = Flutter.state(of: nt) else { continue }
        marks.append(.flutter(to, time, ord))
        continue
      }
      var s = -1
      if r.kind == .callback, let c = r.callback {
        s = callbackSymbol[Int(c.rawValue)]
        if c == .viewDidAppear, !screenSymbol.isEmpty, let o = r.object, !o.isView {
          s = screenSymbol[device.trace.className(of: o)] ?? -1
        }
      }
      else if r.kind == .notification, let nt = r.notification { s = notificationSymbol[Int(nt.rawValue)] }
      if s >= 0 { marks.append(.symbol(s, time, ord)) }
    }
    return Transition(to: fingerprint(), took: (device.now - start).microseconds, marks: marks,
                      actedIn: acts ? host?.actedIn : nil, deliveries: ord)
  }

  /// The ways of the same length the search keeps into a state: what bounds
  /// the alternatives it can list.
  public static let ways = 8

  /// `--alternatives` by default: the paths read for each explanation are
  /// `ways` times one more than this, whatever the option says.
  public static let listedByDefault = 3

  /// Whether a way into node `i`, or into a node on a way to it, was dropped.
  func waysCut(behind i: Int, in nodes: [Node]) -> Bool {
    var stack = [i], seen: Set<Int> = [i]
    while let j = stack.popLast() {
      if nodes[j].waysCut { return true }
      for e in nodes[j].parents where seen.insert(e.parent).inserted { stack.append(e.parent) }
    }
    return false
  }

  /// Up to `limit` paths from the start to node `i` (at least one), in the
  /// order the search found them: by the way into `i`, then by the way into
  /// its parent, and so on. Walked with a stack, not by recursion: a log of
  /// thousands of lines has paths of thousands of steps.
  func paths(to i: Int, in nodes: [Node], limit: Int) -> [[Edge]] {
    var out: [[Edge]] = []
    // The nodes from `i` back, each with the next of its ways to take; the
    // ways taken, from `i` back (one fewer than the nodes).
    var stack = [(node: i, next: 0)]
    var taken: [Edge] = []
    while let top = stack.last {
      let (node, next) = (top.node, top.next)
      let parents = nodes[node].parents
      if parents.isEmpty {
        out.append(taken.reversed())
        if out.count >= limit { break }
      } else if next < parents.count {
        stack[stack.count - 1].next += 1
        taken.append(parents[next])
        stack.append((parents[next].parent, 0))
        continue
      }
      stack.removeLast()
      if !stack.isEmpty { taken.removeLast() }
    }
    return out
  }

  func explanation(_ path: [Edge]) -> Explanation {
    Explanation(steps: path.map {
      ExplainedStep(step: $0.step, events: $0.events, beforeLog: $0.before.map { log.symbols[$0].name },
                    afterLog: $0.after.map { log.symbols[$0].name })
    })
  }
}
