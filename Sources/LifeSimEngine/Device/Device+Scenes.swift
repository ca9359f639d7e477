// The scene model (reference §1.2, §1.3): each scene walks its own machine
// (`SceneLifecycle`), and the app's state follows its scenes.
extension Device {
  // MARK: - Multi-window actions

  /// Opens another window of a scene app: a new scene connects and becomes
  /// active; the app's other windows on screen go to the background, and so
  /// does another app on screen. A process that is not running launches.
  /// - Returns: the new scene's session number.
  /// - Throws: `invalidAction` for an app without scenes.
  @discardableResult
  public func openScene(_ id: AppID) throws -> Int32 {
    try begin(.openScene, app: id) {
      try requireUnlocked(.action(.openScene))
      try requireScenes(id, .action(.openScene))
    }
    let number = newScene(id)
    try run(.bringToFront(id), scene: number)
    try settle()
    return number
  }

  /// The user closes one window in the app switcher (§2.6): `sceneDidDisconnect:`,
  /// then `application:didDiscardSceneSessions:`, and the process keeps running.
  /// Closing the app's last window terminates it, as a force-quit does.
  public func closeScene(_ id: AppID, scene number: Int32) throws {
    try begin(.closeScene, app: id, detail: "scene \(number)") {
      try requireUnlocked(.action(.closeScene))
      try requireOpen(id, number, .action(.closeScene))
    }
    try run(.openSwitcher)
    if self[id].scenes.count == 1 && restorationFacts.keepsLastClosedSession {
      try closeLastWindowKeepingSession(id)  // §2.11, iPadOS 15
    } else if self[id].scenes.count == 1 {
      // §2.6: closing the last one terminates the process.
      try forceQuitCascade(id)
    } else {
      let wasOnScreen = self[id].state == .active || self[id].state == .inactive
      if self[id].state.isRunning {
        try cascade(for: id) { try whileExecuting(id) {
          if let i = self[id].sceneIndex(number) {
            for event in SceneRoutes.events(.userTerminate, from: self[id].scenes[i].state) {
              try apply(event, scene: number, of: id)
            }
          }
          discardSessions([number], of: id)
          // §2.6: "when the user removes a scene from the app switcher".
          try deliver(.didDiscardSceneSessions, to: id, detail: discardDetail(id))
          self[id].discardedSessions.removeAll()
        } }
      } else {
        discardSessions([number], of: id)  // §2.6 (c): reported at the next launch
      }
      if wasOnScreen && !self[id].scenes.contains(where: { $0.state.isForeground }) {
        // The app as a whole left the screen with no sceneDidEnterBackground:,
        // so the notification stands alone (§1.3).
        try cascade(for: id) { try run(SceneRules.leftScreen(self[id].state), for: id) }
        screen.appLeft(id)
        try run(.settleInBackground, for: id)
      }
    }
    try settle()
  }

  /// The system disconnects a background scene to reclaim its memory (§1.2):
  /// `sceneDidDisconnect:`; the session survives, and the scene reconnects
  /// (with no configuration request) when the user brings it back.
  public func disconnectScene(_ id: AppID, scene number: Int32) throws {
    try begin(.disconnectScene, app: id, detail: "scene \(number)") {
      try requireOpen(id, number, .action(.disconnectScene))
      try requireReclaimable(number, of: id)
    }
    try reclaimScene(number, of: id)
    try settle()
  }

  /// Disconnects a background scene, resuming a suspended process to deliver
  /// `sceneDidDisconnect:` (for memory policies; records no action).
  /// - Throws: `invalidAction` unless the scene is in the background.
  public func reclaimScene(_ number: Int32, of id: AppID) throws {
    try requireReclaimable(number, of: id)
    try cascade(for: id) { try whileExecuting(id) { try apply(.disconnect, scene: number, of: id) } }
  }

