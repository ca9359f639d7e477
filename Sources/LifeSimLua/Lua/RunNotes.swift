import CLua
import CLuaShim
import LifeSimEngine

// The end of a run, said on standard error: what the script asked for that
// the lifecycle model can never do, and what it left undone. The engine
// gives the facts (`Device.unreachableHandlers`, `Device.leftoverWork`);
// this file words them.

extension LuaRuntime {
  /// Warnings about handlers that can never run, and notes about timers and
  /// background tasks still pending, for every device the script made, in the
  /// order the devices were made. Each line starts with "lifesim: ".
  /// `includingLeftovers: false` leaves out the notes on pending work (a test
  /// case that ends with a timer pending is no mistake).
  public func endOfRunNotes(includingLeftovers: Bool = true) -> [String] {
    var lines: [String] = []
    for id in devices.ids {
      guard let slot = devices[id] else { continue }
      let device = slot.device
      let prefix = devices.count > 1 ? "device \(id + 1): " : ""
      for h in device.unreachableHandlers {
        lines.append("lifesim: warning: \(prefix)\(describe(h, on: device))")
      }
      if device.heldByWork > 0 {
        let n = device.heldByWork
        lines.append("lifesim: note: \(prefix)\(n == 1 ? "once" : "\(n) times") something was done later than the script asked, "
                     + "held by a handler's work (ctx:work): lifesim runs one handler's code at a time, an action of a dev:at "
                     + "function returns when its handlers have, and a workload's user draws an act's time when the act before it "
                     + "is done (the trace's wait records say what and how long; reference §3.8)")
      }
      guard includingLeftovers else { continue }
      let left = device.leftoverWork
      guard !left.isEmpty else { continue }
      for work in left {
        lines.append("lifesim: note: \(prefix)\(describe(work, on: slot))")
      }
      lines.append("lifesim: note: \(prefix)the script ended at \(format(device.now)); "
                   + "dev:advance(seconds) or dev:run() lets pending work happen")
    }
    return lines
  }

  private func describe(_ h: UnreachableHandler, on device: Device) -> String {
    let app = device[h.app].config.bundle
    let name = h.callback.selector
    let version = device.profile.version
    var s: String
    switch h.reason {
    case .sceneModel:
      s = "\(app) handles \(name), which iOS \(version) never calls for an app with scenes"
    case .appDelegateModel:
      s = "\(app) handles \(name), which iOS \(version) never calls for an app without scenes "
        + "(dev:install{ scenes = false })"
    case .noScenes(let v):
      s = "\(app) handles \(name), but iOS \(v) has no scenes"
    case .absent(let v):
      s = "\(app) handles \(name), which iOS \(v) does not have"
    }
    if let instead = h.instead {
      let whose = instead.receiver == .sceneDelegate ? "the scene delegate's " : ""
      s += "; it calls \(whose)\(instead.selector) instead"
    }
    return s + " (reference \(h.reference)); this handler never ran"
  }

  private func describe(_ work: LeftoverWork, on slot: DeviceSlot) -> String {
    let device = slot.device
    switch work.kind {
    case .scriptTimer(let token):
      return "a timer (\(origin(of: token, in: slot))) was still pending, due at \(format(work.due ?? device.now))"
    case .appTimer(let id, let token, let parked):
      let app = device[id].config.bundle
      let when = parked ? "held while \(app) is suspended, due since \(format(work.due ?? device.now))"
                        : "due at \(format(work.due ?? device.now))"
      return "\(app)'s ctx:after timer (\(origin(of: token, in: slot))) was still pending, \(when)"
    case .backgroundTask(let id, let name, let began):
      let app = device[id].config.bundle
      return "\(app) still holds background task '\(name)', begun at \(format(began)) and never ended"
    }
  }

  /// Where the timer's function was defined (`file:line`), or "a function".
  private func origin(of token: HostToken, in slot: DeviceSlot) -> String {
    let top = lua_gettop(L)
    defer { lua_settop(L, top) }
    slot.pushSlot(Int32(token.rawValue))
    return withFunctionOrigin { src, line in
      let source = String(decoding: src, as: UTF8.self)
      return line > 0 ? "function at \(source):\(line)" : "function in \(source)"
    } ?? "a function"
  }

  private func format(_ t: SimTime) -> String {
    "t=\(formatNumber(t.seconds)) s"
  }
}
