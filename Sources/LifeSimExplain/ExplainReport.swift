import LifeSimEngine

/// What `lifesim explain` prints and writes: the explanation as numbered
/// steps, the script that replays it, or where the log parts from the model.
public struct ExplainReport {
  public let log: ParsedLog
  public let options: ExplainOptions
  public let result: ExplainResult

  public init(log: ParsedLog, options: ExplainOptions, result: ExplainResult) {
    self.log = log
    self.options = options
    self.result = result
  }

  /// The answer of `ExplainSearch.answer`: its result, with the options of
  /// the search that gave it, told whether the narrow search was already made.
  public init(log: ParsedLog, answer: ExplainAnswer) {
    self.init(log: log, options: answer.options, result: answer.result)
    narrowTried = answer.narrowed != nil
  }

  /// The search was already made again with the fewest unlogged steps in a
  /// row, so a search out of states does not advise it.
  var narrowTried = false

  var device: String {
    let quirks = options.quirks.members.map(\.description)
    return "iOS \(options.ios)" + (options.model.map { ", \($0.name)" } ?? "") + (result.scenes ? ", an app with scenes" : ", an app without scenes")
      + (quirks.isEmpty ? "" : ", quirk\(quirks.count == 1 ? "" : "s") " + quirks.joined(separator: ", "))
  }

  /// The first line of the report: what was read, and the device.
  public var header: String {
    let lines = log.events.count
    return "\(lines) lifecycle \(log.unit)\(lines == 1 ? "" : "s") (\(log.format.rawValue)), \(log.ignored) ignored; \(device)\n"
  }

  /// "line 3", "lines 3–4", or what a step accounts for when it is no line of the log.
  func lines(_ s: ExplainedStep) -> String {
    if s.events.isEmpty { return s.beforeLog.isEmpty ? "no logged line" : "before the log" }
    let a = log.events[s.events.lowerBound].line, b = log.events[s.events.upperBound - 1].line
    let what = a == b ? "\(log.unit) \(a)" : "\(log.unit)s \(a)–\(b)"
    let n = s.beforeLog.count
    let after = s.afterLog.isEmpty ? "" : " (the log ends before the step's " + s.afterLog.map(shown(kind:)).joined(separator: ", ") + ")"
    return (n == 0 ? what : what + " (after \(n) record\(n == 1 ? "" : "s") from before the log)") + after
  }

  /// A kind of line as the answer shows it: a screen's class as
  /// `LogReader.shownClass` writes it, so that no name breaks a line.
  func shown(kind name: String) -> String {
    guard let i = log.symbolByName[name], case .screen(let c)? = log.symbols[i].atoms.first else { return name }
    return "ui.lifecycle " + LogReader.shownClass(c)
  }

  /// The steps, numbered, each with the lines it accounts for.
  func steps(_ e: Explanation, indent: String) -> String {
    if e.steps.isEmpty { return indent + "(no step: the log is empty)\n" }
    var out = ""
    for (i, s) in e.steps.enumerated() {
      out += "\(indent)\(i + 1). \(s.step.name(bundle: options.bundle)): \(s.step.words) → \(lines(s))\n"
    }
    return out
  }

  /// A task's launch the log shows is also what any other launch in the
  /// background with nothing the log shows looks like (reference §3.5): the
  /// answer says which, so that the reader weighs them.
  func taskNote(_ explanations: [Explanation]) -> String {
    // A task that accounts for lines: the log shows the background launch.
    guard let (e, at) = explanations.lazy.compactMap({ e in
      e.steps.firstIndex { $0.step.kind == .runTask && !$0.events.isEmpty }.map { (e, $0) }
    }).first else { return "" }
    // A processing task runs only while the device is idle, locked (§3.5):
    // whether the device is locked at the step tells the two kinds apart.
    var locked = false
    for s in e.steps[..<at] {
      switch s.step.kind {
      case .lock: locked = true
      case .unlock: locked = false
      default: break
      }
    }
    let kind = locked
      ? "the device is locked then, so a processing task (BGProcessingTask, which runs only on an idle, locked device) fits as well as a refresh task"
      : "the device is not locked then, so it is a refresh task (BGAppRefreshTask): a processing task runs only on a locked device"
    return "a run_task step above is a BGTaskScheduler task as explain models an app on iOS 13 and later "
      + "whose log shows no application:performFetchWithCompletionHandler:; \(kind). A background fetch the log does not show, "
      + "or a launch for location, gives the same lines (docs/background-tasks.md)\n"
  }

