/// The Trace Event Format of chrome://tracing and Perfetto (`lifesim run
/// --format chrome`): one JSON document, `{"traceEvents":[…]}`, that several
/// devices' writers share.
///
/// The layout, per device: process 1 is the device itself (its actions,
/// memory counter and logs); each app is a process of its own (pid 2, 3, … in
/// install order; a second device's pids start at 1001, and so on: pid 0 is
/// never used). In an app's process, thread 1 holds the process states as
/// duration slices, thread 2 the callbacks that belong to no scene, thread
/// 10 + N scene N's callbacks, and thread 1000 + N scene N's states. States and
/// callbacks never share a thread, so slices on one thread only nest: a
/// callback lasts its handler's `ctx:work` time, and a callback delivered
/// inside a handler ends before it. Kills, data losses, expirations, warnings
/// and logs are instant events; metadata events name the processes and threads.
public final class ChromeDocument: @unchecked Sendable {
  // One thread writes a document (`lifesim run` runs its devices on one).
  @exclusivity(unchecked) fileprivate var events = 0

  public init() {}

  /// What opens the document.
  public func header(into out: inout [UInt8]) {
    out.append(literal: "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n")
  }

  /// What closes it, after every device's writer has finished.
  public func footer(into out: inout [UInt8]) {
    out.append(literal: "\n]}\n")
  }

  fileprivate func separator(_ out: inout [UInt8]) {
    if events > 0 { out.append(literal: ",\n") }
    events += 1
  }
}

/// Formats one device's records as trace events into a shared `ChromeDocument`.
/// State slices are written when the state ends (or at the footer), so the
/// writer keeps the open state of each process and scene: memory stays flat.
public final class ChromeTraceWriter: TraceFormatter, @unchecked Sendable {
  public let document: ChromeDocument
  /// The device's number (from 1), which sets its range of pids.
  public let device: Int
  /// When set, the writer opens and closes the document itself (one device).
  private let ownsDocument: Bool

  private struct OpenState {
    var name: String
    var since: SimTime
  }
  /// By app index: the process state and when it began.
  @exclusivity(unchecked) private var processStates: [OpenState?] = []
  /// By app index, then scene number.
  @exclusivity(unchecked) private var sceneStates: [[Int32: OpenState]] = []
  @exclusivity(unchecked) private var namedProcesses: Set<Int> = []
  @exclusivity(unchecked) private var namedThreads: Set<Int64> = []
  @exclusivity(unchecked) private var lastTime = SimTime.zero
  /// The memory counter's last value, so that a repeat adds no point.
  @exclusivity(unchecked) private var lastUsedMB: Double?

  public init(document: ChromeDocument, device: Int) {
    self.document = document
    self.device = device
    self.ownsDocument = false
  }

  /// A writer for a document of one device: it writes the header and footer.
  public init() {
    self.document = ChromeDocument()
    self.device = 1
    self.ownsDocument = true
  }

  /// The whole trace as one document (`dev.trace:text{ format = "chrome" }`).
  public static func render(_ trace: Trace, since: Int = 1) -> String {
    let w = ChromeTraceWriter()
    var out: [UInt8] = []
    w.header(for: trace, into: &out)
    for r in trace.records where r.seq >= since { w.record(r, in: trace, into: &out) }
    w.footer(for: trace, into: &out)
    return String(decoding: out, as: UTF8.self)
  }

  var devicePid: Int { (device - 1) * 1000 + 1 }
  func pid(of app: AppID) -> Int { devicePid + 1 + Int(app.index) }

  public func header(for trace: Trace, into out: inout [UInt8]) {
    if ownsDocument { document.header(into: &out) }
    nameProcess(devicePid, "device \(device)", sortIndex: devicePid, &out)
    ensureThread(devicePid, 1, "actions", &out)
  }

  public func footer(for trace: Trace, into out: inout [UInt8]) {
    // The states still open end with the trace.
    for (i, open) in processStates.enumerated() {
      if let open { slice(pid(of: AppID(i)), 1, open, until: lastTime, category: "state", &out) }
    }
    for (i, scenes) in sceneStates.enumerated() {
      for number in scenes.keys.sorted() {
        slice(pid(of: AppID(i)), 1000 + Int64(number), scenes[number]!, until: lastTime, category: "state", &out)
      }
    }
    processStates.removeAll()
    sceneStates.removeAll()
    if ownsDocument { document.footer(into: &out) }
  }

