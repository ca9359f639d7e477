/// The facts about one iOS major version that the engine reads.
///
/// This is the one table of version facts (reference §7); nothing else in the
/// engine tests the version number. Each fact names the reference section it
/// comes from.
///
///     let p = try OSProfile(version: 12)
///     p.supportsScenes        // false
///     p.backgroundTaskBudget  // 180 s
public struct OSProfile: Sendable, Equatable {
  /// The iOS major version.
  public let version: Int

  /// Every version lifesim models: iOS 4 through 18, and 26.
  public static let supportedVersions: [Int] = Array(4...18) + [26]

  /// The profile for `version`.
  /// - Throws: `SimulationError.unsupportedVersion` listing the supported ones.
  public init(version: Int) throws {
    guard OSProfile.supportedVersions.contains(version) else {
      throw SimulationError.unsupportedVersion(version)
    }
    self.version = version
  }

  // MARK: - Launch and lifecycle

  /// `application:willFinishLaunchingWithOptions:` exists from iOS 6 (§7 row 6).
  public var hasWillFinishLaunching: Bool { version >= 6 }

  /// Scenes exist from iOS 13; a scene manifest is ignored on 12 and earlier (§1.3, §7 row 13).
  public var supportsScenes: Bool { version >= 13 }

  /// A lock moves the app to the background from iOS 5; iOS 4 only resigns active (§2.3).
  public var lockEntersBackground: Bool { version >= 5 }

  /// `UIApplicationExitsOnSuspend` is honoured on iOS 4–12 and ignored from 13 (§3.7).
  public var honoursExitsOnSuspend: Bool { version <= 12 }

  /// The app-delegate URL callback: `application:openURL:options:` from iOS 9,
  /// `application:openURL:sourceApplication:annotation:` before (§2.7, §7 row 9).
  public var openURLCallback: Callback { version >= 9 ? .openURLOptions : .openURLSourceApplication }

  // MARK: - Background execution

  /// Background-task time per backgrounding: 600 s on iOS ≤ 6, 180 s on 7–12, 30 s from 13 (§0, §3.4).
  public var backgroundTaskBudget: SimTime {
    .seconds(version <= 6 ? 600 : version <= 12 ? 180 : 30)
  }

  /// The code of a kill for a background task still open at the limit (§3.4).
  public var backgroundTaskKillCode: UInt32 { version >= 13 ? 0x2182_bad2 : 0x8bad_f00d }

  /// The expiration handlers run this long before the limit (§0, §3.4: about 5 s).
  public var expirationLead: SimTime { .seconds(5) }

  /// A background launch or wake gets a window of about 30 s (§0, §2.8, §3.6).
  public var backgroundLaunchTime: SimTime { .seconds(30) }

  // MARK: - Watchdogs (code 0x8badf00d)

  /// Launch, up to the first `…DidBecomeActive:`: 20 s (§0, §3.1, §8.5).
  public var launchWatchdog: SimTime { .seconds(20) }
  /// Entering the background: 5 s documented, the kill at 10 s (§0, §3.2, §8.4).
  public var backgroundWatchdog: SimTime { .seconds(10) }
  /// `applicationWillTerminate:`: 5 s (§0, §3.3).
  public var terminateWatchdog: SimTime { .seconds(5) }
  /// The `scene-update` watchdog: a foreground or background transition of a
  /// running app (resign, become active, enter the foreground) has 10 s, as
  /// real crash logs show (§3.1).
  public var sceneUpdateWatchdog: SimTime { .seconds(10) }
  /// The code of a watchdog kill (§3.1).
  public var watchdogKillCode: UInt32 { 0x8bad_f00d }

  // MARK: - Memory

  /// Memory warnings at 85% of RAM in use, jetsam at 95% (`dev:policy`;
  /// reference §0 "Memory warning": a warning comes before any kill).
  public var memoryWarningFraction: Double { 0.85 }
  public var jetsamFraction: Double { 0.95 }

  // MARK: - Protected data

  /// `applicationProtectedDataWillBecomeUnavailable:` 10 s after a lock with a passcode (§0).
  public var protectedDataDelay: SimTime { .seconds(10) }

  // MARK: - View controllers

  /// The modal style `present` uses when none is given: `.pageSheet` from iOS 13,
  /// where the presenter gets no appearance callbacks (§0 "View controllers", §7 row 13).
  public var defaultModalStyle: ModalStyle { version >= 13 ? .pageSheet : .fullScreen }

  /// `viewIsAppearing:`: absent before 13, back-deployed on 13–16 (delivered only
  /// to a view controller that implements it), public and always delivered from 17
  /// (§0 "View controllers", §5.3, §7 rows 13 and 17).
  public var viewIsAppearing: ViewIsAppearing {
    version >= 17 ? .always : version >= 13 ? .whenImplemented : .never
  }

  /// On iOS ≤ 5 a memory warning unloads the views of view controllers that are
  /// off screen (`viewDidUnload`); from 6 views are never unloaded (§5.5, §7 row 6).
  public var unloadsViewsOnMemoryWarning: Bool { version <= 5 }