  /// The report on standard output.
  public var text: String {
    var out = header
    if let first = result.explanations.first {
      out += "explained in \(first.steps.count) step\(first.steps.count == 1 ? "" : "s"):\n"
      out += steps(first, indent: "  ")
      if !first.afterLog.isEmpty {
        out += "the log ends in the middle of step \(first.steps.count), as a log cut short (by a crash, or where it was saved) does\n"
      }
      let others = result.explanations.dropFirst()
      if !others.isEmpty {
        out += "\(others.count) other explanation\(others.count == 1 ? "" : "s") of the same length:\n"
        for (i, e) in others.enumerated() {
          out += "  alternative \(i + 1):\n" + steps(e, indent: "    ")
        }
      }
      out += taskNote(result.explanations)
      if let m = result.alternativesCutAtStates {
        out += "other explanations of the same length may be left out: the search stopped at --max-states \(m) "
          + "(a larger --max-states finds them)\n"
      } else if let mb = result.alternativesCutAtMemory {
        out += "other explanations of the same length may be left out: the search stopped at --max-saved-memory \(mb) MB "
          + "(a larger --max-saved-memory finds them)\n"
      } else if result.alternativesCut {
        out += "other explanations of the same length may be left out: the search keeps \(ExplainSearch.ways) ways into each state\n"
      }
      return out
    }
    out += failure
    return out
  }

  /// Where the log parts from the model: the first line no sequence reaches,
  /// what the model sends there, and the longest explained prefix.
  public var failure: String {
    let n = log.events.count
    var out = ""
    switch result.stop {
    case .depth(let d):
      out += "not explained within --depth \(d) steps (a larger --depth searches further)\n"
    case .maxStates, .savedMemory:
      if case .maxStates(let m) = result.stop {
        out += "not explained within --max-states \(m) distinct states (a larger --max-states searches further"
      } else if case .savedMemory(let mb) = result.stop {
        out += "not explained within --max-saved-memory \(mb) MB: what the search keeps would hold more "
          + "(a larger --max-saved-memory searches further"
      }
      let fewest = timed ? 1 : 0
      if options.maxUnlogged > fewest && !narrowTried {
        out += "; --max-unlogged \(fewest), for a log that shows every step\(timed ? " but the waits between its lines" : ""), "
          + "searches far fewer states than --max-unlogged \(options.maxUnlogged)"
      }
      out += ")\n"
    case .maxUnlogged(let m):
      out += "no sequence with at most --max-unlogged \(m) steps in a row that account for no line explains the log "
      out += "on \(device) (a larger --max-unlogged searches further"
      out += m == 0 && timed ? "; a wait between two timed lines is such a step)\n" : ")\n"
    default:
      out += "no sequence of steps explains the log on \(device) (every sequence was tried; --ios, --model and "
        + "--scenes or --no-scenes choose another device)\n"
    }
    guard result.reached < n else { return out }
    let e = log.events[result.reached]
    // A bound stopped the search: the model may well allow the line, so say
    // only how far the search got, and nothing of what iOS sends there.
    var bounded = false
    switch result.stop {
    case .depth, .maxStates, .savedMemory: bounded = true
    default: break
    }
    if bounded {
      out += "first \(log.unit) not reached within the bound: \(log.unit) \(e.line): \(visibleControls(e.text))\n"
      if let p = result.prefix, result.reached > 0 {
        out += "longest explained prefix (\(log.unit)s 1–\(log.events[result.reached - 1].line)), \(p.steps.count) step\(p.steps.count == 1 ? "" : "s"):\n"
        out += steps(p, indent: "  ")
      }
      return out
    }
    out += "first \(log.unit) no sequence reaches: \(log.unit) \(e.line): \(visibleControls(e.text))\n"
    let logged = shown(kind: log.symbols[e.symbol].name)
    let version = "iOS \(options.ios)"
    if result.neverSent {
      out += "no sequence tried makes the app send \(logged) at all on \(device): it may be another device's "
        + "(--ios, --model, --scenes or --no-scenes)"
    } else if result.reached > 0 {
      let before = log.events[result.reached - 1]
      let prev = shown(kind: log.symbols[before.symbol].name)
      if result.wrongTime, let gap = gap(result.reached) {
        out += "after \(prev) (\(log.unit) \(before.line)), \(version) sends \(logged) there, but not \(gap) later as the log has it"
      } else if result.expected.isEmpty {
        out += "after \(prev) (\(log.unit) \(before.line)), \(version) sends none of the log's kinds that leads to \(logged)"
      } else {
        out += "after \(prev) (\(log.unit) \(before.line)), \(version) sends \(result.expected.map(shown(kind:)).joined(separator: " or ")) before \(logged)"
      }
    } else {
      out += "no step makes the app send \(logged) first on \(version)"
    }
    let refs = references(result.expected.isEmpty ? [logged] : result.expected)
    out += refs.isEmpty ? "\n" : " (docs/reference.md \(refs.joined(separator: ", ")))\n"
    if let p = result.prefix, result.reached > 0 {
      out += "longest explained prefix (\(log.unit)s 1–\(log.events[result.reached - 1].line)), \(p.steps.count) step\(p.steps.count == 1 ? "" : "s"):\n"
      out += steps(p, indent: "  ")
    }
    return out
  }

