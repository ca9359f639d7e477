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
    #expect(ios15.stdout.contains("1. run_task com.example.app"), "\(ios15.stdout)")
    // iOS 14 does not prewarm: the step is not offered.
    let ios14 = try lifesim(["explain", path, "--ios", "14"])
    #expect(ios14.status == 0, "\(ios14.stderr)")
    #expect(!ios14.stdout.contains("prewarm"), "\(ios14.stdout)")
  }

  /// Which BGTaskScheduler task a background launch is (reference §3.5): a
  /// processing task runs only on a locked device, and no refresh task runs
  /// after the user swiped the app away until they open it again, so the
  /// search offers no `run_task` then unless the device is locked.
  @Test func aBackgroundLaunchsTaskKindFollowsTheLockAndTheSwipe() throws {
    let path = tempPath("explain-bgtask-kind.log")
    let launchThenBack = "application(_:didFinishLaunchingWithOptions:)\napplicationDidBecomeActive(_:)\n"
      + "applicationWillResignActive(_:)\napplicationDidEnterBackground(_:)\n"
    try (launchThenBack + "applicationProtectedDataWillBecomeUnavailable(_:)\napplication(_:didFinishLaunchingWithOptions:)\n")
      .write(toFile: path, atomically: true, encoding: .utf8)
    let locked = try lifesim(["explain", path, "--ios", "13", "--no-scenes"])
    #expect(locked.status == 0, "\(locked.stderr)")
    #expect(locked.stdout.contains("run_task com.example.app"), "\(locked.stdout)")
    #expect(locked.stdout.contains("the device is locked then, so a processing task (BGProcessingTask"), "\(locked.stdout)")
    try (launchThenBack + "application(_:didFinishLaunchingWithOptions:)\n").write(toFile: path, atomically: true, encoding: .utf8)
    let swiped = try lifesim(["explain", path, "--ios", "13", "--no-scenes"])
    #expect(swiped.status == 0, "\(swiped.stderr)")
    #expect(swiped.stdout.contains("2. kill com.example.app"), "\(swiped.stdout)")
    #expect(!swiped.stdout.contains("run_task"), "\(swiped.stdout)")
  }

  /// A launch in the background with no fetch in the log is a
  /// BGTaskScheduler task's from iOS 13 (reference §3.5): explain's app
  /// declares a refresh task, which turns background fetch off, and the
  /// script it writes runs the task. Before iOS 13, or with a fetch in the
  /// log, it is a background fetch.
  @Test func aBackgroundLaunchIsABackgroundTaskFromIOS13() throws {
    let path = tempPath("explain-bgtask.log")
    try "application(_:didFinishLaunchingWithOptions:)\n".write(toFile: path, atomically: true, encoding: .utf8)
    let script = tempPath("explain-bgtask.lua")
    try? FileManager.default.removeItem(atPath: script)
    let ios13 = try lifesim(["explain", path, "--ios", "13", "--no-scenes", "--alternatives", "0", "-o", script,
                             "--max-unlogged", "0"])
    #expect(ios13.status == 0, "\(ios13.stderr)")
    #expect(ios13.stdout.contains("1. launch com.example.app"), "\(ios13.stdout)")
    #expect(!ios13.stdout.contains("background_fetch"), "\(ios13.stdout)")
    let all = try lifesim(["explain", path, "--ios", "13", "--no-scenes"])
    #expect(all.stdout.contains("1. run_task com.example.app: the system launches or wakes the app for its BGTaskScheduler refresh task"),
            "\(all.stdout)")
    #expect(all.stdout.contains("a run_task step above is a BGTaskScheduler task"), "\(all.stdout)")
    // The script declares, registers and submits the task; the step that runs it replays.
    var text = try String(contentsOfFile: script, encoding: .utf8)
    #expect(text.contains("background_tasks = { \"lifesim.explain.refresh\" }"), "\(text)")
    text = text.replacingOccurrences(of: "dev:launch(app)", with: "dev:run_task(app, \"lifesim.explain.refresh\")")
    try text.write(toFile: script, atomically: true, encoding: .utf8)
    let run = try lifesim(["run", script])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains("log BGTaskScheduler: runs BGAppRefreshTask lifesim.explain.refresh"), "\(run.stdout)")
    let ios12 = try lifesim(["explain", path, "--ios", "12"])
    #expect(ios12.status == 0, "\(ios12.stderr)")
    #expect(ios12.stdout.contains("1. background_fetch com.example.app") && !ios12.stdout.contains("BGTaskScheduler"), "\(ios12.stdout)")
    try "application(_:didFinishLaunchingWithOptions:)\napplication(_:performFetchWithCompletionHandler:)\n"
      .write(toFile: path, atomically: true, encoding: .utf8)
    let fetch = try lifesim(["explain", path, "--ios", "18", "--no-scenes"])
    #expect(fetch.status == 0, "\(fetch.stderr)")
    #expect(fetch.stdout.contains("1. background_fetch com.example.app") && !fetch.stdout.contains("run_task"), "\(fetch.stdout)")
  }
}
