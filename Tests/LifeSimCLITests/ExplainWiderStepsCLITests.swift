import Foundation
import Testing

/// The steps of `lifesim explain`'s wider search, each written by -o as Lua
/// that `lifesim run` replays: the app's other windows, its own code passing
/// its memory limit or beginning a background task in a step; and a
/// notification presented in front.
struct ExplainWiderStepsCLITests {
  /// Explains `log` with `args`, writes the script and runs it.
  static func replays(_ name: String, _ log: String, _ args: [String] = [], expect lines: [String]) throws {
    let path = tempPath("explain-\(name).log"), script = tempPath("explain-\(name).lua")
    try log.write(toFile: path, atomically: true, encoding: .utf8)
    try? FileManager.default.removeItem(atPath: script)
    let r = try lifesim(["explain", path, "-o", script] + args)
    #expect(r.status == 0, "\(name): \(r.stderr)")
    for line in lines { #expect(r.stdout.contains(line), "\(name): \(r.stdout)") }
    let run = try lifesim(["run", script])
    #expect(run.status == 0, "\(name): \(run.stderr)")
  }

  @Test func anotherWindowOpened() throws {
    try Self.replays("window", """
      scene:willConnectToSession:options:
      sceneWillEnterForeground:
      sceneDidBecomeActive:
      scene:willConnectToSession:options:
      sceneWillEnterForeground:
      sceneWillResignActive:
      sceneDidEnterBackground:
      sceneDidBecomeActive:

      """, expect: ["2. open_scene: the user opens another window of the app → lines 4–8"])
  }

  @Test func aWindowClosedThenTheOtherDisconnected() throws {
    // Two windows; the first closed in the switcher; the second, sent to
    // the background, disconnected by the system.
    try Self.replays("close", """
      scene:willConnectToSession:options:
      sceneDidBecomeActive:
      scene:willConnectToSession:options:
      sceneDidEnterBackground:
      sceneDidBecomeActive:
      sceneDidDisconnect:
      application:didDiscardSceneSessions:
      sceneDidEnterBackground:
      sceneDidDisconnect:

      """, expect: ["close_scene 1", "disconnect_scene 1"])
  }

  @Test func theAppKilledForItsOwnMemoryInALaunch() throws {
    try Self.replays("own-memory", """
      application:willFinishLaunchingWithOptions:
      application:didFinishLaunchingWithOptions:
      scene:willConnectToSession:options:
      application:willFinishLaunchingWithOptions:
      application:didFinishLaunchingWithOptions:
      scene:willConnectToSession:options:
      sceneWillEnterForeground:
      sceneDidBecomeActive:

      """, expect: ["1. launch com.example.app, killed in scene:willConnectToSession:options: (own memory): the user taps the app's icon; "
                    + "in its scene:willConnectToSession:options: the app's code passes its memory limit and is killed → lines 1–3"])
  }

  @Test func theAppKilledByItsLaunchWatchdog() throws {
    try Self.replays("watchdog", """
      10:00:00.000 application(_:willFinishLaunchingWithOptions:)
      10:00:20.300 application(_:willFinishLaunchingWithOptions:)
      10:00:20.400 application(_:didFinishLaunchingWithOptions:)
      10:00:20.500 applicationDidBecomeActive(_:)

      """, expect: ["1. launch com.example.app, killed in application:willFinishLaunchingWithOptions: (watchdog): the user taps "
                    + "the app's icon; in its application:willFinishLaunchingWithOptions: the app's code runs past the "
                    + "watchdog's limit and is killed (0x8badf00d) → line 1"])
  }

  @Test func theAppHeldByABackgroundTaskOfItsCode() throws {
    try Self.replays("task", """
      10:00:00.000 application:didFinishLaunchingWithOptions:
      10:00:00.100 applicationDidBecomeActive:
      10:00:05.000 applicationWillResignActive:
      10:00:05.000 applicationDidEnterBackground:
      10:00:15.000 applicationProtectedDataWillBecomeUnavailable:

      """, ["--ios", "14", "--quirk", "background_launch_enters_background"],
      expect: ["lock, background task begun in UIApplicationDidEnterBackgroundNotification: the user locks the device; "
               + "in its UIApplicationDidEnterBackgroundNotification the app's code begins a background task → lines 3–4"])
  }

  @Test func aNotificationPresentedInFront() throws {
    try Self.replays("notify", """
      applicationDidBecomeActive:
      userNotificationCenter:willPresentNotification:withCompletionHandler:
      applicationWillResignActive:

      """, expect: ["2. notify com.example.app: one of the app's notifications arrives → line 2"])
  }
}