  public func record(_ r: TraceRecord, in trace: Trace, into out: inout [UInt8]) {
    lastTime = max(lastTime, r.time)
    guard let app = r.app else { return deviceEvent(r, &out) }
    let pid = pid(of: app)
    if namedProcesses.insert(pid).inserted {
      nameProcess(pid, trace.name(of: app), sortIndex: pid, &out)
    }
    let i = Int(app.index)
    while processStates.count <= i {
      processStates.append(nil)
      sceneStates.append([:])
    }
    switch r.kind {
    case .state:
      if r.scene == nil, let used = r.usedMB { memoryCounter(r, used: used, &out) }
      guard let to = r.toName else { return }
      if let scene = r.scene {
        let tid = 1000 + Int64(scene)
        ensureThread(pid, tid, "scene \(scene) state", &out)
        if let open = sceneStates[i][scene] { slice(pid, tid, open, until: r.time, category: "state", &out) }
        sceneStates[i][scene] = OpenState(name: to, since: r.time)
      } else {
        ensureThread(pid, 1, "process state", &out)
        if let open = processStates[i] { slice(pid, 1, open, until: r.time, category: "state", &out) }
        processStates[i] = to == "notRunning" ? nil : OpenState(name: to, since: r.time)
      }
    case .callback, .notification:
      let tid = r.scene.map { 10 + Int64($0) } ?? 2
      ensureThread(pid, tid, r.scene.map { "scene \($0)" } ?? "main", &out)
      let name: String
      if let c = r.callback {
        let receiver = r.object.map(trace.className(of:)) ?? c.receiver.className
        name = "-[\(receiver) \(c.selector)]"
      } else {
        name = r.notification?.name ?? "notification"
      }
      document.separator(&out)
      out.append(literal: "{\"ph\":\"X\",\"cat\":\"")
      out.append(literal: r.kind == .callback ? "callback" : "notification")
      out.append(literal: "\",\"name\":")
      out.append(jsonString: name)
      common(pid, tid, r.time, &out)
      out.append(literal: ",\"dur\":")
      out.append(decimal: r.duration?.microseconds ?? 0)
      out.append(literal: ",\"args\":{\"handled\":")
      out.append(literal: r.handled == true ? "true" : "false")
      if let d = r.detail {
        out.append(literal: ",\"detail\":")
        out.append(jsonString: d)
      }
      out.append(literal: "}}")
    case .kill, .dataLoss, .expire, .snapshot, .warning, .log, .action, .memory, .wait:
      instant(r, pid: pid, tid: 1, scope: r.kind == .kill || r.kind == .dataLoss ? "p" : "t", &out)
    }
  }

  // MARK: - Events

  /// The memory counter track, on the device's process: a point at every
  /// record that gives the memory in use (memory levels, and app state
  /// changes, which change it), when it moved.
  private func memoryCounter(_ r: TraceRecord, used: Double, _ out: inout [UInt8]) {
    guard used != lastUsedMB || r.limitMB != nil else { return }
    lastUsedMB = used
    document.separator(&out)
    out.append(literal: "{\"ph\":\"C\",\"name\":\"memory (MB)\"")
    common(devicePid, 1, r.time, &out)
    out.append(literal: ",\"args\":{\"used\":")
    out.append(number: used)
    if let limit = r.limitMB {
      out.append(literal: ",\"ram\":")
      out.append(number: limit)
    }
    out.append(literal: "}}")
  }

  private func deviceEvent(_ r: TraceRecord, _ out: inout [UInt8]) {
    if r.kind == .memory, let used = r.usedMB { memoryCounter(r, used: used, &out) }
    instant(r, pid: devicePid, tid: 1, scope: "t", &out)
  }

  /// Names a thread at its first event.
  private func ensureThread(_ pid: Int, _ tid: Int64, _ name: @autoclosure () -> String, _ out: inout [UInt8]) {
    if namedThreads.insert(Int64(pid) << 20 | tid).inserted { nameThread(pid, tid, name(), &out) }
  }