  /// `viewWillUnload` exists on iOS 5 only (5.0–6.0, §5.5), before `viewDidUnload`.
  public var hasViewWillUnload: Bool { version == 5 }

  /// `viewWillTransitionToSize:withTransitionCoordinator:` exists from iOS 8; a
  /// rotation before that gives only the layout pass (§5.3).
  public var hasViewWillTransitionToSize: Bool { version >= 8 }

  /// Layout passes (`viewWillLayoutSubviews` / `viewDidLayoutSubviews`) on a
  /// view controller's first appearance: two, as the logs of seed 003 and the
  /// ones cited in §5.3 show.
  public var layoutPassesFirst: Int { 2 }

  /// Layout passes on a view controller that a pop or a dismissal reveals:
  /// none. Its view keeps its size, and the published pop logs (iOS 12 and 13,
  /// apps that log the layout pair at launch) show `viewWillAppear:` then
  /// `viewDidAppear:` with nothing between (§5.4, pop and dismiss rows).
  public var layoutPassesRevealed: Int { 0 }

  /// Notification Center pulled all the way down lets the app under it become
  /// active again, and dismissing it makes it resign and become active once
  /// more: three activations where other versions have one (iOS 11 and 12: a
  /// bug report on 11 and 12.1.4 with a template app that prints in
  /// `applicationDidBecomeActive:`; §2.4).
  public var notificationCenterReactivates: Bool { version == 11 || version == 12 }

  /// A child view controller added to a container that is appearing (from
  /// `applicationDidBecomeActive:` at launch) gets `viewDidAppear:` twice on
  /// iOS 6: once as it is added and once forwarded by its container. A bug
  /// report (rdar://14058168) saw it once on iOS 5.0 and twice on iOS 6.1;
  /// later versions were not reported, and lifesim gives them one (§5.6).
  public var childAppearsTwiceMidAppearance: Bool { version == 6 }

  /// How an incoming call shows on an unlocked phone: from iOS 14 a compact
  /// banner by default, under which the app stays active ("Compact calls",
  /// Apple's iOS 14 feature list); before, the full-screen call interface,
  /// which makes it resign (§2.4).
  public var callStyle: CallStyle { version >= 14 ? .banner : .fullScreen }

  // MARK: - Modern iOS (§2.1 prewarming, §2.13, §5.6)

  /// The system may start an app's process ahead of the user's tap, from
  /// iOS 15 (§2.1 "Prewarming", §7 row 15).
  public var prewarms: Bool { version >= 15 }

  /// `ActivePrewarm = "1"` is in the environment during a prewarm's launch
  /// methods on iOS 15 only: field reports find it absent from iOS 16 (§2.1
  /// "Prewarming").
  public var activePrewarmEnvironment: Bool { version == 15 }

  /// App Intents (Shortcuts, Siri) run an app's intents from iOS 16 (§2.13).
  public var hasAppIntents: Bool { version >= 16 }

  /// BGTaskScheduler exists from iOS 13 (§3.5).
  public var hasTaskScheduler: Bool { version >= 13 }

  /// `BGContinuedProcessingTaskRequest` exists from iOS 26 (§3.5).
  public var hasContinuedProcessing: Bool { version >= 26 }

  /// A child view controller gets `viewIsAppearing:` from iOS 16; on 13–15 only
  /// the container does, an iOS bug that apps work around by forwarding it
  /// (§5.6 "viewIsAppearing: and children").
  public var viewIsAppearingReachesChildren: Bool { version >= 16 }

  /// On an iPad, closing an app's last window in the switcher keeps its
  /// session: the relaunch reconnects it without asking for a configuration
  /// (one iPadOS 15 report, §2.11).
  public var lastClosedWindowKeepsSession: Bool { version >= 15 }

  /// `UNUserNotificationCenter` and its delegate exist from iOS 10: an opened
  /// notification reaches `userNotificationCenter:didReceiveNotificationResponse:…`
  /// only there (§2.12).
  public var hasNotificationCenterDelegate: Bool { version >= 10 }

  // MARK: - The table