  /// Only a background scene can be disconnected by the system (§1.2).
  private func requireReclaimable(_ number: Int32, of id: AppID) throws {
    guard let i = self[id].sceneIndex(number), self[id].scenes[i].state == .background else {
      let state = self[id].sceneIndex(number).map { self[id].scenes[$0].state }
      throw SimulationError.invalidAction(
        .action(.disconnectScene), .sceneNotReclaimable(app: self[id].config.bundle, scene: number, state: state))
    }
  }

  // MARK: - Walking scenes

  /// Walks a scene app along a route: the scene column of reference §0.
  /// `.toActive` brings one scene forward (`scene`, or the one shown last, or a
  /// new one); the other routes move every connected scene.
  func walkScenes(_ route: Route, _ id: AppID, url: String? = nil, scene: Int32? = nil) throws {
    switch route {
    case .toActive:
      try bringSceneForward(scene, of: id, url: url)
      self[id].background.opened()  // §2.6: the user opened the app
      scheduleTasksThatMayRun()  // §3.5: refresh requests a force-quit held back
    case .toBackground, .toInactive:
      // Only scenes on screen have a step to take (`SceneRoutes`). By index:
      // a loop holding the list while its scenes change would copy it.
      var j = 0
      while j < self[id].scenes.onScreen.count {
        let number = self[id].scenes.onScreen[j]
        if let k = self[id].sceneIndex(number) {
          for event in SceneRoutes.events(route, from: self[id].scenes.state(at: k)) { try apply(event, scene: number, of: id) }
        }
        // A scene that went to the background left the list: the next one took its place.
        if j < self[id].scenes.onScreen.count && self[id].scenes.onScreen[j] == number { j += 1 }
      }
    case .userTerminate:
      // By index: a loop holding the array while its scenes change would copy it.
      var i = 0
      while i < self[id].scenes.count {
        let s = self[id].scenes[i]
        i += 1
        guard s.state.isConnected else { continue }
        for event in SceneRoutes.events(route, from: s.state) { try apply(event, scene: s.number, of: id) }
      }
    }
  }

  private func bringSceneForward(_ target: Int32?, of id: AppID, url: String?) throws {
    if let start = SceneRules.comingForward(self[id].state) { try run(start, for: id) }
    let number = target ?? self[id].focusScene ?? newScene(id)
    guard let i = self[id].sceneIndex(number) else { return }
    forwardCount += 1
    self[id].scenes.broughtForward(at: i, count: forwardCount)
    let start = self[id].scenes.state(at: i)
    let connecting = !start.isConnected
    let events = SceneRoutes.events(.toActive, from: start)
    for event in events {
      if event == .activate {
        // Another window of the app on screen gives way to this one.
        var j = 0
        while j < self[id].scenes.onScreen.count {
          let other = self[id].scenes.onScreen[j]
          guard other != number, let k = self[id].sceneIndex(other) else {
            j += 1
            continue
          }
          // The scene leaves the list as it goes: the next one takes its place.
          for e in SceneRoutes.events(.toBackground, from: self[id].scenes.state(at: k)) { try apply(e, scene: other, of: id) }
          if j < self[id].scenes.onScreen.count && self[id].scenes.onScreen[j] == other { j += 1 }
        }
        // §2.7: a scene that connects finds the URL in its connection options;
        // one that was connected gets scene:openURLContexts: before activation.
        if let url, !connecting { try deliver(.sceneOpenURLContexts, to: id, scene: number, url: url) }
        try deliverOpenedNotification(id)  // §2.12
      }
      try apply(event, scene: number, of: id, url: connecting ? url : nil)
    }
    if events.isEmpty, let url { try deliver(.sceneOpenURLContexts, to: id, scene: number, url: url) }
  }

  /// A force-quit of a scene app (`SceneRules.forceQuit`, §2.6 scene column).
  func terminateScenes(_ id: AppID) throws {
    let early = quirks.contains(.sceneForceQuitEntersBackground)
    try run(SceneRules.forceQuit(self[id].state, entersBackgroundFirst: early), for: id)
  }

  // MARK: - One scene event