  /// Whether every line has a time: then each wait between two is a step.
  var timed: Bool { log.events.count > 1 && log.events.allSatisfy { $0.time != nil } }

  func gap(_ i: Int) -> String? {
    guard let a = log.events[i - 1].time, let b = log.events[i].time else { return nil }
    var g = b - a
    if g < 0 && log.timesWrapDaily { g += 86_400_000_000 }
    return formatNumber(Double(g) / 1_000_000) + " s"
  }

  /// The reference sections of the rules behind some kinds: each callback's,
  /// and for a notification the section of the callback that posts it.
  func references(_ names: [String]) -> [String] {
    var out: [String] = []
    for name in names {
      guard let symbol = log.symbols.first(where: { $0.name == name }) else { continue }
      for atom in symbol.atoms {
        let info: CallbackInfo?
        switch atom {
        case .callback(let c): info = c.info
        case .notification(let nt): info = Callback.rows.first { $0.notification == nt && $0.receiver == .appDelegate }
        case .screen: info = Callback.viewDidAppear.info
        }
        if let r = info?.reference, !out.contains(r) { out.append(r) }
      }
    }
    return out
  }

  // MARK: - The script

  /// A Lua script that makes the device, takes the steps of `e` and checks
  /// that the app's callbacks and notifications, restricted to the log's
  /// kinds, are the log's lines up to `upTo` (all of them by default).
  public func script(_ e: Explanation, source: String, command: String, upTo: Int? = nil) -> String {
    let count = upTo ?? log.events.count
    var s = "-- The steps lifesim explain found for \(comment(source)) (\(log.format.rawValue), \(count) of \(log.events.count) lifecycle \(log.unit)s):\n"
    s += "--   \(comment(command))\n"
    s += "-- `lifesim run` on this file replays them and checks that the app's callbacks and notifications,\n"
    s += "-- kept to the kinds the log shows, are the log's lines.\n"
    var device = "ios = \(options.ios), seed = 1"
    if let m = options.model { device += ", model = \(quoted(m.name))" }
    if let m = options.memoryMB { device += ", memory_mb = \(m)" }
    if ExplainSearch.passcode(log) { device += ", passcode = true" }
    let quirks = options.quirks.members
    if !quirks.isEmpty { device += ", quirks = { " + quirks.map { "\($0) = true" }.joined(separator: ", ") + " }" }
    s += "local dev = lifesim.device{ \(device) }\n"
    let modes = ExplainStep.backgroundModes.map(quoted).joined(separator: ", ")
    let root = log.screens.first.map { ", root = { class = \(quoted(LogReader.shownClass($0))), from = \"code\" }" } ?? ""
    let exits = options.quirks.contains(.exitsOnSuspendTerminateOnly) ? ", exits_on_suspend = true" : ""
    let tasks = result.tasks ? ", background_tasks = { \(quoted(ExplainStep.task)) }" : ""
    s += "local app = dev:install{ bundle = \(quoted(options.bundle)), scenes = \(result.scenes), background_modes = { \(modes) }\(tasks)\(exits)\(root) }\n"
    if result.tasks { s += taskLua }
    let acts = e.steps.contains { $0.step.acts }
    if acts, let limit = options.limitMB {
      s += codeLua(limit: limit, hang: options.hang, busy: e.steps.contains { $0.step.busyAt > 0 })
    }
    s += implementedLua(kills: acts) + "\n"
    s += log.flutterWalks ? flutterLogged : logged
    for step in e.steps { s += "\(step.step.lua)  -- \(step.step.words); \(lines(step))\n" }
    let before = e.beforeLog, after = e.afterLog
    s += "\n-- What the log shows"
    s += before.isEmpty ? "" : " (after \(before.count) record\(before.count == 1 ? "" : "s") of its kinds from before it starts)"
    s += after.isEmpty ? ":\n" : ", which ends in the middle of the last step, before \(after.count) more record\(after.count == 1 ? "" : "s"):\n"
    s += "local expected = {\n"
    for ev in log.events.prefix(count) { s += "  \(quoted(log.symbols[ev.symbol].name)),  -- \(log.unit) \(ev.line): \(comment(ev.text))\n" }
    s += "}\n"
    s += "local got = logged()\n"
    s += "lifesim.expect_callbacks({ table.unpack(got, \(before.count + 1)\(after.isEmpty ? "" : ", #got - \(after.count)")) }, expected)\n"
    return s
  }

