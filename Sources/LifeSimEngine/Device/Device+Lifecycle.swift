// Walking routes through the transition table, and delivering callbacks.
extension Device {
  /// Applies one state-machine event to an app: its callbacks, in table order,
  /// before or after the state change as the edge says.
  func apply(_ event: AppEvent, to id: AppID, url: String? = nil) throws {
    let from = self[id].state, model = self[id].model
    guard let e = machines.edge(model, from: from, on: event) else {
      throw SimulationError.illegalTransition(app: self[id].config.bundle, from: from, event: event, at: now)
    }
    coverage.process(model, e)
    if event == .launch { watchdogs.armLaunch(app: id, at: now, policy: policy) }  // §0: 20 s to the first …DidBecomeActive:
    let after = machines.deliveredAfter(model, e)
    if !after { try deliver(model, edge: e, event, id, url) }
    if let follow = setState(id, machines.target(model, e), from: from) { try run(follow, for: id) }
    if after { try deliver(model, edge: e, event, id, url) }
  }

  /// The callbacks of edge `e`, read from the table by index: holding the
  /// edge's array across the handlers would retain it on every step.
  private func deliver(_ model: LifecycleModel, edge e: Int, _ event: AppEvent, _ id: AppID, _ url: String?) throws {
    let count = machines.callbackCount(model, e)
    guard count > 0 else { return }
    let launching = (event == .launch || event == .launchInBackground) && self[id].model == .appDelegate
    // §2.1 row 0, §5.1: UIApplicationMain loads the main storyboard's root first.
    if launching { try createRoot(id, scene: 0, storyboardPhase: true) }
    for k in 0..<count {
      let callback = machines.callback(model, e, k)
      guard shouldDeliver(callback, on: event, to: id) else { continue }
      // §2.7: launch options carry the URL in the app-delegate model; with scenes
      // they are nil and the URL arrives in the connection options.
      let withURL = self[id].model == .appDelegate
        && (callback == .willFinishLaunching || callback == .didFinishLaunching)
      // §2.12: the launch options carry an opened notification in the app-delegate model.
      var detail = callback == .didDiscardSceneSessions ? discardDetail(id) : nil
      if withURL, url == nil, let n = openedNotification, n.app == id {
        detail = n.remote ? "remote notification" : "local notification"
      }
      let result = try deliver(callback, to: id, url: withURL ? url : nil, detail: detail)
      if result == .bool(false), callback.returnsAnswer {
        launchRefusedURL = true
      }
      if callback == .didDiscardSceneSessions { self[id].discardedSessions.removeAll() }
      // §5.1: a xib or code root is made by the app in didFinishLaunching.
      if launching && callback == .didFinishLaunching { try createRoot(id, scene: 0, storyboardPhase: false) }
    }
  }

  /// The guarded steps of the process machine: the only places where its
  /// table is not the whole story.
  func shouldDeliver(_ callback: Callback, on event: AppEvent, to id: AppID) -> Bool {
    switch profile.delivery(of: callback) {
    case .always: return true
    case .never: return false
    case .ifAny: return !self[id].discardedSessions.isEmpty  // the only callback with this rule
    case .whenImplemented: return self[id].implemented.contains(callback)
    }
  }

  /// "sessions 1,2": which sessions `application:didDiscardSceneSessions:` reports.
  func discardDetail(_ id: AppID) -> String {
    "sessions " + self[id].discardedSessions.map(String.init).joined(separator: ",")
  }

  /// Changes an app's state with a `state` record, and keeps the process
  /// bookkeeping: a new pid on start, each part's clean-up on death (`processEnded`).
  /// - Returns: what the app's scenes must do (`SceneRules.processChanged`).
  func setState(_ id: AppID, _ to: AppState, from: AppState) -> LifecycleEffect? {
    if to == .notRunning && pendingUserKill == id {
      pendingUserKill = nil
      recordKill(id, reason: .user)
    }
    let pid = processes.setState(id, to)  // a start gets a pid and its footprint; an end loses both
    let used = memoryUsedMB
    trace.append({ $0.app = id; $0.from = from; $0.to = to; $0.usedMB = used }, kind: .state, at: now)
    if from == .notRunning {
      launchRefusedURL = false
      scheduleMemoryCheck()
    }
    if to == .notRunning { processEnded(id, pid: pid) }
    if from == .suspended { requeueParkedTimers(id) }
    if to == .active || from == .active { self[id].lastUsed = now }
    if (to == .inactive || to == .active) && (from == .background || from == .suspended) { leftBackground(id) }
    return SceneRules.processChanged(to: to, hasScenes: self[id].hasScenes)
  }

  /// Walks an app-delegate app along a route: the events of `Routes`, each
  /// through the table. A URL is delivered just before the app becomes
  /// active (§2.7).
  func walkAppDelegate(_ route: Route, _ id: AppID, url: String?) throws {
    let state = self[id].state
    guard let events = Routes.events(route, from: state) else { return }
    let cold = state == .notRunning
    for event in events {
      if event == .activate {
        try showWindow(id, scene: 0)  // §2.1 step 4: the root appears before the activation
        if let url { try deliverURL(url, to: id, cold: cold) }
        try deliverOpenedNotification(id)
        try activating(id, scene: 0) { try apply(event, to: id, url: cold ? url : nil) }
        continue
      }
      try apply(event, to: id, url: cold ? url : nil)
    }
    if route == .toActive, events.isEmpty, let url { try deliverURL(url, to: id, cold: false) }
    if route == .toActive {
      self[id].background.opened()  // §2.6: the user opened the app
      scheduleTasksThatMayRun()  // §3.5: refresh requests a force-quit held back
    }
  }

  /// §2.12: an opened notification reaches its method while the app is still
  /// inactive, just before it becomes active.
  func deliverOpenedNotification(_ id: AppID) throws {
    guard let n = openedNotification, n.app == id else { return }
    openedNotification = nil
    if let c = n.callback { try deliver(c, to: id) }
  }

  /// §2.7: the app-delegate URL callback runs only if neither launch method
  /// returned false.
  private func deliverURL(_ url: String, to id: AppID, cold: Bool) throws {
    if cold && launchRefusedURL { return }
    try deliver(profile.openURLCallback, to: id, url: url)
  }

  /// After `…DidEnterBackground:`: the snapshot (§2.10), then either the exit of
  /// an app with `UIApplicationExitsOnSuspend` (§3.7) or silent suspension (§0).
  func settleInBackground(_ id: AppID) throws {
    try cascade(for: id) { try run(.settle, for: id) }
  }

  /// `UIApplicationExitsOnSuspend` is in force for this app (§3.7).
  func exitsOnSuspend(_ id: AppID) -> Bool {
    self[id].config.exitsOnSuspend && profile.honoursExitsOnSuspend
  }

}
