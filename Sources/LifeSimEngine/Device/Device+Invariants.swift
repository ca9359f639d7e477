// The device's invariants, checked after every action and clock step in debug
// builds and tests. Release builds skip them.
extension Device {
  /// Traps with a message naming the app and the time when an invariant fails,
  /// unless `trapsOnViolation` is off (the fuzzer collects them instead).
  func checkInvariants() {
    #if DEBUG
    guard trapsOnViolation else { return }
    let found = invariantViolations()
    precondition(found.isEmpty, found.joined(separator: "\n"))
    #endif
  }

  /// Every invariant that does not hold now, each naming the app and the time.
  public func invariantViolations() -> [String] {
    var found: [String] = []
    var active = 0
    for app in apps {
      let where_ = "\(app.config.bundle) at t=\(now)"
      if app.state == .active {
        active += 1
        expect(frontmost == app.id, "\(where_): active but not frontmost", &found)
        expect(screen.isClear,
                     "\(where_): active behind a lock, an interruption or the switcher", &found)
      }
      if app.state == .inactive {
        expect(frontmost == app.id, "\(where_): inactive but not on screen", &found)
      }
      expect(app.state.isRunning == (app.pid != 0), "\(where_): pid \(app.pid) in state \(app.state)", &found)
      expect(app.parkedTimers.isEmpty || app.state == .suspended,
                   "\(where_): parked timers while \(app.state)", &found)
      checkScenes(app, where_, &found)
      found += app.scenes.violations().map { "\(where_): \($0)" }
      found += app.bgTasks.violations().map { "\(where_): \($0)" }
      expect(app.bgTasks.running.isEmpty || app.state.isExecuting, "\(where_): BGTaskScheduler tasks running while \(app.state)", &found)
      checkWindows(app, where_, &found)
      expect(app.tasks.isEmpty || app.state.isExecuting, "\(where_): open tasks while \(app.state)", &found)
      expect(app.state != .suspended || !isHeld(app.id),
                   "\(where_): suspended while a task, audio or a window holds it", &found)
    }
    expect(active <= 1, "t=\(now): \(active) apps are active at once", &found)
    // Each part's own invariants.
    found += processes.violations().map { "process table at t=\(now): \($0)" }
    found += objects.violations().map { "view hierarchy at t=\(now): \($0)" }
    if let w = watchdogs.armed {
      expect(self[w.app].state.isExecuting, "t=\(now): a \(w.kind) watchdog watches \(self[w.app].config.bundle), which is \(self[w.app].state)", &found)
    }
    if let f = frontmost {
      expect(self[f].state.isRunning, "\(self[f].config.bundle) at t=\(now): frontmost but not running", &found)
    }
    return found
  }

  private func expect(_ ok: Bool, _ message: @autoclosure () -> String, _ found: inout [String]) {
    if !ok { found.append(message()) }
  }

  /// View controllers (reference §5.4): between transitions, the ones on screen
  /// have appeared (the root may wait for the activation) and the others have
  /// disappeared; nothing in a hierarchy is deallocated.
  private func checkWindows(_ app: App, _ where_: String, _ found: inout [String]) {
    if !app.state.isRunning { expect(app.windows.isEmpty, "\(where_): windows without a process", &found) }
    for window in app.windows {
      expect(!window.stack.isEmpty && !window.changing, "\(where_): a window without a root, or mid-transition", &found)
      guard window.shown else { continue }
      let onScreen = visible(in: window)
      for vc in window.hierarchy {
        let c = objects[vc: vc]
        if onScreen.contains(vc) {
          let expected: Appearance = window.awaitingDidAppear ? .appearing : .appeared
          expect(c.appearance == expected,
                       "\(where_): \(c.spec.className) #\(c.instance) is on screen but \(c.appearance)", &found)
        } else {
          // Off screen: disappeared, or still "appeared" under a sheet that a
          // full-screen presentation then covered (UIKit tells only the presenter).
          expect(c.appearance == .disappeared || c.appearance == .appeared,
                       "\(where_): \(c.spec.className) #\(c.instance) is off screen but \(c.appearance)", &found)
        }
        for v in c.subviews.flatMap(objects.subtree) {
          expect(!objects[view: v].deallocated && objects[view: v].inWindow == c.inWindow,
                       "\(where_): view \(objects[view: v].spec.className) #\(objects[view: v].instance) out of step with its view controller", &found)
        }
      }
    }
  }

  /// The scene model's invariants (reference §1.2, §1.3).
  private func checkScenes(_ app: App, _ where_: String, _ found: inout [String]) {
    let states = app.scenes.map(\.state)
    if app.model == .appDelegate {
      expect(app.scenes.isEmpty && app.discardedSessions.isEmpty, "\(where_): scenes in the app-delegate model", &found)
      return
    }
    if app.state.isExecuting, let implied = SceneLifecycle.appState(of: states) {
      expect(implied == app.state, "\(where_): scenes imply \(implied) but the app is \(app.state)", &found)
    }
    if !app.state.isRunning {
      expect(states.allSatisfy { $0 == .unattached }, "\(where_): a scene is connected to a dead process", &found)
    }
    if app.state == .suspended {
      expect(!states.contains(where: \.isForeground), "\(where_): a foreground scene in a suspended process", &found)
    }
    // §1.2 "Windows side by side": only an iPad shows several at once.
    if model?.showsWindowsSideBySide != true {
      expect(states.filter(\.isForeground).count <= 1, "\(where_): more than one scene on screen", &found)
    }
    if states.contains(where: \.isForeground) {
      expect(frontmost == app.id, "\(where_): a scene on screen but the app is not frontmost", &found)
    }
    expect(app.discardedSessions.allSatisfy { n in !app.scenes.contains { $0.number == n } },
                 "\(where_): a discarded session is still open", &found)
    expect(app.discardedSessions.isEmpty || !app.state.isExecuting,
                 "\(where_): discarded sessions not reported to a running process", &found)
  }
}