  /// The app's refresh task (`ExplainSearch.tasks`): registered at every
  /// launch, submitted by an earlier process, run only by a step.
  var taskLua: String {
    let id = quoted(ExplainStep.task)
    var s = "-- The app schedules a BGTaskScheduler refresh task, which a step runs (dev:run_task): the scheduler\n"
    s += "-- never runs it on its own. Its handler submits the next request and completes at once.\n"
    s += "dev:policy{ task_scheduler = function() return nil end }\n"
    s += "app:register_task(\(id), function(ctx, task)\n"
    s += "  ctx:submit_task{ id = \(id), kind = \"refresh\" }\n"
    s += "  task:complete(true)\n"
    s += "end)\n"
    s += "app:submit_task{ id = \(id), kind = \"refresh\" }\n"
    return s
  }

  /// The Lua of the app's own code where a step has it act: it runs in
  /// every callback and notification, and in the step's `die_at`-th
  /// allocates past the app's limit, so that jetsam kills it, in its
  /// `hang_at`-th blocks past the watchdog's limit, or in its `task_at`-th
  /// begins a background task; with `busy`, in its `busy_at`-th it works
  /// `busy_for` seconds.
  func codeLua(limit: Int, hang: SimTime, busy: Bool = false) -> String {
    var s = "-- The app's code runs in each callback and notification; where a step sets die_at, in its die_at-th\n"
    s += "-- of that step, it allocates past the app's limit (\(limit) MB) and jetsam kills the process; where\n"
    s += "-- it sets hang_at, in its hang_at-th it blocks for \(formatNumber(hang.seconds)) s, past the watchdog's limit; where\n"
    s += "-- a step sets task_at, in its task_at-th it begins a background task, which it never ends.\n"
    if busy {
      s += "-- Where a step sets busy_at, in its busy_at-th it works busy_for seconds, and what the system\n"
      s += "-- tells the app meanwhile waits for its main thread (docs/reference.md §3.8).\n"
      s += "local busy_at, busy_for\n"
    }
    s += "local die_at, hang_at, task_at, calls = nil, nil, nil, 0\n"
    s += "local function code(ctx)\n"
    s += "  calls = calls + 1\n"
    s += "  if calls == task_at then ctx:begin_background_task(\"explain\") end\n"
    if busy { s += "  if calls == busy_at then ctx:work(busy_for) end\n" }
    s += "  if calls == hang_at then ctx:work(\(formatNumber(hang.seconds))) end\n"
    s += "  if calls == die_at then ctx:allocate(\(limit)) end\n"
    s += "end\n"
    s += "app:on(\"*\", code)\n"
    s += "for _, n in ipairs{ " + AppNotification.allCases.map { quoted($0.name) }.joined(separator: ", ") + " } do app:observe(n, code) end\n"
    return s
  }