  /// Applies one scene event: its callbacks before or after the state change,
  /// as the edge says. The app's state follows at the change.
  func apply(_ event: SceneEvent, scene number: Int32, of id: AppID, url: String? = nil) throws {
    guard let i = self[id].sceneIndex(number) else { return }
    let from = self[id].scenes.state(at: i)
    guard let e = machines.sceneMachine.edge(from: from, on: event) else {
      throw SimulationError.illegalSceneTransition(app: self[id].config.bundle, scene: number,
                                                   from: from, event: event, at: now)
    }
    coverage.took(.scene, e)
    if event == .activate {
      try activating(id, scene: number) { try walk(e, number, id, url) }
    } else {
      try walk(e, number, id, url)
    }
    if event == .disconnect || event == .detach {
      dropWindows(id, scene: number)  // the scene's window goes with it
    }
    if event == .enterBackground && quirks.contains(.disconnectOnBackground) {
      // §8.3's variant: the template comment's disconnect "shortly after" backgrounding.
      try apply(.disconnect, scene: number, of: id)
    }
  }

  /// Walks edge `e` of the scene table for one scene.
  private func walk(_ e: Int, _ number: Int32, _ id: AppID, _ url: String?) throws {
    let after = machines.sceneMachine.transitions[e].deliveredAfter
    if !after { try deliver(edge: e, number, id, url) }
    setSceneState(id, number, machines.sceneMachine.transitions[e].to)
    try followScenes(id)
    if after { try deliver(edge: e, number, id, url) }
  }

  /// The callbacks of edge `e`, read from the table by index: holding the
  /// edge's array across the handlers would retain it on every scene step.
  private func deliver(edge e: Int, _ number: Int32, _ id: AppID, _ url: String?) throws {
    for k in machines.sceneMachine.transitions[e].callbacks.indices {
      let callback = machines.sceneMachine.transitions[e].callbacks[k]
      guard let i = self[id].sceneIndex(number) else { return }
      // §2.1 step 5: the configuration is asked for new sessions only.
      if callback == .configurationForConnecting && self[id].scenes[i].hasSession { continue }
      if callback == .sceneWillConnect {
        // Only a force-quit's activity waits for a new session: checked here,
        // the rule's call is skipped on every other connection.
        if !self[id].scenes[i].hasSession, self[id].carriedRestorationActivity != nil {
          try run(RestorationEvent.connects(scene: number), for: id)
        }
        self[id].scenes[i].hasSession = true
      }
      try deliver(callback, to: id, scene: number, url: callback == .sceneWillConnect ? url : nil)
      // §2.11: asked only of an app that implements it; checked here, the
      // rule's call is skipped on every other scene's trip to the background.
      if callback == .sceneDidEnterBackground && self[id].implemented.contains(.stateRestorationActivity) {
        try run(RestorationEvent.enteredBackground(scene: number), for: id)
      }
      if callback == .sceneWillConnect {
        // §2.1 step 6: the window and the root are made in willConnect, and the
        // root appears before the scene comes forward.
        try createRoot(id, scene: number)
        try showWindow(id, scene: number)
      }
    }
  }

  /// In the scene model a UIApplication notification follows a scene callback
  /// only when the app as a whole changes: the first scene to come forward or
  /// become active, the last to resign or leave (§1.3: the notifications are
  /// still posted). In the app-delegate model every one is posted.
  func postsNotification(_ callback: Callback, scene: Int32?, of id: AppID) -> Bool {
    guard machines.receiver(callback) == .sceneDelegate, let scene else { return true }
    // Which scene states keep the app where the notification says it left.
    let inactiveCounts: Bool
    switch callback {
    case .sceneWillEnterForeground, .sceneDidEnterBackground: inactiveCounts = true
    case .sceneDidBecomeActive, .sceneWillResignActive: inactiveCounts = false
    default: return true
    }
    // Posted unless another scene keeps the app where it was.
    var others = self[id].scenes.count(in: .foregroundActive)
    if inactiveCounts { others += self[id].scenes.count(in: .foregroundInactive) }
    if let own = self[id].scenes.state(of: scene), own == .foregroundActive || (inactiveCounts && own == .foregroundInactive) {
      others -= 1
    }
    return others == 0
  }

