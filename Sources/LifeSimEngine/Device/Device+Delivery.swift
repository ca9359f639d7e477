// Delivery: how the app's code hears of anything. Every delegate callback,
// view-controller and view callback and notification goes through `send`,
// the one path that writes the record, arms the callback's watchdog, marks
// what runs, and calls the host only when the app registered a handler.
extension Device {
  /// Delivers an app- or scene-delegate callback, then the UIApplication
  /// notification that follows it (reference §0 last row).
  @discardableResult
  func deliver(_ callback: Callback, to id: AppID, scene: Int32? = nil, url: String? = nil,
               detail: String? = nil) throws -> HandlerResult {
    // Before anything captures `url` and `detail`: checked inside `send`, the
    // check made the optimizer retain them on every delivery.
    if !workFrames.isEmpty { noteForeignDelivery(.callback(id, callback)) }
    let handled = self[id].handled.contains(callback)
    var outerURL: String??
    if handled, let url {
      outerURL = .some(deliveryURL)
      deliveryURL = url
    }
    defer { if let outerURL { deliveryURL = outerURL } }
    let result = try send(.callback(id, callback), handled: handled, kind: .callback, record: {
      $0.app = id; $0.callback = callback; $0.handled = handled; $0.scene = scene
      if let d = url ?? detail { $0.detail = d }
      if let url { $0.url = url }
    }, call: { try $0.handle(Delivery(app: id, callback: callback, scene: scene, hasURL: url != nil), on: self) })
    if let n = machines.notification(callback), mayPost(n, to: id), postsNotification(callback, scene: scene, of: id) {
      try post(n, to: id)
    }
    if callback == .didBecomeActive || callback == .sceneDidBecomeActive {
      watchdogs.launchFinished(app: id)  // §0: the launch watchdog runs to here
    }
    return result
  }

  /// Whether posting `n` to the app can change anything: an observer runs,
  /// the trace records it, or a handler's work is under way (`post` says
  /// when a delivery was not held for it). Otherwise a post is skipped
  /// unweighed: with the trace off, most callbacks post to no one.
  @inline(__always)
  private func mayPost(_ n: AppNotification, to id: AppID) -> Bool {
    trace.isEnabled || !workFrames.isEmpty || self[id].observed.contains(n)
  }

  /// Posts a UIApplication notification to an app's observers.
  func post(_ n: AppNotification, to id: AppID) throws {
    if !workFrames.isEmpty { noteForeignDelivery(.notification(id, n)) }
    let observed = self[id].observed.contains(n)
    try send(.notification(id, n), handled: observed, kind: .notification, record: {
      $0.app = id; $0.notification = n; $0.handled = observed
    }, call: {
      try $0.observe(n, app: id, on: self)
      return .none
    })
  }

  /// Delivers a callback to a view controller: its own handlers (its spec's
  /// `on`) and the app's, if there are any.
  func deliverUI(_ callback: Callback, vc: ObjectID, detail: String? = nil) throws {
    // Field by field: a `let` of the whole view controller would copy its spec and arrays.
    try deliverUI(Delivery(app: objects[vc: vc].app, callback: callback, vc: vc), ref: objects[vc: vc].ref,
                  scene: objects[vc: vc].scene, handledByObject: objects[vc: vc].spec.handled, detail: detail)
  }

  /// Delivers a callback to a view (and the handlers of the view controller that holds it).
  func deliverUI(_ callback: Callback, view v: ObjectID) throws {
    try deliverUI(Delivery(app: objects[view: v].app, callback: callback, vc: objects[view: v].owner, view: v),
                  ref: objects[view: v].ref, scene: objects[view: v].scene,
                  handledByObject: objects[view: v].spec.handled, detail: nil)
  }

  private func deliverUI(_ d: Delivery, ref: ObjectRef, scene: Int32, handledByObject own: CallbackSet,
                         detail: String?) throws {
    if !workFrames.isEmpty { noteForeignDelivery(.callback(d.app, d.callback)) }
    let handled = self[d.app].handled.contains(d.callback) || own.contains(d.callback)
    try send(.callback(d.app, d.callback), handled: handled, kind: .callback, record: {
      $0.app = d.app; $0.object = ref; $0.callback = d.callback; $0.handled = handled
      if scene > 1 { $0.scene = scene }
      if let detail { $0.detail = detail }
    }, call: { try $0.handle(d, on: self) })
  }