  /// The notes on standard error after the report: which wider search or
  /// quirk explains a log the first search did not.
  public static func notes(_ a: ExplainAnswer) -> [String] {
    var out: [String] = []
    if let mb = a.stoppedAtMemory {
      out.append("the search stopped at --max-saved-memory \(mb) MB: what it keeps (its states, the ways into them, "
                 + "the device states it will expand) would hold more; a larger --max-saved-memory searches further")
    }
    for q in a.quirksIdle {
      let app = a.result.scenes ? "an app with scenes" : "an app without scenes"
      out.append("--quirk \(q) changes nothing explain can show on iOS \(a.options.ios) for \(app) and this log: "
                 + "\(q.summary) (docs/reference.md \(q.reference))")
    }
    /// "--max-states N" of a search that a bound stopped.
    func bound(_ r: ExplainResult) -> String? { r.stop?.bound }
    if let fewest = a.narrowed {
      let first = "the search with --max-unlogged \(a.askedUnlogged) stopped at \(a.askedBound ?? "--max-states \(a.askedStates ?? 0)")"
      let steps = fewest == 0 ? "no step that accounts for no line" : "at most \(fewest) step in a row that accounts for no line"
      if let r = a.narrowedResult {
        let reach = r.reached == 0 ? " (it reaches none of the log's lines)" : " (it reaches the first \(r.reached) of the log's lines)"
        if let b = bound(r) {
          out.append("\(first); the search with \(steps) (--max-unlogged \(fewest)) stopped at \(b) too\(reach): "
                     + "a larger \(b.split(separator: " ")[0]) searches further")
        } else {
          out.append("\(first); nor is the log explained with \(steps) (--max-unlogged \(fewest))\(reach)")
        }
      } else {
        out.append("\(first); explained with \(steps) (--max-unlogged \(fewest)): the shortest such explanation, "
                   + "though one with more unlogged steps in a row was not ruled out")
      }
    }
    let code = "own code in a step (passing its memory limit, blocking past its watchdog, beginning a background task, "
      + "working while what the system tells it waits)"
    let wider = a.result.scenes && a.options.model?.showsWindowsSideBySide != false
      ? "the app's other windows opened, closed or disconnected and its \(code)"
      : "the app's \(code)"
    if a.options.appCode, !a.result.explanations.isEmpty {
      out.append("no sequence of the ordinary steps explains the log; explained with \(wider)")
    }
    if let w = a.widened {
      let further = w.reached > a.result.reached ? " (with them the first \(w.reached) of its lines are)" : ""
      if let b = bound(w) {
        out.append("the search with \(wider) stopped at \(b)\(further), so it is not known whether they explain the log, "
                   + "and no quirk was tried: a larger \(b.split(separator: " ")[0]) searches further")
      } else {
        out.append("nor is it explained with \(wider)\(further)")
      }
    }
    for q in a.quirksExplaining {
      out.append("with --quirk \(q) the log is explained: a documented variant of iOS, not lifesim's default "
                 + "(docs/reference.md \(q.reference): \(q.summary))")
    }
    if !a.quirksCut.isEmpty {
      out.append("with --quirk \(a.quirksCut.map(\.description).joined(separator: ", ")) the search stopped at its bound, "
                 + "so it is not known whether \(a.quirksCut.count == 1 ? "that quirk explains" : "one of them explains") "
                 + "the log: a larger \((a.quirksCutBy.isEmpty ? ["--max-states"] : a.quirksCutBy).joined(separator: " or ")) searches further")
    }
    let searchedOut = a.quirksTried.filter { !a.quirksCut.contains($0) }
    if !searchedOut.isEmpty && a.quirksExplaining.isEmpty {
      out.append("nor with any one quirk (tried \(searchedOut.map(\.description).joined(separator: ", ")))")
    }
    if let w = a.widened, w.searchedAll, a.quirksExplaining.isEmpty, a.quirksCut.isEmpty {
      out.append("what explain does not model may be why: the app's code doing more than passing its memory limit, "
                 + "blocking past its watchdog, beginning a background task or working once in a step (ending a task, timers), windows side by side, "
                 + (a.options.quirks.members.isEmpty ? "several quirks at once" : "other quirks"))
    }
    return out
  }

