import LifeSimEngine

/// What `lifesim explain` answers: the search on the device asked for, then,
/// for a log it does not explain, wider searches.
public struct ExplainAnswer: Sendable {
  /// The result reported: the first search's, or the wider search's when
  /// that one explains the log.
  public var result: ExplainResult
  /// The options of the search that gave `result`.
  public var options: ExplainOptions
  /// Distinct states reached and steps taken, over every search.
  public var states = 0
  public var steps = 0
  /// The wider search (other windows, the app's own code acting in a step),
  /// when the first explained nothing; and how far it reached.
  public var widened: ExplainResult?
  /// The quirks tried one at a time, when nothing explained the log and no
  /// quirk was asked for; and those with which it is explained.
  public var quirksTried: [Quirk] = []
  public var quirksExplaining: [Quirk] = []
  /// Those tried whose search a bound stopped: whether they explain the log
  /// is not known.
  public var quirksCut: [Quirk] = []
  /// The flags of the bounds that stopped those searches, each once.
  public var quirksCutBy: [String] = []
  /// Quirks asked for (`--quirk`) that change nothing this search can show:
  /// a scene quirk for an app without scenes, a quirk of a version that is
  /// not this one's.
  public var quirksIdle: [Quirk] = []
  /// The first search stopped at `--max-states`, and the log was searched
  /// again with the fewest unlogged steps in a row it allows: that search's
  /// `--max-unlogged` (the options of `result` when it explains the log),
  /// and its result when it does not.
  public var narrowed: Int?
  public var narrowedResult: ExplainResult?
  /// The first search's `--max-unlogged`, and its `--max-states` when it
  /// stopped there.
  public var askedUnlogged = 0
  public var askedStates: Int?
  /// The bound the first search stopped at, when that made the narrowed
  /// search ("--max-states 300", "--max-saved-memory 1024 MB").
  public var askedBound: String?
  /// A search stopped at `--max-saved-memory` (this many MB).
  public var stoppedAtMemory: Int?

  /// Counts a search's states and steps, and notes a stop at the memory bound.
  mutating func add(_ r: ExplainResult) {
    states += r.states
    steps += r.steps
    if case .savedMemory(let mb) = r.stop { stoppedAtMemory = mb }
  }
}

extension ExplainSearch {
  /// Explains the log as the CLI does. First on the device the options make,
  /// with the steps every log gets. A search that stops at `--max-states` is
  /// made again with the fewest unlogged steps in a row (none, or for a
  /// timed log the wait before each line), which a log that shows every step
  /// needs. A log the first search does not explain, when it tried every
  /// sequence (no bound stopped it), is searched again with the steps only
  /// such a log needs, which would widen every search: the app's other
  /// windows opened, closed and disconnected (a scene app), and the app's
  /// own code in a step passing its memory limit, blocking past its watchdog
  /// or beginning a background task. When that fails too and no quirk was
  /// asked for, each quirk that can change this app's callbacks is tried
  /// alone, to say which documented variant of iOS (reference §8) would
  /// explain the log.
  public static func answer(log: ParsedLog, options: ExplainOptions) throws -> ExplainAnswer {
    let first = try ExplainSearch(log: log, options: options)
    let result = first.run()
    var answer = ExplainAnswer(result: result, options: options)
    answer.add(result)
    answer.askedUnlogged = options.maxUnlogged
    let matter = first.quirksThatMatter
    answer.quirksIdle = options.quirks.members.filter { !matter.contains($0) }
    if result.explanations.isEmpty, let stop = result.stop, stop.stopsWide {
      if case .maxStates(let m) = stop { answer.askedStates = m }
      answer.askedBound = stop.bound
      // Most of a bounded search goes on unlogged detours (an overlay, a
      // warning, a push before the log starts) that each line multiplies; a
      // log that shows every step searches far fewer states with none, or,
      // when timed, with only the wait before each line.
      let fewest = first.timed ? 1 : 0
      guard options.maxUnlogged > fewest else { return answer }
      var narrow = options
      narrow.maxUnlogged = fewest
      let r = try ExplainSearch(log: log, options: narrow).run()
      answer.add(r)
      answer.narrowed = fewest
      if r.explanations.isEmpty {
        answer.narrowedResult = r
        // The answer names the first line no sequence reaches: the one the
        // search that got further names.
        if r.reached > result.reached {
          answer.result = r
          answer.options = narrow
        }
      } else {
        answer.result = r
        answer.options = narrow
      }
      return answer
    }
    guard result.explanations.isEmpty, result.searchedAll else { return answer }
    var wider = options
    wider.windows = true
    wider.appCode = true
    let second = try ExplainSearch(log: log, options: wider).run()
    answer.add(second)
    if !second.explanations.isEmpty {
      answer.result = second
      answer.options = wider
      return answer
    }
    answer.widened = second
    guard options.quirks.members.isEmpty, second.searchedAll else { return answer }
    for q in matter {
      var o = options
      o.quirks = QuirkSet([q])
      let r = try ExplainSearch(log: log, options: o).run()
      answer.add(r)
      answer.quirksTried.append(q)
      if !r.explanations.isEmpty {
        answer.quirksExplaining.append(q)
      } else if !r.searchedAll {
        answer.quirksCut.append(q)
        if let flag = r.stop?.boundFlag, !answer.quirksCutBy.contains(flag) { answer.quirksCutBy.append(flag) }
      }
    }
    return answer
  }

  /// The quirks that can change what this app is sent on this device.
  var quirksThatMatter: [Quirk] {
    Quirk.allCases.filter { q in
      switch q {
      case .sceneForceQuitEntersBackground, .disconnectOnBackground, .forceQuitDeletesRestoration: return scenes
      case .exitsOnSuspendTerminateOnly: return device.profile.honoursExitsOnSuspend
      case .backgroundLaunchEntersBackground: return true
      case .rootAppearsBeforeActive: return !log.screens.isEmpty
      case .prewarmSkipsLaunchMethods: return device.profile.prewarms
      }
    }
  }
}

extension ExplainStop {
  /// A bound on how wide the search goes (its states, their memory), which a
  /// narrower search may stay within.
  var stopsWide: Bool {
    switch self {
    case .maxStates, .savedMemory: return true
    default: return false
    }
  }
}

extension ExplainResult {
  /// No bound stopped the search: every sequence it may take was tried.
  public var searchedAll: Bool {
    switch stop {
    case .exhausted, .maxUnlogged: return true
    default: return false
    }
  }
}