  /// Every fact above, by the name scripts see in `dev.profile`, with its value
  /// and its reference section: one row a fact, for scripts, docs and `compare`.
  public var facts: [Fact] {
    [
      Fact("will_finish_launching", hasWillFinishLaunching, "§7 row 6"),
      Fact("scenes", supportsScenes, "§1.3, §7 row 13"),
      Fact("lock_enters_background", lockEntersBackground, "§2.3, §7 rows 4–5"),
      Fact("exits_on_suspend_honoured", honoursExitsOnSuspend, "§3.7"),
      Fact("open_url_callback", openURLCallback.selector, "§2.7, §7 row 9"),
      Fact("background_task_budget", backgroundTaskBudget.seconds, "§0, §3.4"),
      Fact("background_task_kill_code", "0x" + String(backgroundTaskKillCode, radix: 16), "§3.4"),
      Fact("expiration_lead", expirationLead.seconds, "§0, §3.4"),
      Fact("background_launch_window", backgroundLaunchTime.seconds, "§2.8, §3.6"),
      Fact("launch_watchdog", launchWatchdog.seconds, "§0, §3.1"),
      Fact("background_watchdog", backgroundWatchdog.seconds, "§0, §3.2, §8.4"),
      Fact("terminate_watchdog", terminateWatchdog.seconds, "§0, §3.3"),
      Fact("scene_update_watchdog", sceneUpdateWatchdog.seconds, "§3.1"),
      Fact("memory_warning_at", memoryWarningFraction, "§0 Memory warning"),
      Fact("jetsam_at", jetsamFraction, "§0 Jetsam"),
      Fact("protected_data_delay", protectedDataDelay.seconds, "§0 Protected data"),
      Fact("default_modal_style", defaultModalStyle.rawValue, "§0, §7 row 13"),
      Fact("view_is_appearing", viewIsAppearing.rawValue, "§0, §5.3, §7 row 17"),
      Fact("unloads_views_on_memory_warning", unloadsViewsOnMemoryWarning, "§5.5, §7 row 6"),
      Fact("view_will_unload", hasViewWillUnload, "§5.5"),
      Fact("view_will_transition_to_size", hasViewWillTransitionToSize, "§5.3; UIKit API from iOS 8"),
      Fact("notification_center_reactivates", notificationCenterReactivates, "§2.4 (iOS 11 and 12.1.4 bug report)"),
      Fact("call_style", callStyle.rawValue, "§2.4; iOS 14 compact calls"),
      Fact("notification_center_delegate", hasNotificationCenterDelegate, "§2.12"),
      Fact("child_appears_twice_mid_appearance", childAppearsTwiceMidAppearance, "§5.6 (rdar://14058168, iOS 5.0 and 6.1)"),
      Fact("layout_passes_first", Double(layoutPassesFirst), "§0, §5.3"),
      Fact("layout_passes_revealed", Double(layoutPassesRevealed), "§5.4 pop and dismiss rows"),
      Fact("prewarming", prewarms, "§2.1 Prewarming, §7 row 15"),
      Fact("active_prewarm_environment", activePrewarmEnvironment, "§2.1 Prewarming (field reports)"),
      Fact("app_intents", hasAppIntents, "§2.13"),
      Fact("task_scheduler", hasTaskScheduler, "§3.5"),
      Fact("continued_processing", hasContinuedProcessing, "§3.5 (iOS 26)"),
      Fact("view_is_appearing_reaches_children", viewIsAppearingReachesChildren, "§5.6 (iOS 15 bug reports)"),
      Fact("last_closed_window_keeps_session", lastClosedWindowKeepsSession, "§2.11 (one iPadOS 15 report; iPads only)"),
    ]
  }

  /// One fact of a profile.
  public struct Fact: Sendable, Equatable {
    public enum Value: Sendable, Equatable {
      case bool(Bool), number(Double), text(String)
    }
    public let name: String
    public let value: Value
    public let reference: String

    init(_ name: String, _ value: Bool, _ reference: String) {
      self.name = name; self.value = .bool(value); self.reference = reference
    }
    init(_ name: String, _ value: Double, _ reference: String) {
      self.name = name; self.value = .number(value); self.reference = reference
    }
    init(_ name: String, _ value: String, _ reference: String) {
      self.name = name; self.value = .text(value); self.reference = reference
    }
  }
}

/// A modal presentation style (`present`).
public enum ModalStyle: String, CaseIterable, Sendable {
  case fullScreen, pageSheet, formSheet, overFullScreen
}

/// Whether a version delivers a callback: the one rule that the engine's
/// delivery and `lifesim diagram`'s labels both read.
public enum CallbackDelivery: Sendable, Equatable {
  case always
  /// The version does not have it.
  case never
  /// Only when there is something to report (`application:didDiscardSceneSessions:`).
  case ifAny
  /// Only to an object whose app implements it (a back-deployed `viewIsAppearing:`).
  case whenImplemented
}

extension OSProfile {
  /// Whether this version delivers `callback`.
  public func delivery(of callback: Callback) -> CallbackDelivery {
    switch callback {
    case .willFinishLaunching: return hasWillFinishLaunching ? .always : .never  // §7 row 6
    // §2.1 step 4, §2.6: only when there are discarded sessions to report.
    case .didDiscardSceneSessions: return .ifAny
    // §0 "View controllers", §5.3, §7 rows 13 and 17.
    case .viewIsAppearing:
      switch viewIsAppearing {
      case .always: return .always
      case .whenImplemented: return .whenImplemented
      case .never: return .never
      }
    default: return .always
    }
  }
}

/// When `viewIsAppearing:` is delivered.
public enum ViewIsAppearing: String, Sendable {
  case never
  /// iOS 13–16: only to a view controller with a handler for it (back-deployment).
  case whenImplemented = "when_implemented"
  case always
}
