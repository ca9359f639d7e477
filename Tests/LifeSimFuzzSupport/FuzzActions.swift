import LifeSimEngine

/// One action of the fuzzer's random sequences, with what was drawn for it.
public enum FuzzAction: Sendable {
  case launch, openURL, home, lock, unlock
  case interrupt(Interruption), endInterrupt(accept: Bool)
  case switcher, switchTo, kill, memoryWarning
  case advance(seconds: Int64)
  case backgroundFetch, silentPush, openScene, closeScene, disconnectScene
  case push(ObjectSpec), pop, popGesture(cancel: Bool)
  case present(ObjectSpec, ModalStyle?), dismiss, dismissGesture(cancel: Bool)
  case rotate, addView(ObjectSpec), removeView

  /// Its name, as the fuzzer reports a failing step.
  public var name: String {
    switch self {
    case .launch: return "launch"
    case .openURL: return "open_url"
    case .home: return "home"
    case .lock: return "lock"
    case .unlock: return "unlock"
    case .interrupt: return "interrupt"
    case .endInterrupt: return "end_interrupt"
    case .switcher: return "switcher"
    case .switchTo: return "switch_to"
    case .kill: return "kill"
    case .memoryWarning: return "memory_warning"
    case .advance: return "advance"
    case .backgroundFetch: return "background_fetch"
    case .silentPush: return "silent_push"
    case .openScene: return "open_scene"
    case .closeScene: return "close_scene"
    case .disconnectScene: return "disconnect_scene"
    case .push: return "push"
    case .pop: return "pop"
    case .popGesture: return "pop_gesture"
    case .present: return "present"
    case .dismiss: return "dismiss"
    case .dismissGesture: return "dismiss_gesture"
    case .rotate: return "rotate"
    case .addView: return "add_view"
    case .removeView: return "remove_view"
    }
  }

  /// Takes it on `device`, for `app`. A refusal is thrown like any error.
  public func take(on device: Device, app: AppID) throws {
    switch self {
    case .launch: try device.launch(app)
    case .openURL: try device.openURL(app, url: "fuzz://x")
    case .home: try device.home()
    case .lock: try device.lock()
    case .unlock: try device.unlock()
    case .interrupt(let i): try device.interrupt(i)
    case .endInterrupt(let accept): try device.endInterrupt(accept: accept)
    case .switcher: try device.openSwitcher()
    case .switchTo: try device.switchTo(app)
    case .kill: try device.forceQuit(app)
    case .memoryWarning: try device.memoryWarning()
    case .advance(let s): try device.advance(by: .seconds(s))
    case .backgroundFetch: try device.backgroundFetch(app)
    case .silentPush: try device.silentPush(app)
    case .openScene: _ = try device.openScene(app)
    case .closeScene: if let s = device[app].scenes.first { try device.closeScene(app, scene: s.number) }
    case .disconnectScene: if let s = device[app].scenes.last { try device.disconnectScene(app, scene: s.number) }
    case .push(let spec): _ = try device.push(spec, app: app)
    case .pop: try device.pop(app: app)
    case .popGesture(let cancel): try device.popGesture(app: app, cancel: cancel)
    case .present(let spec, let style): _ = try device.present(spec, style: style, app: app)
    case .dismiss: try device.dismiss(app: app)
    case .dismissGesture(let cancel): try device.dismissGesture(app: app, cancel: cancel)
    case .rotate: try device.rotate()
    case .addView(let spec): if let top = device.top(of: app) { _ = try device.addView(spec, to: .viewController(top)) }
    case .removeView:
      if let top = device.top(of: app), let v = device.viewController(top).subviews.first { try device.removeView(v) }
    }
  }

  /// The kinds, in the order the fuzzer draws from.
  static let count = 26

  /// Draws the app and the action the fuzzer takes next, and what the
  /// action needs, in the order the fuzzer always drew them: the same seed
  /// gives the same sequence.
  public static func draw(_ rng: inout SeededGenerator, apps: [AppID]) -> (app: AppID, action: FuzzAction) {
    func pick<T>(_ items: [T]) -> T { items[Int(rng.next() % UInt64(items.count))] }
    let app = pick(apps)
    let spec = ObjectSpec(className: pick(["A", "B", "C"]), creation: pick(Creation.allCases))
    let action: FuzzAction
    switch Int(rng.next() % UInt64(count)) {
    case 0: action = .launch
    case 1: action = .openURL
    case 2: action = .home
    case 3: action = .lock
    case 4: action = .unlock
    case 5: action = .interrupt(pick(Interruption.allCases))
    case 6: action = .endInterrupt(accept: rng.next() % 2 == 0)
    case 7: action = .switcher
    case 8: action = .switchTo
    case 9: action = .kill
    case 10: action = .memoryWarning
    case 11: action = .advance(seconds: Int64(rng.next() % 700))
    case 12: action = .backgroundFetch
    case 13: action = .silentPush
    case 14: action = .openScene
    case 15: action = .closeScene
    case 16: action = .disconnectScene
    case 17: action = .push(spec)
    case 18: action = .pop
    case 19: action = .popGesture(cancel: rng.next() % 2 == 0)
    case 20: action = .present(spec, pick(ModalStyle.allCases + [nil]))
    case 21: action = .dismiss
    case 22: action = .dismissGesture(cancel: rng.next() % 2 == 0)
    case 23: action = .rotate
    case 24: action = .addView(spec)
    default: action = .removeView
    }
    return (app, action)
  }
}
