/// A documented variant of the default behaviour, for a point where the
/// sources disagree (reference §8). Every quirk is off by default; a device
/// turns it on with `lifesim.device{ quirks = { name = true } }`.
public enum Quirk: UInt8, CaseIterable, Sendable, CustomStringConvertible {
  /// §8.2: Neuburg's early-iOS-13 account of a force-quit on iPhone. The
  /// frontmost scene gets `sceneDidEnterBackground:`, then the app gets
  /// `applicationWillTerminate:`; there is no `sceneDidDisconnect:`, and the
  /// discarded sessions are reported at the next launch instead.
  case sceneForceQuitEntersBackground
  /// §8.3: the Xcode template's comment: a scene disconnects "shortly after the
  /// scene enters the background". Here it disconnects right after
  /// `sceneDidEnterBackground:`, and a return reconnects it (with no configuration request).
  case disconnectOnBackground
  /// §8.7: Apple's guide for `UIApplicationExitsOnSuspend`: there is no
  /// background state, so Home gives `applicationWillResignActive:` then
  /// `applicationWillTerminate:`, with no `applicationDidEnterBackground:`.
  case exitsOnSuspendTerminateOnly
  /// §8.1: Apple's article on the background execution sequence: a background
  /// launch or wake gets `applicationDidEnterBackground:` (step 2) before the
  /// event. The default follows the iOS 7 radar: no such call.
  case backgroundLaunchEntersBackground
  /// §8.8: the launch interleaving "flipped" in iOS 8 and 11 (Neuburg): the root
  /// view controller's `viewDidAppear:` comes before `…DidBecomeActive:`.
  case rootAppearsBeforeActive
  /// §8.11: Apple DTS: from late iOS 15 a prewarm stops before the launch
  /// methods, which then run at the user's tap. The default follows the field
  /// reports up to iOS 18, where they run during the prewarm.
  case prewarmSkipsLaunchMethods
  /// §8.12: Apple's sample documentation: a force-quit deletes the scenes'
  /// preserved state. The default follows an iOS 15 bug report, where
  /// the relaunch still receives it.
  case forceQuitDeletesRestoration

  /// The name scripts use.
  public var description: String { row.name }

  /// The reference section that documents the contradiction.
  public var reference: String { row.reference }

  /// One line for help texts and errors.
  public var summary: String { row.summary }

  public init?(name: String) {
    guard let quirk = Quirk.allCases.first(where: { $0.description == name }) else { return nil }
    self = quirk
  }

  // A switch, not arrays indexed by the raw value: a case added out of order
  // would give the quirks after it each other's names without a word.
  private var row: (name: String, reference: String, summary: String) {
    switch self {
    case .sceneForceQuitEntersBackground:
      return ("scene_force_quit_enters_background", "§8.2",
              "force-quit of a frontmost scene app gives sceneDidEnterBackground: then applicationWillTerminate: (early iOS 13, iPhone)")
    case .disconnectOnBackground:
      return ("disconnect_on_background", "§8.3", "a scene disconnects right after sceneDidEnterBackground:")
    case .exitsOnSuspendTerminateOnly:
      return ("exits_on_suspend_terminate_only", "§8.7",
              "UIApplicationExitsOnSuspend apps get applicationWillTerminate: with no applicationDidEnterBackground:")
    case .backgroundLaunchEntersBackground:
      return ("background_launch_enters_background", "§8.1",
              "a background launch or wake gets applicationDidEnterBackground: before the event (Apple's article)")
    case .rootAppearsBeforeActive:
      return ("root_appears_before_active", "§8.8",
              "the root view controller's viewDidAppear: comes before …DidBecomeActive: at launch (iOS 8, 11 per Neuburg)")
    case .prewarmSkipsLaunchMethods:
      return ("prewarm_skips_launch_methods", "§8.11",
              "a prewarm runs no launch methods; they run at the user's tap (Apple DTS, late iOS 15)")
    case .forceQuitDeletesRestoration:
      return ("force_quit_deletes_restoration", "§8.12",
              "a force-quit deletes the scenes' restoration activities (Apple's sample documentation)")
    }
  }
}

/// A set of quirks, as a bit mask.
public struct QuirkSet: Equatable, Sendable {
  public var bits: UInt32 = 0
  public init() {}
  public init(_ quirks: [Quirk]) { for q in quirks { insert(q) } }
  @inline(__always)
  public func contains(_ q: Quirk) -> Bool { bits & (1 << UInt32(q.rawValue)) != 0 }
  @inline(__always)
  public mutating func insert(_ q: Quirk) { bits |= 1 << UInt32(q.rawValue) }
  /// The quirks in the set, in declaration order.
  public var members: [Quirk] { Quirk.allCases.filter(contains) }
}
