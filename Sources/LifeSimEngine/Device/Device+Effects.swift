// Where the parts' effects are applied: each part's `reduce` changes the part
// and says what follows; the device does it here, in order, with the cascades
// an effect stands for (an app sent to the background, swiped away, warned).
// The steps an effect rarely takes (a kill, expiration handlers, protected
// data, a memory record, jetsam) are `@inline(never)`: inlined into these
// loops, they spread the common steps over more instruction cache.
extension Device {
  /// Runs effects that only release what a process held (handlers, an
  /// activity): none of them throws, and one that did would be a broken rule,
  /// not an error a script could cause.
  func releasing(_ body: () throws -> Void) {
    do { try body() } catch { preconditionFailure("releasing what a process held threw: \(error)") }
  }

  /// What the profile and the model say about the screen's rules.
  var screenFacts: ScreenFacts { fixedFacts.screen }

  /// Applies a screen event (`Screen.reduce`) and then its effects, in order.
  /// - Parameters:
  ///   - url: the URL the app brought forward opens (`bringForward`).
  ///   - scene: the scene brought forward, for a scene app.
  ///
  /// A follow-up runs in the same loop, not by recursion.
  func run(_ event: ScreenEvent, url: String? = nil, scene: Int32? = nil) throws {
    var change = ScreenChangeInProgress(effects: screen.reduce(event, facts: screenFacts), scene: scene)
    try withUnsafeMutablePointer(to: &change) { change in
      screenChanges.push(change, url: url)
      defer { screenChanges.pop() }
      try continueScreenChange(change)
    }
  }

  /// The screen changes under way do not wait for a handler that works in
  /// one of them (§3.8): their remaining steps run now, innermost first, as
  /// they would have after it.
  @inline(never)
  func continueScreenChanges() throws {
    var f = screenChanges.count - 1
    while f >= 0 {
      try continueScreenChange(screenChanges[f])
      f -= 1
    }
  }

  /// Runs the steps of a screen change not yet taken, and its follow-ups.
  private func continueScreenChange(_ change: UnsafeMutablePointer<ScreenChangeInProgress>) throws {
    while true {
      // One access to the change per step, in place: a step may be a
      // handler's work that takes the steps after it (`continueScreenChanges`).
      let effect: ScreenEffect
      switch change.pointee.take() {
      case .done: return
      case .follow(let follow):
        change.pointee.restart(screen.reduce(follow, facts: screenFacts))
        continue
      case .effect(let e): effect = e
      }
      // §3.8: the screen changes now; what the app is told waits for its
      // main thread when a handler of it is working.
      if !workFrames.isEmpty, try waitsForMainThread(effect, url: screenChanges.url(of: change), scene: change.pointee.scene) { continue }
      switch effect {
      case .walk(let route, let id):
        try walk(route, id)
      case .sendToBackground(let id):
        try sendToBackground(id)
      case .leaveScreen(let id):
        screen.appLeft(id)
      case .reactivateOnLock(let id):
        try reactivateOnLock(id)
      case .countOpen(let id):
        stats.opens += 1
        if self[id].state == .notRunning { stats.coldOpens += 1 }
      case .bringForward(let id):
        try bringForward(id, url: screenChanges.url(of: change), scene: change.pointee.scene)
      case .lockProtectedData:
        lockProtectedData()
      case .unlockProtectedData:
        try protectedDataUnlocks()
      case .deliver(let callback, let id):
        try cascade(for: id) { try deliver(callback, to: id) }
      case .swipeAway(let id):
        try forceQuitCascade(id)
      case .bringForwardOpening(let id, let remote, let callback):
        try bringForwardOpening(id, remote: remote, callback: callback)
      case .then(let follow):
        change.pointee.follow = follow
      }
    }
  }

  /// Brings an app forward: the scene the user picked, or the app.
  func bringForward(_ id: AppID, url: String?, scene: Int32?) throws {
    if self[id].prewarm != nil { try endPrewarm(id) }  // §2.1 "Prewarming": the tap reuses the process
    if let scene {
      try comingBack(id) { try cascade(for: id) { try walkScenes(.toActive, id, url: url, scene: scene) } }
    } else {
      try walk(.toActive, id, url: url)
    }
  }

