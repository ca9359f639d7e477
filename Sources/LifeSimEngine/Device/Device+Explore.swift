// What `lifesim explore` needs of the engine: coverage, and a canonical
// fingerprint of the device's state, by which the search recognises a state
// it has seen.

/// Which edges of each state machine a device has taken, and how often: what
/// `lifesim explore` reports as coverage. Counted as the engine walks the
/// tables (an increment per edge).
public struct Coverage: Sendable, Equatable {
  /// Every machine's counts in one array, machine after machine in
  /// `Machine` order, by edge index of each table: one array to write on
  /// the hot path, as when each machine had a field of its own.
  public internal(set) var counts: [Int]
  /// Where each machine's counts start in `counts`, then the end.
  let starts: [Int]

  public init() {
    var starts = [0]
    for row in MachineRow.all { starts.append(starts.last! + row.edges.count) }
    self.starts = starts
    counts = [Int](repeating: 0, count: starts.last!)
  }

  /// The edge `edge` of `machine` was taken.
  @inline(__always)
  mutating func took(_ machine: Machine, _ edge: Int) { counts[starts[machine.rawValue] + edge] += 1 }

  mutating func process(_ model: LifecycleModel, _ edge: Int) {
    took(model == .appDelegate ? .processAppDelegate : .processScene, edge)
  }

  /// The counts of `machine`, by edge.
  public subscript(machine: Machine) -> [Int] {
    Array(counts[starts[machine.rawValue]..<starts[machine.rawValue + 1]])
  }

  /// The counts added since `earlier`, a copy of these counts taken before.
  public func since(_ earlier: Coverage) -> Coverage {
    var d = self
    for i in d.counts.indices { d.counts[i] -= earlier.counts[i] }
    return d
  }

  /// Adds another device's counts.
  public mutating func add(_ other: Coverage) {
    for i in counts.indices { counts[i] += other.counts[i] }
  }
}

