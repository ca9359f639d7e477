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
    }
    precondition(active <= 1, "t=\(now): \(active) apps are active at once")
    if let f = frontmost {
      precondition(self[f].state.isRunning, "\(self[f].config.bundle) at t=\(now): frontmost but not running")
    }
    #endif
  }
}
