import LifeSimEngine

/// One action of the fuzzer's random sequences, with what was drawn for it.
///
/// The fuzzer draws from the action table (`ActionRow.table`): an action
/// whose row runs it with the app alone (`ActionRow.run`) is `.row` and needs
/// nothing here. The other cases are the actions that need something drawn
/// the row cannot supply (an interruption, an object, a scene, a flag), and
/// `advance`, which is the clock's and not an action of the table. A row the
/// fuzzer does not draw is in `notDrawn`, with why.
public enum FuzzAction: Sendable {
  /// An action its row runs, with the app when it takes one.
  case row(DeviceAction)
  case openURL
  case interrupt(Interruption), endInterrupt(accept: Bool)
  case openNotification(remote: Bool), notify(remote: Bool), runIntent(opensApp: Bool)
  case openScene, closeScene, disconnectScene
  case push(ObjectSpec), pop, popGesture(cancel: Bool)
  case present(ObjectSpec, ModalStyle?), dismiss, dismissGesture(cancel: Bool)
  case addView(ObjectSpec), removeView, addChild(ObjectSpec), removeFromParent
  case advance(seconds: Int64)

  /// The rows of the table the fuzzer never draws, and why.
  public static let notDrawn: [DeviceAction: String] = [
    .mark: "not a user's action: a position in the trace",
    .runTask: "BGTaskScheduler: the fuzzer's apps register no launch handlers, so no request is pending",
    .expireTask: "BGTaskScheduler: the fuzzer's apps run no tasks",
    .charging: "a condition only BGTaskScheduler reads, which the fuzzer's apps do not use",
    .network: "a condition only BGTaskScheduler reads, which the fuzzer's apps do not use",
    .cancelTask: "BGTaskScheduler: the fuzzer's apps run no continued tasks",
    .backgroundRefresh: "a setting whose only effect on the fuzzer's apps, background fetch refused, the engine's own tests cover",
    .lowPowerMode: "a setting whose only effect on the fuzzer's apps, background fetch refused, the engine's own tests cover",
  ]

  /// The action of the table it is; nil for `advance`.
  public var action: DeviceAction? {
    switch self {
    case .row(let a): return a
    case .openURL: return .openURL
    case .interrupt: return .interrupt
    case .endInterrupt: return .endInterrupt
    case .openNotification: return .openNotification
    case .notify: return .notify
    case .runIntent: return .runIntent
    case .openScene: return .openScene
    case .closeScene: return .closeScene
    case .disconnectScene: return .disconnectScene
    case .push: return .push
    case .pop: return .pop
    case .popGesture: return .popGesture
    case .present: return .present
    case .dismiss: return .dismiss
    case .dismissGesture: return .dismissGesture
    case .addView: return .addView
    case .removeView: return .removeView
    case .addChild: return .addChild
    case .removeFromParent: return .removeFromParent
    case .advance: return nil
    }
  }

  /// Its name, as the fuzzer reports a failing step: its row's.
  public var name: String { action?.row.name ?? "advance" }

  /// A row the fuzzer drew that cannot run it: a new action that needs a
  /// case of its own here, or a reason in `notDrawn`.
  public struct RowWithoutRun: Error, CustomStringConvertible {
    public let action: DeviceAction
    public var description: String {
      "\(action) has no run in its row: FuzzAction needs a case for it, or a reason in notDrawn"
    }
  }

  /// Takes it on `device`, for `app`. A refusal is thrown like any error.
  public func take(on device: Device, app: AppID) throws {
    switch self {
    case .row(let a):
      guard let run = a.row.run else { throw RowWithoutRun(action: a) }
      try run(device, app)
    case .openURL: try device.openURL(app, url: "fuzz://x")
    case .interrupt(let i): try device.interrupt(i)
    case .endInterrupt(let accept): try device.endInterrupt(accept: accept)
    case .openNotification(let remote): try device.openNotification(app, remote: remote)
    case .notify(let remote): try device.notify(app, remote: remote)
    case .runIntent(let opensApp): try device.runIntent(app, name: "Fuzz", opensApp: opensApp)
    case .openScene: _ = try device.openScene(app)
    case .closeScene: if let s = device[app].scenes.first { try device.closeScene(app, scene: s.number) }
    case .disconnectScene: if let s = device[app].scenes.last { try device.disconnectScene(app, scene: s.number) }
    case .push(let spec): _ = try device.push(spec, app: app)
    case .pop: try device.pop(app: app)
    case .popGesture(let cancel): try device.popGesture(app: app, cancel: cancel)
    case .present(let spec, let style): _ = try device.present(spec, style: style, app: app)
    case .dismiss: try device.dismiss(app: app)
    case .dismissGesture(let cancel): try device.dismissGesture(app: app, cancel: cancel)
    case .addView(let spec): if let top = device.top(of: app) { _ = try device.addView(spec, to: .viewController(top)) }
    case .removeView:
      if let top = device.top(of: app), let v = device.viewController(top).subviews.first { try device.removeView(v) }
    case .addChild(let spec): if let top = device.top(of: app) { _ = try device.addChild(spec, to: top) }
    case .removeFromParent:
      if let top = device.top(of: app), let c = device.viewController(top).children.first { try device.removeFromParent(c) }
    case .advance(let s): try device.advance(by: .seconds(s))
    }
  }

  /// What the fuzzer draws from: the table's actions in table order, less
  /// `notDrawn`, then `advance` (nil).
  static let kinds: [DeviceAction?] = DeviceAction.allCases.filter { notDrawn[$0] == nil } + [nil]

  /// Draws the app and the action the fuzzer takes next, and what the
  /// action needs, always in the same order: the same seed gives the same
  /// sequence.
  public static func draw(_ rng: inout SeededGenerator, apps: [AppID]) -> (app: AppID, action: FuzzAction) {
    func pick<T>(_ items: [T]) -> T { items[Int(rng.next() % UInt64(items.count))] }
    func flip() -> Bool { rng.next() % 2 == 0 }
    let app = pick(apps)
    let spec = ObjectSpec(className: pick(["A", "B", "C"]), creation: pick(Creation.allCases))
    guard let kind = pick(kinds) else { return (app, .advance(seconds: Int64(rng.next() % 700))) }
    let action: FuzzAction
    switch kind {
    case .openURL: action = .openURL
    case .interrupt: action = .interrupt(pick(Interruption.allCases))
    case .endInterrupt: action = .endInterrupt(accept: flip())
    case .openNotification: action = .openNotification(remote: flip())
    case .notify: action = .notify(remote: flip())
    case .runIntent: action = .runIntent(opensApp: flip())
    case .openScene: action = .openScene
    case .closeScene: action = .closeScene
    case .disconnectScene: action = .disconnectScene
    case .push: action = .push(spec)
    case .pop: action = .pop
    case .popGesture: action = .popGesture(cancel: flip())
    case .present: action = .present(spec, pick(ModalStyle.allCases + [nil]))
    case .dismiss: action = .dismiss
    case .dismissGesture: action = .dismissGesture(cancel: flip())
    case .addView: action = .addView(spec)
    case .removeView: action = .removeView
    case .addChild: action = .addChild(spec)
    case .removeFromParent: action = .removeFromParent
    default: action = .row(kind)
    }
    return (app, action)
  }
}
