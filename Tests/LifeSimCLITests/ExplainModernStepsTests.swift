import Foundation
import Testing

/// `lifesim explain` takes the steps of modern iOS where the version has them:
/// a launch method long before the scene connects may be a prewarm (iOS 15+),
/// one of the explanations a developer must weigh against a background wake.
struct ExplainModernStepsTests {
  static let log = """
    2024-05-01 08:00:00.000 application(_:didFinishLaunchingWithOptions:)
    2024-05-01 09:30:00.000 scene(_:willConnectTo:options:)
    2024-05-01 09:30:00.010 sceneWillEnterForeground(_:)
    2024-05-01 09:30:00.020 sceneDidBecomeActive(_:)

    """

  @Test func aLaunchLongBeforeTheSceneMayBeAPrewarmFromIOS15() throws {
    let path = tempPath("explain-prewarm.log")
    try Self.log.write(toFile: path, atomically: true, encoding: .utf8)
    let ios15 = try lifesim(["explain", path, "--ios", "15"])
    #expect(ios15.status == 0, "\(ios15.stderr)")
    #expect(ios15.stdout.contains("1. prewarm com.example.app: the system prewarms the app"), "\(ios15.stdout)")
    #expect(ios15.stdout.contains("1. background_fetch com.example.app"), "\(ios15.stdout)")
    // iOS 14 does not prewarm: the step is not offered.
    let ios14 = try lifesim(["explain", path, "--ios", "14"])
    #expect(ios14.status == 0, "\(ios14.stderr)")
    #expect(!ios14.stdout.contains("prewarm"), "\(ios14.stdout)")
  }

  /// A launch in the background with no fetch in the log may be a
  /// BGTaskScheduler task from iOS 13 (reference §3.5): the answer says so.
  @Test func aBackgroundLaunchMayBeABackgroundTaskFromIOS13() throws {
    let path = tempPath("explain-bgtask.log")
    try "application(_:didFinishLaunchingWithOptions:)\n".write(toFile: path, atomically: true, encoding: .utf8)
    let ios13 = try lifesim(["explain", path, "--ios", "13", "--no-scenes"])
    #expect(ios13.status == 0, "\(ios13.stderr)")
    #expect(ios13.stdout.contains("1. background_fetch com.example.app"), "\(ios13.stdout)")
    #expect(ios13.stdout.contains("a background_fetch step above may also be a BGTaskScheduler task"), "\(ios13.stdout)")
    let ios12 = try lifesim(["explain", path, "--ios", "12"])
    #expect(ios12.status == 0, "\(ios12.stderr)")
    #expect(ios12.stdout.contains("1. background_fetch com.example.app") && !ios12.stdout.contains("BGTaskScheduler"), "\(ios12.stdout)")
  }
}