  /// §3.1: a return to the foreground is one scene update. Its watchdog runs
  /// from when the system asked (the tap, or the unlock) to the first
  /// `…DidBecomeActive:`, over every handler of the app in between (a URL,
  /// a notification, an observer), as the launch's runs over a launch.
  @inline(__always)
  private func comingBack(_ id: AppID, _ body: () throws -> Void) throws {
    var replaced: Watchdog??
    if self[id].state == .background || self[id].state == .suspended {
      // A request that waited for the main thread counts from when it was
      // asked (§3.8).
      replaced = watchdogs.armComeback(app: id, at: deliveryAskedAt ?? now, policy: policy)
    }
    defer { if let replaced { watchdogs.restore(replaced.flatMap { self[$0.app].state.isExecuting ? $0 : nil }) } }
    try body()
  }

  /// A screen effect for an app whose main thread is busy (§3.8): what the
  /// app is told waits; a swipe in the switcher kills the process at once,
  /// as SIGKILL does, with no callback.
  /// - Returns: true when the effect was taken care of here.
  @inline(never)
  private func waitsForMainThread(_ effect: ScreenEffect, url: String?, scene: Int32?) throws -> Bool {
    switch effect {
    case .walk(let route, let id) where isMainThreadBusy(id): wait(id, .walk(route, url: url))
    case .sendToBackground(let id) where isMainThreadBusy(id): wait(id, .sendToBackground)
    case .reactivateOnLock(let id) where isMainThreadBusy(id): wait(id, .reactivateOnLock)
    case .bringForward(let id) where isMainThreadBusy(id): wait(id, .bringForward(url: url, scene: scene))
    case .deliver(let callback, let id) where isMainThreadBusy(id): wait(id, .deliver(callback))
    // Once: a force-quit of it may already be running its termination.
    case .swipeAway(let id) where isMainThreadBusy(id): if pendingUserKill != id { try killBusyForForceQuit(id) }
    default: return false
    }
    return true
  }

  /// The user swipes away an app whose handler is working: the process dies
  /// now, with no callback (§2.6, §3.8), and its scene sessions go as a
  /// force-quit's do.
  @inline(never)
  func killBusyForForceQuit(_ id: AppID) throws {
    let carried = self[id].takeActivitySurvivingForceQuit(facts: restorationFacts)  // §2.11, §8.12
    defer { releasing { try run(RestorationEvent.forceQuitEnded(surviving: carried), for: id) } }
    if pendingUserKill == id { pendingUserKill = nil }
    recordKill(id, reason: .user)
    if self[id].model == .scene {
      try run(Effects(.apply(.kill), .discardSessions), for: id)
    } else {
      try apply(.kill, to: id)
    }
    screen.appLeft(id)
    try run(.forceQuit, for: id)
  }

  /// Applies what a scene app's process and scenes ask of each other, in order.
  func run(_ effects: Effects<LifecycleEffect>, for id: AppID, url: String? = nil) throws {
    for effect in effects { try run(effect, for: id, url: url) }
  }

  /// Applies one effect between a scene app's process and its scenes
  /// (`SceneRules`); `url` goes with a walk of the scenes.
  func run(_ effect: LifecycleEffect, for id: AppID, url: String? = nil) throws {
    switch effect {
    case .apply(let event):
      try apply(event, to: id)
    case .follow(let event, let to):
      let from = self[id].state
      if let e = machines.edge(.scene, from: from, on: event) { coverage.process(.scene, e) }
      if let follow = setState(id, to, from: from) { try run(follow, for: id) }
    case .cannotFollow(let to):
      throw SimulationError.inconsistent(
        "\(self[id].config.bundle): its scenes imply \(to), which is not one step from \(self[id].state) (t=\(now))")
    case .settleInBackground:
      try settleInBackground(id)
    case .suspendUnlessHeld:
      try run(.idle, for: id)
    case .post(let n):
      try post(n, to: id)
    case .walkScenes(let route):
      try walkScenes(route, id, url: url)
    case .discardSessions:
      discardSessions(self[id].scenes.map(\.number), of: id)
    case .detachScenes:
      // §1.4 "Suspended → Not running": the scenes go with the process,
      // silently; their sessions survive unless a force-quit discarded them.
      detachScenes(id)
    }
  }

