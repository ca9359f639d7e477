/// One row of a recorded app-usage trace (`lifesim.workload.replay`):
/// at `time` after the replay starts, the user does `event`, to `app` where the
/// event names one.
public struct UsageEvent: Sendable, Equatable {
  public enum Kind: String, CaseIterable, Sendable {
    /// Open the app from its icon (a cold launch or a return to the foreground).
    case open
    /// Open the app from a notification.
    case notification
    /// Pick the app in the app switcher.
    case `switch`
    /// Press Home.
    case home
    case lock, unlock
    /// Swipe the app away in the switcher.
    case quit
  }

  public var time: SimTime
  public var app: AppID?
  public var kind: Kind

  public init(time: SimTime, app: AppID?, kind: Kind) {
    self.time = time
    self.app = app
    self.kind = kind
  }

  /// Whether the event needs an app.
  public var needsApp: Bool {
    switch kind {
    case .open, .notification, .switch, .quit: return true
    case .home, .lock, .unlock: return false
    }
  }
}

extension Device {
  /// Replays recorded usage: each event at its time after now, in order. Events
  /// must not go back in time. Between them the device runs as under `advance`.
  /// - Throws: `invalidAction` for a row that goes back in time, and
  ///   `replayRow` around what a row's action throws (rows count from 1).
  public func replay(_ events: [UsageEvent]) throws {
    let start = now
    var last = SimTime.zero
    if let end = events.last?.time { try checkDriveLength(end, .replay) }
    for (i, e) in events.enumerated() {
      guard e.time >= last else {
        throw SimulationError.invalidAction(.replay, .backInTime(row: i + 1, time: e.time, last: last))
      }
      last = e.time
      try step()
      try advance(by: start + e.time - now)
      do {
        try replayEvent(e)
      } catch let e as SimulationError {
        switch e {
        case .handlerFailed, .processKilled: throw e
        default: throw SimulationError.replayRow(i + 1, e)
        }
      }
    }
  }

  private func replayEvent(_ e: UsageEvent) throws {
    func app() throws -> AppID {
      guard let a = e.app else {
        throw SimulationError.invalidAction(.replay, .eventNeedsApp(kind: e.kind.rawValue))
      }
      return a
    }
    switch e.kind {
    case .open: try launch(app())
    case .notification:
      // A notification tapped on the lock screen unlocks, then opens its app.
      if isLocked { try unlock() }
      try launch(app())
    case .switch: try switchTo(app())
    case .quit: try forceQuit(app())
    case .home: try home()
    case .lock: if !isLocked { try lock() }
    case .unlock: if isLocked { try unlock() }
    }
  }
}