  /// Sets a scene's state with a `state` record that names the scene.
  private func setSceneState(_ id: AppID, _ number: Int32, _ to: SceneState) {
    guard let i = self[id].sceneIndex(number) else { return }
    let from = self[id].scenes.setState(at: i, to)
    trace.append({ $0.app = id; $0.scene = number; $0.sceneFrom = from; $0.sceneTo = to }, kind: .state, at: now)
  }

  /// The app's state follows its connected scenes while the process executes
  /// (reference §1.3); with none connected the process state stands alone.
  /// Each change is one edge of the process machine.
  private func followScenes(_ id: AppID) throws {
    let state = self[id].state
    guard state.isExecuting else { return }
    let implied = SceneRules.implied(active: self[id].scenes.count(in: .foregroundActive),
                                     inactive: self[id].scenes.count(in: .foregroundInactive),
                                     background: self[id].scenes.count(in: .background))
    if let step = SceneRules.follow(state, implied: implied, table: machines.scene) { try run(step, for: id) }
  }

  /// A dead process's scenes return to unattached with no callback (the
  /// `detach` edges); their sessions survive.
  func detachScenes(_ id: AppID) {
    for i in self[id].scenes.indices {
      let s = self[id].scenes[i]
      guard s.state.isConnected else { continue }
      guard let e = machines.sceneMachine.edge(from: s.state, on: .detach) else { preconditionFailure("no detach edge") }
      coverage.took(.scene, e)
      setSceneState(id, s.number, .unattached)
    }
  }

  // MARK: - Helpers

  func newScene(_ id: AppID) -> Int32 {
    let number = self[id].nextSceneNumber
    self[id].nextSceneNumber += 1
    self[id].scenes.append(Scene(number: number))
    return number
  }

  /// Sessions the user removed: gone from the app, and pending a report by
  /// `application:didDiscardSceneSessions:`.
  func discardSessions(_ numbers: [Int32], of id: AppID) {
    guard !numbers.isEmpty else { return }
    for i in self[id].scenes.indices where numbers.contains(self[id].scenes[i].number) {
      releasing { try run(RestorationEvent.discarded(scene: self[id].scenes[i].number), for: id) }
    }
    self[id].scenes.removeAll { numbers.contains($0.number) }
    self[id].discardedSessions += numbers
  }

  /// Runs `body` with the process executing. The system resumes a suspended
  /// process to deliver a scene event, and it is suspended again after.
  private func whileExecuting(_ id: AppID, _ body: () throws -> Void) throws {
    let wasSuspended = self[id].state == .suspended
    if wasSuspended { try run(.apply(.resume), for: id) }
    try body()
    if wasSuspended { try run(.suspendUnlessHeld, for: id) }
  }

  private func requireScenes(_ id: AppID, _ operation: Operation) throws {
    guard self[id].model == .scene else {
      throw SimulationError.noScenes(operation, app: self[id].config.bundle, sceneless: profile.supportsScenes,
                                     ios: profile.version)
    }
  }

  private func requireOpen(_ id: AppID, _ number: Int32, _ operation: Operation) throws {
    guard self[id].sceneIndex(number) != nil else {
      throw SimulationError.invalidAction(operation, .sceneClosed(app: self[id].config.bundle, scene: number))
    }
  }

  /// The user closes an iPad app's last window: the process ends as in a
  /// force-quit, but the session and its activity stay, so the relaunch
  /// reconnects that session without a configuration request (§2.11).
  func closeLastWindowKeepingSession(_ id: AppID) throws {
    if self[id].state.isRunning { pendingUserKill = id }
    defer { pendingUserKill = nil }
    try cascade(for: id) {
      switch self[id].state {
      case .notRunning: break
      case .suspended: try apply(.kill, to: id)
      default:
        try walkScenes(.userTerminate, id)
        try apply(.terminate, to: id)
      }
    }
    screen.appLeft(id)
    try run(.forceQuit, for: id)  // §2.6: as after a force-quit
  }
}