  /// Applies a step of a memory check (`MemoryMonitor.reduce`) and its
  /// effects; a follow-up runs in the same loop, not by recursion, since
  /// jetsam may take a step per process.
  func run(_ event: MemoryEvent) throws {
    var next: MemoryEvent? = event
    while let event = next {
      next = nil
      for effect in memory.reduce(event, usedMB: memoryUsedMB, policy: policy) {
        switch effect {
        case .killOverLimit: try killOverLimit()
        case .recordLevel(let level): recordMemoryLevel(level)
        case .warnEveryApp: try sendMemoryWarnings()
        case .jetsam: next = try jetsamOnce() ? .lookAgain : .noVictim
        case .killBelow(let band, let reason):
          if let victim = processes.firstVictim(order: .bands), self[victim].band < band {
            try cascade(for: victim) { try systemKill(victim, reason: reason) }
            next = .pressure
          }
        case .then(let follow): next = follow
        }
      }
    }
  }

  /// Applies a background event of one process (`BackgroundTime.reduce`) and
  /// its effects; a follow-up runs in the same loop.
  func run(_ event: BackgroundEvent, for id: AppID) throws {
    var next: BackgroundEvent? = event
    while let event = next {
      next = nil
      let facts = backgroundFacts(id)
      let effects = self[id].background.reduce(event, facts: facts)
      for effect in effects {
        switch effect {
        case .askBudget:
          try run(.budget(try backgroundBudget(id)), for: id)
        case .schedule(let what, let at):
          kernel.schedule(.process(id, pid: self[id].pid, epoch: self[id].epoch, what), at: at)
        case .recordExpiration(let task):
          recordExpiration(id, task: task)
        case .runExpirationHandler(let token, let task):
          try runExpirationHandler(id, token, task: task)
        case .release(let token):
          host?.release(token, on: self)
        case .snapshot:
          // Asked here: with the trace off (a batch), no call at all.
          if trace.isEnabled { recordSnapshot(id) }
        case .suspend:
          try apply(.suspend, to: id)
        case .kill(let reason, let code):
          try systemKill(id, reason: reason, code: code, detail: reason == .fileLock ? fileLockDetail(id) : nil)
        case .terminateForExit:
          try terminateForExit(id)
        case .apply(let event):
          try apply(event, to: id)
        case .announceBackground:
          try announceBackground(id)
        case .deliver(let callback):
          try deliver(callback, to: id)
        case .refuseLaunch(let action):
          refuseLaunch(action, id)
        case .then(let follow):
          next = follow
        }
      }
    }
  }

  /// What the profile and the quirks say about launches without the user's tap.
  var systemLaunchFacts: SystemLaunchFacts { SystemLaunchFacts(profile: profile, quirks: quirks) }

  /// Applies a step of a prewarm, of the tap that ends it, or of an intent
  /// that does not open the app (`SystemLaunch.reduce`), and its effects; a
  /// follow-up runs in the same loop, reading the state the effects left.
  @inline(never)  // a rare step: see the top of this file
  func run(_ event: SystemLaunchEvent, for id: AppID) throws {
    var next: SystemLaunchEvent? = event
    while let event = next {
      next = nil
      let state = self[id].state, available = protectedData.available, facts = systemLaunchFacts
      for effect in SystemLaunch.reduce(event, prewarm: &self[id].prewarm, state: state,
                                        protectedDataAvailable: available, facts: facts) {
        switch effect {
        case .notPrewarmed:
          log("not prewarmed: iOS \(profile.version) does not prewarm apps (reference §2.1)", app: id)
        case .prewarmedBeforeMain:
          log("prewarmed before UIApplicationMain: the launch methods wait for the tap (quirk prewarm_skips_launch_methods, §8.11)", app: id)
        case .apply(let event): try apply(event, to: id)
        case .background(let event): try run(event, for: id)
        case .deliver(let callback): try deliver(callback, to: id)
        case .then(let follow): next = follow
        }
      }
    }
  }

  /// What the profile, the model and the quirks say about scene state restoration.
  var restorationFacts: RestorationFacts { RestorationFacts(profile: profile, model: model, quirks: quirks) }