extension Device {
  /// The device's state, encoded canonically: two devices with the same
  /// fingerprint behave the same under the same actions, so a search can
  /// visit the state once. It covers the state of every instance of each
  /// state machine (each process, scene and view controller, as the
  /// machine's row in `Machine` finds them); each app's scenes,
  /// unsaved changes, footprint, open background tasks, audio, the order in
  /// which the apps were last used (jetsam's order) with its ties and
  /// whether the last use is now, the callbacks and notifications it
  /// handles, a prewarm waiting for the tap; its view controllers, views and
  /// windows (`writeHierarchyFingerprint`); the screen (front app, lock,
  /// interruption, switcher, call); the memory level and protected data; the
  /// pending events that are still valid, by their delay from now, and the
  /// timers a suspended app holds until it runs again; the random
  /// generator's state; and the policies in force. It leaves out what cannot
  /// change behaviour: the clock's absolute value, pids, object ids,
  /// sequence numbers and the trace.
  ///
  /// A pending timer is told apart by what `describe` says of its host token
  /// (the bridge gives the script function's definition, `file:line`); without
  /// it, by the token itself.
  public func stateFingerprint(describing describe: ((HostToken) -> String)? = nil) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(256)
    if let describe {
      writeFingerprint(to: &out) { token, out in out.append(text: describe(token)) }
    } else {
      writeFingerprint(to: &out)
    }
    return out
  }

  /// `stateFingerprint`, appended to `out`; `describe` appends what tells a
  /// pending timer apart.
  public func appendFingerprint(to out: inout [UInt8],
                                describing describe: (HostToken, inout [UInt8]) -> Void = Device.tokenItself) {
    writeFingerprint(to: &out, describing: describe)
  }

  /// `stateFingerprint`, written to a hasher: what a search keeps of each
  /// state, made without gathering the bytes (the search calls this on
  /// every step). `describe` does not escape, so calling this allocates
  /// nothing.
  public func hashFingerprint(into hasher: inout StateHasher,
                              describing describe: (HostToken, inout StateHasher) -> Void = Device.tokenItself) {
    writeFingerprint(to: &hasher, describing: describe)
  }

  /// Drops the OS deadlines no process can meet again: those of a process
  /// that ended, or of a stretch in the background that ended (a newer pid
  /// or epoch; both only grow), and the scheduler's events of a request or
  /// task that is gone (§3.5). Each would come due and do nothing, and a
  /// state that keeps them costs a search more at every step after it: its
  /// queue is copied when a step changes it and sorted for the fingerprint,
  /// which leaves such deadlines out. What the device does next, and the
  /// fingerprint, are the same without them. Only between actions.
  public func dropVoidDeadlines() {
    precondition(busy == nil && !inClockLoop, "dropVoidDeadlines while the device runs")
    func void(_ e: ScheduledEvent) -> Bool {
      switch e.action {
      case .process(let app, let pid, let epoch, _): return self[app].pid != pid || self[app].epoch != epoch
      case .bgTask(let app, let number, let what): return self[app].bgTasks.place(of: number, for: what) == nil
      default: return false
      }
    }
    guard kernel.containsPending(where: void) else { return }
    _ = kernel.removeAll(where: void)
  }

  /// A pending timer told apart by its host token alone.
  public static func tokenItself<Sink: FingerprintSink>(_ token: HostToken, _ out: inout Sink) {
    out.append(word: Int64(token.rawValue))
  }

  /// Writes the fingerprint; nothing here builds a string or, for the few
  /// apps a search has, an array.
  func writeFingerprint<Sink: FingerprintSink>(to out: inout Sink,
                                               describing describe: (HostToken, inout Sink) -> Void = Device.tokenItself) {
    func u8(_ v: UInt8) { out.append(byte: v) }
    func i64(_ v: Int64) { out.append(word: v) }
    func text(_ s: String) { out.append(text: s) }
    func timer(_ t: HostToken) { describe(t, &out) }
    // The order of last use, as ranks with their ties (apps used at the same
    // instant share a rank): what jetsam's LRU reads, and it breaks a tie by
    // band and install order, not by rank. Whether the last use is the
    // current instant decides whether the next use ties with it. Counted,
    // not sorted: a search has a few apps.
    func rank(_ i: Int) -> Int {
      let t = apps[i].lastUsed
      var r = 0
      for j in apps.indices where apps[j].lastUsed < t {
        // Each earlier instant once, at its first app.
        if !apps[..<j].contains(where: { $0.lastUsed == apps[j].lastUsed }) { r += 1 }
      }
      return r
    }
    // Each machine's states, machine after machine; a state is a byte below
    // 0xFF, so 0xFF ends one machine's list.
    for machine in machines.order {
      machine.forEachState(on: self) { u8($0) }
      u8(.max)
    }
    for i in apps.indices {
      let id = AppID(i)
      i64(Int64(rank(i)))
      u8(apps[i].lastUsed == now ? 1 : 0)
      i64(Int64(self[id].unsaved))
      i64(Int64(self[id].footprintMB.bitPattern))
      u8(self[id].playingAudio ? 1 : 0)
      u8(self[id].backgroundLaunchBlocked ? 1 : 0)
      i64(self[id].backgroundDeadline.map { ($0 - now).microseconds } ?? -1)
      i64(self[id].backgroundLaunchEnd.map { ($0 - now).microseconds } ?? -1)
      i64(Int64(self[id].tasks.count))
      for t in self[id].tasks {
        text(t.name)
        u8(t.expired ? 1 : 0)
        u8(t.expiration == nil ? 0 : 1)
      }
      i64(Int64(self[id].scenes.count))
      for s in self[id].scenes { i64(Int64(s.number)) }
      i64(Int64(self[id].discardedSessions.count))
      // Timers that came due while the app was suspended, waiting to fire
      // when it runs again (reference §0 "Timers"), in their order.
      i64(Int64(self[id].parkedTimers.count))
      for e in self[id].parkedTimers {
        guard case .appTimer(_, _, let token) = e.action else { continue }
        timer(token)
      }
      // Which callbacks and notifications reach app code (a step may add a
      // handler), and what a prewarm or a force-quit left for the next launch.
      i64(Int64(bitPattern: self[id].handled.bits))
      i64(Int64(bitPattern: self[id].implemented.bits))
      i64(Int64(self[id].observed.bits))
      if let p = self[id].prewarm {
        u8(1); u8(p.activePrewarmEnvironment ? 1 : 0); u8(p.withoutProtectedData ? 1 : 0)
      } else {
        u8(0)
      }
      // With whether it holds a lock on a shared file (§3.5.1), which
      // suspension kills for, in the same byte: most apps hold none.
      let locked = !self[id].fileLocks.isEmpty
      // And its own Background App Refresh switch (§3.5), on for most.
      u8((self[id].carriedRestorationActivity == nil ? 0 : 1) | (locked ? 2 : 0) | (self[id].backgroundRefreshOff ? 4 : 0))
      if locked { i64(Int64(self[id].fileLocks.count)); for f in self[id].fileLocks { text(f) } }
      // BGTaskScheduler (§3.5): what the app registered, submitted and runs.
      if taskConditions.anySubmitted || self[id].bgTasks.registersAny {
        let book = self[id].bgTasks
        i64(Int64(book.registeredEveryLaunch.count)); for r in book.registeredEveryLaunch { text(r) }
        i64(Int64(book.registeredInProcess.count)); for r in book.registeredInProcess { text(r) }
        i64(Int64(book.pending.count))
        for r in book.pending {
          // A time already past is the same to every rule however long ago
          // it was: counted as now, so that waiting merges states.
          text(r.identifier); u8(r.kind.rawValue); i64(max(r.earliest - now, .zero).microseconds)
          u8(r.requiresPower ? 1 : 0); u8(r.requiresNetwork ? 1 : 0)
          i64(r.runsAt.map { max($0 - now, .zero).microseconds } ?? .min)
        }
        i64(Int64(book.running.count))
        for r in book.running {
          text(r.identifier); u8(r.kind.rawValue); u8(r.expired ? 1 : 0)
          // How long it has gone without progress counts until it stalls.
          if r.kind == .continued { i64(min(now - r.progressed, Self.continuedStallLimit).microseconds) }
        }
        // How long since each identifier last started counts until the floor has passed.
        for last in book.lastStarted { i64(last.map { min(now - $0, Self.taskRerunFloor).microseconds } ?? -1) }
      }
    }
    if taskConditions.anySubmitted {
      u8(taskConditions.charging ? 1 : 0); u8(taskConditions.network ? 1 : 0)
    }
    writeHierarchyFingerprint(to: &out)
    i64(Int64(frontmost?.index ?? -1))
    // The device's Background App Refresh switch and Low Power Mode (§3.5)
    // share the lock's byte: both are as they came for most scripts.
    u8((isLocked ? 1 : 0) | (taskConditions.backgroundRefresh ? 0 : 2) | (taskConditions.lowPowerMode ? 4 : 0))
    u8(interruption.map { $0.rawValue } ?? .max)
    u8(isSwitcherOpen ? 1 : 0)
    u8(screen.activeUnderInterruption ? 1 : 0)
    u8(screen.callInProgress ? 1 : 0)
    i64(Int64(screen.callReturnsTo?.index ?? -1))
    u8(memory.level.rawValue)
    u8(protectedData.available ? 1 : 0)
    i64(Int64(bitPattern: random.state))
    writePolicyFingerprint(to: &out)
    // Pending events still valid, by delay and what they do, in queue order.
    withUnsafeTemporaryAllocation(of: ScheduledEvent.self, capacity: kernel.pendingCount) { buffer in
      var queue = buffer
      var n = 0
      kernel.forEachPending { e in
        (queue.baseAddress! + n).initialize(to: e)
        n += 1
      }
      queue.sort()
      defer { queue.deinitialize() }
      for e in queue {
        switch e.action {
        case .script(let t):
          u8(1)
          timer(t)
        case .appTimer(let app, let pid, let t):
          guard self[app].pid == pid, self[app].state.isRunning else { continue }
          u8(2); i64(Int64(app.index))
          timer(t)
        case .process(let app, let pid, let epoch, let event):
          guard self[app].pid == pid, self[app].epoch == epoch, self[app].state.isRunning else { continue }
          u8(3); i64(Int64(app.index)); u8(event.rawValue)
        case .device(let event, _):
          u8(4); u8(event.rawValue)
        case .bgTask(let app, let number, let event):
          guard let place = self[app].bgTasks.place(of: number, for: event) else { continue }
          u8(5); i64(Int64(app.index)); i64(Int64(place)); u8(event.rawValue)
        case .user(let act):
          u8(6); u8(act.rawValue)
        }
        i64((e.time - now).microseconds)
      }
    }
  }

  /// The view controllers and views that are not released, and each app's
  /// windows: everything of the hierarchy that decides what a later push,
  /// pop, layout pass or view change does (reference §5, §6). Objects are
  /// named by their rank among the live ones of their kind (in order of
  /// creation), not by their ids, which only grow: a pushed and popped view
  /// controller leaves the same state as before.
  func writeHierarchyFingerprint<Sink: FingerprintSink>(to out: inout Sink) {
    let vcs = objects.viewControllers, views = objects.views
    func u8(_ v: UInt8) { out.append(byte: v) }
    func i64(_ v: Int64) { out.append(word: v) }
    func flag(_ b: Bool) { out.append(byte: b ? 1 : 0) }
    withUnsafeTemporaryAllocation(of: Int32.self, capacity: vcs.count + views.count) { rank in
      var n: Int32 = 0
      for k in vcs.indices {
        rank[k] = vcs[k].appearance == .deallocated ? -1 : n
        if vcs[k].appearance != .deallocated { n += 1 }
      }
      n = 0
      for k in views.indices {
        rank[vcs.count + k] = views[k].deallocated ? -1 : n
        if !views[k].deallocated { n += 1 }
      }
      func vc(_ id: ObjectID) { i64(Int64(rank[Int(id.index)])) }
      func view(_ id: ObjectID) { i64(Int64(rank[vcs.count + Int(id.index)])) }
      func spec(_ s: ObjectSpec) {
        out.append(text: s.className)
        u8(s.creation == .storyboard ? 0 : s.creation == .xib ? 1 : 2)
        flag(s.overridesLoadView)
        i64(Int64(bitPattern: s.handled.bits))
      }
      for c in vcs where c.appearance != .deallocated {
        i64(Int64(c.app.index))
        i64(Int64(c.scene))
        spec(c.spec)
        flag(c.hasAppeared); flag(c.created); flag(c.viewLoaded); flag(c.inWindow)
        switch c.placement {
        case .stack: u8(0)
        case .presented(let style):
          u8(1)
          u8(style == .fullScreen ? 0 : style == .pageSheet ? 1 : style == .formSheet ? 2 : 3)
        case .child(let parent): u8(2); vc(parent)
        }
        i64(Int64(c.children.count))
        for child in c.children { vc(child) }
        i64(Int64(c.subviews.count))
        for v in c.subviews { view(v) }
      }
      u8(.max)
      for v in views where !v.deallocated {
        i64(Int64(v.app.index))
        i64(Int64(v.scene))
        spec(v.spec)
        vc(v.owner)
        if let s = v.superview { view(s) } else { i64(-1) }
        i64(Int64(v.subviews.count))
        for sub in v.subviews { view(sub) }
        flag(v.inWindow); flag(v.needsLayout); flag(v.needsDisplay)
      }
      u8(.max)
      for app in apps {
        i64(Int64(app.windows.count))
        for w in app.windows {
          i64(Int64(w.scene))
          i64(Int64(w.stack.count))
          for c in w.stack { vc(c) }
          i64(Int64(w.presented.count))
          for c in w.presented { vc(c) }
          flag(w.shown); flag(w.awaitingDidAppear); flag(w.changing); flag(w.exiting)
        }
      }
      flag(objects.layoutPending)
    }
  }

  /// The policies in force (`dev:policy`, which a step may call): what the
  /// watchdogs, jetsam, the background budget and the layout passes do next.
  func writePolicyFingerprint<Sink: FingerprintSink>(to out: inout Sink) {
    let p = policy
    func time(_ t: SimTime) { out.append(word: t.microseconds) }
    time(p.backgroundTime); time(p.expirationLead); time(p.backgroundLaunchTime); time(p.protectedDataDelay)
    time(p.watchdogLaunch); time(p.watchdogBackground); time(p.watchdogTerminate); time(p.watchdogSceneUpdate)
    out.append(byte: p.backgroundTimeFromHost ? 1 : 0)
    out.append(byte: p.victimFromHost ? 1 : 0)
    out.append(byte: p.taskSchedulerFromHost ? 1 : 0)
    out.append(byte: p.victimOrder == .bands ? 0 : 1)
    out.append(word: Int64(bitPattern: p.memoryWarningAt.bitPattern))
    out.append(word: Int64(bitPattern: p.jetsamAt.bitPattern))
    out.append(byte: p.reclaimSceneMB == nil ? 0 : 1)
    out.append(word: Int64(bitPattern: (p.reclaimSceneMB ?? 0).bitPattern))
    out.append(word: Int64(p.layoutPassesFirst))
    out.append(word: Int64(p.layoutPassesRevealed))
    out.append(word: Int64(p.continuedTaskLimit ?? -1))
  }
}
