// Unsaved changes and saving: a process that dies holding unsaved
// changes leaves a `data_loss` record (see `processEnded`).
extension Device {
  /// `ctx:dirty(n)`: the app now holds `n` more unsaved changes.
  public func markDirty(app id: AppID, count: Int) throws {
    guard self[id].state.isExecuting else {
      throw SimulationError.notExecuting(.markDirty, app: self[id].config.bundle, state: self[id].state)
    }
    self[id].unsaved += max(0, count)
  }

  /// `ctx:save{ seconds = s }`: the save takes `s` of the handler's time (so a
  /// watchdog may end it first), then the changes are safe.
  public func save(app id: AppID, taking duration: SimTime) throws {
    guard self[id].state.isExecuting else {
      throw SimulationError.notExecuting(.save, app: self[id].config.bundle, state: self[id].state)
    }
    if duration > .zero { try work(duration) }
    self[id].unsaved = 0
  }
}