  /// The one delivery path: the record, the watchdog of a callback that has
  /// one (reference §3.1; restored after it), then `call` on the host, only
  /// when `handled`, with `busy` saying what runs. A kill inside the handler
  /// arrives as `processKilled` and unwinds to the cascade that ran it.
  // Inlined into its four callers so that `record` and `call` are not
  // closures at run time (their thunks cost about 230 instructions a call).
  @inline(__always) @discardableResult
  private func send(_ running: Busy, handled: Bool, kind: RecordKind, record: (inout TraceRecord) -> Void,
                    call: (DeviceHost) throws -> HandlerResult) throws -> HandlerResult {
    guard handled, let host else {
      trace.append(record, kind: kind, at: now)
      // Nothing runs, so nothing is watched: only a callback of a request
      // that waited has its time to take (`deliveryAskedAt`).
      if deliveryAskedAt != nil, case .callback = running { try armWatchdog(running) {} }
      return .none
    }
    // The record gets the virtual time its handler took (ctx:work): a streamed
    // trace holds it, and what the handler records, until the handler returns.
    trace.hold()
    trace.append(record, kind: kind, at: now)
    let seq = trace.lastSeq, start = now
    defer {
      if now > start { trace.setDuration(of: seq, now - start) }
      trace.release()
    }
    if case .callback(let app, let callback) = running { self[app].delivered.insert(callback) }
    return try armWatchdog(running) {
      let saved = busy
      busy = running
      defer { busy = saved }
      return try call(host)
    }
  }

  /// A callback for an app whose handler works, from something other than
  /// the app's own code: lifesim runs it now, and says so (§3.8).
  @inline(never)
  private func noteForeignDelivery(_ running: Busy) {
    let id: AppID
    switch running {
    case .callback(let a, _), .notification(let a, _): id = a
    default: return
    }
    guard runningApp != id, let f = workFrame(of: id) else { return }
    let name: String
    if case .callback(_, let c) = running { name = c.selector } else if case .notification(_, let n) = running { name = n.name } else { name = "?" }
    warn("\(name) delivered while the main thread was busy with the work begun at t=\(f.start.shortDescription): it was not held for the main thread", app: id)
  }

  /// Runs `body` under the callback's watchdog, if it has one (reference
  /// §3.1), and restores what it replaced after.
  @inline(__always)
  private func armWatchdog<T>(_ running: Busy, _ body: () throws -> T) rethrows -> T {
    var replaced: Watchdog??
    let watched: (app: AppID, callback: Callback)?
    switch running {
    case .callback(let app, let callback): watched = (app, callback)
    // An observer of a transition's notification runs inside the transition,
    // on the same main thread: its watchdog watches the observer too (§3.1).
    case .notification(let app, let n): watched = Callback.appDelegateMethod(posting: n).map { (app, $0) }
    default: watched = nil
    }
    if let (app, callback) = watched {
      // A scene update that waited for the main thread counts from when the
      // system asked (§3.1, §3.8): the first watched callback of it does.
      var at = now
      if let asked = deliveryAskedAt, watchdogs.watches(callback) {
        at = asked
        deliveryAskedAt = nil
      }
      replaced = watchdogs.arm(for: callback, app: app, at: at, policy: policy)
    }
    defer {
      // What the callback's watchdog replaced comes back, unless its process
      // died meanwhile (a kill ends every watchdog of the process).
      if let replaced { watchdogs.restore(replaced.flatMap { self[$0.app].state.isExecuting ? $0 : nil }) }
    }
    return try body()
  }

  /// Runs one app's cascade; if the app is killed while its own code runs,
  /// the rest of the cascade is dropped (a SIGKILL runs nothing more).
  func cascade(for id: AppID, _ body: () throws -> Void) throws {
    do {
      try body()
    } catch SimulationError.processKilled(let killed) where killed == id {
      killedWhileRunning = nil
    }
  }
}