  private func instant(_ r: TraceRecord, pid: Int, tid: Int64, scope: StaticString, _ out: inout [UInt8]) {
    ensureThread(pid, tid, pid == devicePid ? "actions" : "process state", &out)
    document.separator(&out)
    out.append(literal: "{\"ph\":\"i\",\"s\":\"")
    out.append(literal: scope)
    out.append(literal: "\",\"cat\":\"")
    out.append(text: r.kind.description)
    out.append(literal: "\",\"name\":")
    out.append(jsonString: instantName(r))
    common(pid, tid, r.time, &out)
    out.append(literal: ",\"args\":{")
    var first = true
    func arg(_ key: StaticString) {
      if !first { out.append(0x2C) }
      first = false
      out.append(0x22)
      out.append(literal: key)
      out.append(literal: "\":")
    }
    if let reason = r.reason {
      arg("reason")
      out.append(jsonString: reason.description)
    }
    if let code = r.code {
      arg("code")
      out.append(jsonString: "0x" + String(code, radix: 16))
    }
    if let n = r.unsaved {
      arg("unsaved")
      out.append(decimal: Int(n))
    }
    if let level = r.memoryLevel {
      arg("level")
      out.append(jsonString: level.description)
    }
    if let d = r.detail {
      arg("detail")
      out.append(jsonString: d)
    }
    out.append(literal: "}}")
  }

  private func instantName(_ r: TraceRecord) -> String {
    switch r.kind {
    case .kill: return "kill (\(r.reason?.description ?? "?"))"
    case .dataLoss: return "data loss (\(r.unsaved.map(String.init) ?? "?") unsaved)"
    case .expire: return "expire \(r.detail ?? "")"
    case .action: return r.action?.description ?? "action"
    case .memory: return "memory \(r.memoryLevel?.description ?? "")"
    case .log: return r.detail ?? "log"
    default: return r.kind.description
    }
  }

  /// A state as a complete slice, from when it began to `end`.
  private func slice(_ pid: Int, _ tid: Int64, _ s: OpenState, until end: SimTime, category: StaticString,
                     _ out: inout [UInt8]) {
    document.separator(&out)
    out.append(literal: "{\"ph\":\"X\",\"cat\":\"")
    out.append(literal: category)
    out.append(literal: "\",\"name\":")
    out.append(jsonString: s.name)
    common(pid, tid, s.since, &out)
    out.append(literal: ",\"dur\":")
    out.append(decimal: max(0, end.microseconds - s.since.microseconds))
    out.append(0x7D)
  }

  /// `,"pid":…,"tid":…,"ts":…` (microseconds).
  private func common(_ pid: Int, _ tid: Int64, _ time: SimTime, _ out: inout [UInt8]) {
    out.append(literal: ",\"pid\":")
    out.append(decimal: pid)
    out.append(literal: ",\"tid\":")
    out.append(decimal: tid)
    out.append(literal: ",\"ts\":")
    out.append(decimal: time.microseconds)
  }

  private func nameProcess(_ pid: Int, _ name: String, sortIndex: Int, _ out: inout [UInt8]) {
    metadata("process_name", pid, 0, into: &out) { $0.append(literal: "\"name\":"); $0.append(jsonString: name) }
    metadata("process_sort_index", pid, 0, into: &out) { $0.append(literal: "\"sort_index\":"); $0.append(decimal: sortIndex) }
  }

  private func nameThread(_ pid: Int, _ tid: Int64, _ name: String, _ out: inout [UInt8]) {
    metadata("thread_name", pid, tid, into: &out) { $0.append(literal: "\"name\":"); $0.append(jsonString: name) }
    metadata("thread_sort_index", pid, tid, into: &out) { $0.append(literal: "\"sort_index\":"); $0.append(decimal: tid) }
  }

  /// A metadata event; `args` writes the members of its `args` object.
  private func metadata(_ kind: StaticString, _ pid: Int, _ tid: Int64, into out: inout [UInt8],
                        _ args: (inout [UInt8]) -> Void) {
    document.separator(&out)
    out.append(literal: "{\"ph\":\"M\",\"name\":\"")
    out.append(literal: kind)
    out.append(literal: "\",\"pid\":")
    out.append(decimal: pid)
    out.append(literal: ",\"tid\":")
    out.append(decimal: tid)
    out.append(literal: ",\"ts\":0,\"args\":{")
    args(&out)
    out.append(literal: "}}")
  }
}
