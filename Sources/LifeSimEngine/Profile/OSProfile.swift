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

  /// Every version lifesim models: iOS 4 through 18, and 26 (SPEC §1.1).
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
}
