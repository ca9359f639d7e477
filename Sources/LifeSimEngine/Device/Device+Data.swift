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

  /// `ctx:lock_file(name)`: the process takes a lock on a shared file (an
  /// SQLite database in an App Group container). Suspended while it holds
  /// one, it is killed with 0xdead10cc (§3.5.1).
  public func lockFile(app id: AppID, _ name: String) throws {
    guard self[id].state.isExecuting else {
      throw SimulationError.notExecuting(.lockFile, app: self[id].config.bundle, state: self[id].state)
    }
    guard !self[id].fileLocks.contains(name) else {
      throw SimulationError.invalidAction(.lockFile, .fileAlreadyLocked(app: self[id].config.bundle, file: name))
    }
    self[id].fileLocks.append(name)
  }

  /// `ctx:unlock_file(name)`: the lock goes.
  public func unlockFile(app id: AppID, _ name: String) throws {
    guard let i = self[id].fileLocks.firstIndex(of: name) else {
      throw SimulationError.invalidAction(.unlockFile, .fileNotLocked(app: self[id].config.bundle, file: name))
    }
    self[id].fileLocks.remove(at: i)
  }

  /// The kill record's detail of a process suspended holding locks (§3.5.1).
  func fileLockDetail(_ id: AppID) -> String {
    let files = self[id].fileLocks.map { "'\($0)'" }.joined(separator: ", ")
    return "suspended holding a lock on \(files): 0xdead10cc, no callback"
  }
}