  /// Applies a step of scene state restoration (`App.reduce(_: RestorationEvent)`)
  /// and its effects; what the scene delegate returns runs in the same loop.
  @inline(never)  // a rare step: see the top of this file
  func run(_ event: RestorationEvent, for id: AppID) throws {
    var next: RestorationEvent? = event
    while let event = next {
      next = nil
      for effect in self[id].reduce(event) {
        switch effect {
        case .ask(let scene):
          if case .token(let token) = try deliver(.stateRestorationActivity, to: id, scene: scene) {
            next = .returned(token, scene: scene)
          }
        case .release(let token):
          host?.release(token, on: self)
        }
      }
    }
  }

  /// What the profile, the policy and an app say about view controllers' rules.
  func viewControllerFacts(_ id: AppID) -> ViewControllerFacts {
    ViewControllerFacts(profile: profile, policy: policy, implemented: self[id].implemented)
  }

  /// Applies a step of the view controllers' rules (`ViewHierarchy.reduce`)
  /// for an app's view controllers, and its effects, in order.
  ///
  /// A step that leads to others (a follow-up, a step along the appearance
  /// machine, one forwarded to each child) runs each of them to its end
  /// before the next effect, as a call would; they are kept on a stack of
  /// their own (`rulesInProgress`), not the thread's, since children and
  /// their appearance steps nest as deep as a script makes them.
  func run(_ event: ViewControllerEvent, app id: AppID) throws {
    let base = rulesInProgress.count
    defer { rulesInProgress.removeSubrange(base...) }  // after an error, the steps it cut short
    beginRule(event, app: id)
    while rulesInProgress.count > base {
      let top = rulesInProgress.count - 1
      switch rulesInProgress[top] {
      case .effects(let effects, let next, let app):
        guard next < effects.count else {
          rulesInProgress.removeLast()
          continue
        }
        rulesInProgress[top] = .effects(effects, next: next + 1, app: app)
        try apply(effects[next], app: app)
      case .children(let children, let next, let step, let app):
        guard next < children.count else {
          rulesInProgress.removeLast()
          continue
        }
        rulesInProgress[top] = .children(children, next: next + 1, step: step, app: app)
        let child = children[next]
        switch step {
        case .isAppearing: beginRule(.childIsAppearing(child), app: app)
        case .appearance(let event): beginRule(.childAppearance(child, event), app: app)
        case .released: beginRule(.released(child), app: app)
        }
      }
    }
  }

  /// A step of the view controllers' rules starts: its effects wait on the stack.
  private func beginRule(_ event: ViewControllerEvent, app id: AppID) {
    rulesInProgress.append(.effects(objects.reduce(event, facts: viewControllerFacts(id)), next: 0, app: id))
  }

  /// One effect of a step of the view controllers' rules; one that leads to
  /// further steps puts them on the stack for `run` to take next.
  private func apply(_ effect: ViewControllerEffect, app id: AppID) throws {
    switch effect {
    case .walk(let kind, let a, let b):
      // B belongs to the window the change happens in.
      if let w = self[id].windows.firstIndex(where: { $0.scene == objects[vc: b].scene }) {
        try change(kind, a: a, b: b, app: id, window: w)
      }
    case .create(let vc): try createCallbacks(vc)
    case .loadView(let vc): try loadViewIfNeeded(vc)
    case .appear(let vc, let event): beginRule(.appearance(vc, event), app: objects[vc: vc].app)
    case .moveToWindow(let vc, let entering): try moveToWindow(objects.views(under: vc), entering: entering)
    case .deliver(let callback, let vc): try deliverUI(callback, vc: vc)
    case .layout(let vc, let passes): try layoutPass(vc, passes: passes)
    case .deallocViews(let vc): for v in objects.views(under: vc) { try deallocView(v) }
    case .forwardIsAppearing(let vc):
      rulesInProgress.append(.children(objects[vc: vc].children, next: 0, step: .isAppearing, app: id))
    case .deliverView(let callback, let v): try deliverUI(callback, view: v)
    case .moveSubtree(let v, let entering): try moveToWindow(objects.subtree(v), entering: entering)
    case .deallocSubtree(let v): for d in objects.subtree(v) { try deallocView(d) }
    case .took(let edge): coverage.took(.appearance, edge)
    case .outOfOrder(let vc, let event):
      throw SimulationError.inconsistent(
        "\(objects[vc: vc].spec.className) of \(self[id].config.bundle): \(event) while \(objects[vc: vc].appearance) (t=\(now))")
    case .forwardAppearance(let vc, let event):
      rulesInProgress.append(.children(objects[vc: vc].children, next: 0, step: .appearance(event), app: id))
    case .releaseChildren(let vc):
      rulesInProgress.append(.children(objects[vc: vc].children, next: 0, step: .released, app: id))
    case .then(let next):
      beginRule(next, app: id)
    }
  }