  /// The Lua that keeps, of the app's trace, the log's kinds of line.
  var logged: String {
    var s = "-- Each callback or notification the log shows, and the kind of line it logs as.\n"
    s += "local kinds = {\n"
    for symbol in log.symbols {
      for atom in symbol.atoms {
        var key = atom.name
        // A class the script names as shown: no class name in a script holds a control character.
        if case .screen(let c) = atom { key += " " + LogReader.shownClass(c) }
        s += "  [\(quoted(key))] = \(quoted(symbol.name)),\n"
      }
    }
    s += "}\n"
    s += "local function logged()\n"
    s += "  local out = {}\n"
    s += "  for _, r in ipairs(dev.trace:records{ app = app }) do\n"
    if log.screens.isEmpty {
      s += "    local kind = (r.kind == \"callback\" or r.kind == \"notification\") and kinds[r.callback]\n"
    } else {
      s += "    -- A view controller's callback is logged with its class.\n"
      s += "    local key = r.vc and (r.callback .. \" \" .. r.vc) or r.callback\n"
      s += "    local kind = (r.kind == \"callback\" or r.kind == \"notification\") and kinds[key]\n"
    }
    s += log.collapsesRepeats
      ? "    if kind and out[#out] ~= kind then out[#out + 1] = kind end  -- the log shows changes only\n"
      : "    if kind then out[#out + 1] = kind end\n"
    s += "  end\n  return out\nend\n\n"
    return s
  }

  /// The Lua that turns the app's notifications into the Flutter states the
  /// log shows: the state the iOS embedding reports for each, and every
  /// state the framework passes on its way there (`Flutter.walk`).
  var flutterLogged: String {
    var s = "-- The state Flutter's iOS embedding reports for each notification.\n"
    s += "local reports = {\n"
    for n in AppNotification.allCases {
      if let state = Flutter.state(of: n) { s += "  [\(quoted(n.name))] = \(state + 1),\n" }
    }
    s += "}\n"
    s += "-- Flutter's states in its framework's order, and those the log shows.\n"
    s += "local states = { " + Flutter.states.map { quoted("AppLifecycleState." + $0) }.joined(separator: ", ") + " }\n"
    s += "local shown = { " + log.symbols.map { "[\(quoted($0.name))] = true" }.joined(separator: ", ") + " }\n"
    s += """
      -- The states the framework delivers going from one to another: every one
      -- between (hidden between inactive and paused), detached after the rest.
      local function walk(from, to)
        if from == nil then return { to } end
        local out = {}
        if to == from then return out end
        if to == 1 then
          for i = from + 1, #states do out[#out + 1] = i end
          out[#out + 1] = 1
        elseif from > to then
          for i = from - 1, to, -1 do out[#out + 1] = i end
        else
          for i = from + 1, to do out[#out + 1] = i end
        end
        return out
      end
      local function logged()
        local out, last = {}, nil
        for _, r in ipairs(dev.trace:records{ app = app }) do
          if r.kind == "state" and r.scene == nil and r.to == "notRunning" then last = nil end
          local to = r.kind == "notification" and reports[r.callback]
          if to then
            for _, i in ipairs(walk(last, to)) do
              if shown[states[i]] then out[#out + 1] = states[i] end
            end
            last = to
          end
        end
        return out
      end


      """
    return s
  }

  func comment(_ text: String) -> String {
    String(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : Character($0) })
  }
}

/// A Lua string literal (the bridge has its own; this module has no Lua).
func quoted(_ s: String) -> String {
  var out = "\""
  for u in s.unicodeScalars {
    switch u {
    case "\"": out += "\\\""
    case "\\": out += "\\\\"
    case "\n": out += "\\n"
    default:
      // Three digits always: "\1" before a digit would read as another code.
      if u.value < 0x20 || u.value == 0x7F {
        out += "\\" + String(Int(u.value) / 100) + String(Int(u.value) / 10 % 10) + String(Int(u.value) % 10)
      } else {
        out.unicodeScalars.append(u)
      }
    }
  }
  return out + "\""
}
