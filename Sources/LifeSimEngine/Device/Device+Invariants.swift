// The device's invariants, checked after every action and clock step in debug
// builds and tests (STYLE §7). Release builds skip them.
extension Device {
  /// Traps with a message naming the app and the time when an invariant fails.
  func checkInvariants() {
    #if DEBUG
    var active = 0
    for app in apps {
      let where_ = "\(app.config.bundle) at t=\(now)"
      if app.state == .active {
        active += 1
        precondition(frontmost == app.id, "\(where_): active but not frontmost")
        precondition(!isLocked && interruption == nil && !isSwitcherOpen,
                     "\(where_): active behind a lock, an interruption or the switcher")
      }
      if app.state == .inactive {
        precondition(frontmost == app.id, "\(where_): inactive but not on screen")
      }
      precondition(app.state.isRunning == (app.pid != 0), "\(where_): pid \(app.pid) in state \(app.state)")
      precondition(app.parkedTimers.isEmpty || app.state == .suspended,
                   "\(where_): parked timers while \(app.state)")
      checkScenes(app, where_)
      checkWindows(app, where_)
      precondition(app.tasks.isEmpty || app.state.isExecuting, "\(where_): open tasks while \(app.state)")
      precondition(app.state != .suspended || !isHeld(app.id),
                   "\(where_): suspended while a task, audio or a window holds it")
    }
    precondition(active <= 1, "t=\(now): \(active) apps are active at once")
    if let f = frontmost {
      precondition(self[f].state.isRunning, "\(self[f].config.bundle) at t=\(now): frontmost but not running")
    }
    #endif
  }

  /// View controllers (reference §5.4): between transitions, the ones on screen
  /// have appeared (the root may wait for the activation) and the others have
  /// disappeared; nothing in a hierarchy is deallocated.
  private func checkWindows(_ app: App, _ where_: String) {
    if !app.state.isRunning { precondition(app.windows.isEmpty, "\(where_): windows without a process") }
    for window in app.windows {
      precondition(!window.stack.isEmpty && !window.transitioning, "\(where_): a window without a root, or mid-transition")
      guard window.shown else { continue }
      let onScreen = visible(in: window)
      for vc in window.hierarchy {
        let c = viewController(vc)
        if onScreen.contains(vc) {
          let expected: Appearance = window.awaitingDidAppear ? .appearing : .appeared
          precondition(c.appearance == expected,
                       "\(where_): \(c.spec.className) #\(c.instance) is on screen but \(c.appearance)")
        } else {
          // Off screen: disappeared, or still "appeared" under a sheet that a
          // full-screen presentation then covered (UIKit tells only the presenter).
          precondition(c.appearance == .disappeared || c.appearance == .appeared,
                       "\(where_): \(c.spec.className) #\(c.instance) is off screen but \(c.appearance)")
        }
        for v in c.subviews.flatMap(subtree) {
          precondition(!view(v).deallocated && view(v).inWindow == c.inWindow,
                       "\(where_): view \(view(v).spec.className) #\(view(v).instance) out of step with its view controller")
        }
      }
    }
  }

  /// The scene model's invariants (reference §1.2, §1.3).
  private func checkScenes(_ app: App, _ where_: String) {
    let states = app.scenes.map(\.state)
    if app.model == .appDelegate {
      precondition(app.scenes.isEmpty && app.discardedSessions.isEmpty, "\(where_): scenes in the app-delegate model")
      return
    }
    if app.state.isExecuting, let implied = SceneLifecycle.appState(of: states) {
      precondition(implied == app.state, "\(where_): scenes imply \(implied) but the app is \(app.state)")
    }
    if !app.state.isRunning {
      precondition(states.allSatisfy { $0 == .unattached }, "\(where_): a scene is connected to a dead process")
    }
    if app.state == .suspended {
      precondition(!states.contains(where: \.isForeground), "\(where_): a foreground scene in a suspended process")
    }
    precondition(states.filter(\.isForeground).count <= 1, "\(where_): more than one scene on screen")
    if states.contains(where: \.isForeground) {
      precondition(frontmost == app.id, "\(where_): a scene on screen but the app is not frontmost")
    }
    precondition(app.discardedSessions.allSatisfy { n in !app.scenes.contains { $0.number == n } },
                 "\(where_): a discarded session is still open")
    precondition(app.discardedSessions.isEmpty || !app.state.isExecuting,
                 "\(where_): discarded sessions not reported to a running process")
  }
}