  // The effects below are rare; out of line, they leave the loops that
  // apply the common ones a few cache lines long.

  /// The system takes the app's snapshot for the switcher (§2.2).
  @inline(never)
  func recordSnapshot(_ id: AppID) {
    trace.append({ $0.app = id }, kind: .snapshot, at: now)
  }

  /// An app that exits on suspend terminates instead (§0, §3.7): its
  /// visible view controller disappears first.
  @inline(never)
  func terminateForExit(_ id: AppID) throws {
    try disappearForExit(id)
    deathReason = .exitsOnSuspend
    try apply(.terminate, to: id)
  }

  /// A background launch the user's force-quit refuses, said in the trace.
  @inline(never)
  func refuseLaunch(_ action: DeviceAction, _ id: AppID) {
    log("\(action) not delivered: the user force-quit \(self[id].config.bundle), and it gets no background launch until the user opens it", app: id)
  }

  /// §0 "Protected data": unavailable some time after a lock with a passcode.
  @inline(never)
  func lockProtectedData() {
    if let epoch = protectedData.deviceLocked() {
      kernel.schedule(.device(.protectedDataLock, epoch: epoch), at: now + policy.protectedDataDelay)
    }
  }

  /// Brings forward the app whose notification the user opened, with the
  /// notification set while the launch runs.
  @inline(never)
  func bringForwardOpening(_ id: AppID, remote: Bool, callback: Callback?) throws {
    openedNotification = OpenedNotification(app: id, remote: remote, callback: callback)
    defer { openedNotification = nil }
    try run(.bringToFront(id))
  }

  /// A process is gone (a kill, an exit, a termination): what its death does
  /// to each part, applied in one place. Unsaved changes become a
  /// `data_loss` record; the background part drops the tasks (their handlers
  /// released, never run), the audio and the deadlines (`BackgroundTime.reduce`);
  /// the watchdog armed for it is void; its timers go; the screen no longer
  /// shows it; its windows are released (`ViewHierarchy.reduce`). Its scenes
  /// detach after, as `SceneRules.processChanged` says. Protected data is the
  /// device's, not the process's: a death leaves it as it is.
  @inline(never)  // a rare step: see Device+Effects.swift
  func processEnded(_ id: AppID, pid: Int32) {
    if self[id].unsaved > 0 {
      let count = self[id].unsaved
      stats.dataLossEvents += 1
      stats.unsavedLost += count
      trace.append({
        $0.app = id; $0.reason = deathReason; $0.detail = "\(count) unsaved"; $0.unsaved = Int32(clamping: count)
      }, kind: .dataLoss, at: now)
    }
    deathReason = nil
    if self[id].background.holdsHandlers {
      releasing { try run(.processEnded, for: id) }
    } else {
      _ = self[id].background.ended()  // nothing to release: no effects
    }
    self[id].unsaved = 0
    self[id].prewarm = nil
    if !self[id].fileLocks.isEmpty { self[id].fileLocks.removeAll() }
    tasksEnded(id)
    watchdogs.processEnded(id)
    dropWaiting(of: id, pid: pid)
    scheduleMemoryCheck()
    // The parked timers first, then those still queued, in their order.
    if !self[id].parkedTimers.isEmpty {
      let parked = self[id].parkedTimers
      self[id].parkedTimers.removeAll()
      for event in parked {
        if case .appTimer(_, _, let token) = event.action { host?.release(token, on: self) }
      }
    }
    let queued = kernel.removeAll { event in
      if case .appTimer(let a, let p, _) = event.action { return a == id && p == pid }
      return false
    }
    for event in queued {
      if case .appTimer(_, _, let token) = event.action { host?.release(token, on: self) }
    }
    screen.appLeft(id)
    dropWindows(id)
  }

  /// The user swipes an app away in the switcher: a kill record for a process,
  /// then the cascade of §2.6 for the app's model.
  @inline(never)  // a rare step: see Device+Effects.swift
  func forceQuitCascade(_ id: AppID) throws {
    // The process dies after applicationWillTerminate: has run, so its kill
    // record comes then: just before its state becomes notRunning.
    if self[id].state.isRunning { pendingUserKill = id }
    defer { pendingUserKill = nil }
    let carried = self[id].takeActivitySurvivingForceQuit(facts: restorationFacts)  // §2.11, §8.12
    defer { releasing { try run(RestorationEvent.forceQuitEnded(surviving: carried), for: id) } }
    try cascade(for: id) {
      if self[id].model == .scene {
        try terminateScenes(id)
      } else {
        try walk(.userTerminate, id)
      }
    }
    screen.appLeft(id)
    try run(.forceQuit, for: id)
  }

  /// §2.9: the app delegate, then the notification, for every app that runs code.
  @inline(never)  // a rare step: see Device+Effects.swift
  func sendMemoryWarnings() throws {
    // The apps executing when the warning goes out, on the stack: it goes
    // out at every rise in pressure.
    try withUnsafeTemporaryAllocation(of: AppID.self, capacity: processes.apps.count) { ids in
      let n = processes.executing(into: ids)
      for app in ids[..<n] { try sendMemoryWarning(app) }
    }
  }

  private func sendMemoryWarning(_ app: AppID) throws {
    if !workFrames.isEmpty, isMainThreadBusy(app) {
      wait(app, .memoryWarning)  // §3.8
      return
    }
    stats.memoryWarnings += 1
    try cascade(for: app) {
      try deliver(.didReceiveMemoryWarning, to: app)
      try warnViewControllers(app)
    }
  }

  /// Walks an app along a route: a scene app walks its scenes
  /// (`walkScenes`), an app-delegate app its process (`walkAppDelegate`).
  /// Called directly, not as a `.walkScenes` effect, since no rule decides
  /// it: each trip through an effects' switch is a jump that rarely goes
  /// where the last one went.
  func walk(_ route: Route, _ id: AppID, url: String? = nil) throws {
    if route == .toActive { return try comingBack(id) { try walkInCascade(route, id, url: url) } }
    try walkInCascade(route, id, url: url)
  }

  private func walkInCascade(_ route: Route, _ id: AppID, url: String?) throws {
    try cascade(for: id) {
      if self[id].model == .scene { return try walkScenes(route, id, url: url) }
      try walkAppDelegate(route, id, url: url)
    }
  }

  /// Takes an app off the screen, then snapshot and suspension.
  func sendToBackground(_ id: AppID) throws {
    let wasForeground = self[id].state == .active || self[id].state == .inactive
    if wasForeground && exitsOnSuspend(id) && quirks.contains(.exitsOnSuspendTerminateOnly) {
      // §8.7, Apple's guide: no background state, only applicationWillTerminate:.
      try walk(.toInactive, id)
      guard self[id].state == .inactive else { return }  // killed in willResignActive
      try cascade(for: id) {
        try disappearForExit(id)
        deathReason = .exitsOnSuspend
        try apply(.terminate, to: id)
      }
      return
    }
    try walk(.toBackground, id)
    // Not when the user brought it back while its code ran: that waits (§3.8).
    if wasForeground && (waiting.isEmpty || systemState(id) != .active) { try settleInBackground(id) }
  }
}

/// A step of the view controllers' rules under way (`Device.run(_: ViewControllerEvent, app:)`):
/// its effects from `next` on, or the children a container forwards a step
/// to, from `next` on, each as they were when the forwarding began.
enum ViewControllerRuleFrame {
  case effects(Effects<ViewControllerEffect>, next: Int, app: AppID)
  case children([ObjectID], next: Int, step: ForwardedStep, app: AppID)

  /// What a container forwards to each child (§5.6).
  enum ForwardedStep {
    case isAppearing
    case appearance(AppearanceEvent)
    case released
  }
}
