import Foundation
import Testing

/// What a run says on standard error when it ends: handlers that can never
/// run, an `--ios` no device used, and work left pending.
struct EndOfRunNotesTests {
  @Test func aSaveInTheAppDelegateOfASceneAppIsWarnedAbout() throws {
    let path = try script("never_runs.lua", """
      local dev = lifesim.device{ ios = 16 }
      local app = dev:install{ bundle = "com.example.notes" }
      app:on("applicationDidEnterBackground:", function(ctx) ctx:save() end)
      dev:launch(app)
      dev:home()
      dev:advance(60)
      """)
    let r = try lifesim(["run", path])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stderr.contains(
      "lifesim: warning: com.example.notes handles applicationDidEnterBackground:, which iOS 16 never calls for an app "
      + "with scenes; it calls the scene delegate's sceneDidEnterBackground: instead (reference §1.3); this handler never ran"),
      "\(r.stderr)")
    // The same script on iOS 12, where the handler runs: nothing to say.
    let old = try script("never_runs_12.lua", "-- on iOS 12\n" + (try String(contentsOfFile: path, encoding: .utf8))
      .replacingOccurrences(of: "ios = 16", with: "ios = 12"))
    let r12 = try lifesim(["run", old])
    #expect(r12.status == 0 && !r12.stderr.contains("warning"), "\(r12.stderr)")
  }

  @Test func compareNotesAHandlerThatNeverRanUnderItsVersion() throws {
    let path = try script("compare_never_runs.lua", """
      local dev = lifesim.device{}
      local app = dev:install{ bundle = "com.example.notes" }
      app:on("applicationDidEnterBackground:", function(ctx) ctx:save() end)
      dev:launch(app)
      dev:home()
      """)
    let r = try lifesim(["compare", path, "--ios", "12", "--ios", "17"])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("\nnote, iOS 17:\n  com.example.notes handles applicationDidEnterBackground:, which iOS 17 never calls"),
            "\(r.stdout)")
    #expect(!r.stdout.contains("note, iOS 12"), "\(r.stdout)")
  }

  @Test func anIOSFlagThatNoDeviceUsesIsWarnedAbout() throws {
    let path = try script("pinned.lua", """
      local dev = lifesim.device{ ios = 16 }
      dev:launch(dev:install{ bundle = "a" })
      """)
    let r = try lifesim(["run", path, "--ios", "12"])
    #expect(r.status == 0)
    #expect(r.stderr.contains("lifesim: warning: --ios 12 was not used: \(path) sets ios = 16 in lifesim.device"), "\(r.stderr)")
    let t = try lifesim(["test", path, "--ios", "12"])
    #expect(t.stderr.contains("--ios 12 was not used"), "\(t.stderr)")
    let experiment = try script("pinned_experiment.lua", """
      return lifesim.experiment{ name = "pinned", seeds = 2, params = { x = { 1 } },
        run = function(p)
          local dev = lifesim.device{ ios = 16 }
          dev:launch(dev:install{ bundle = "a" })
          return { opens = 1 }
        end }
      """)
    let out = FileManager.default.temporaryDirectory.appendingPathComponent("pinned_\(getpid()).csv").path
    unlink(out)
    defer { unlink(out) }
    let b = try lifesim(["batch", experiment, "--ios", "12", "-o", out, "--quiet"])
    #expect(b.status == 0, "\(b.stderr)")
    #expect(b.stderr.contains("lifesim: warning: --ios 12 was not used: \(experiment) sets ios = 16 in lifesim.device"),
            "\(b.stderr)")
    let plain = try lifesim(["run", path])
    #expect(!plain.stderr.contains("warning"), "no --ios given: \(plain.stderr)")
  }

  @Test func pendingTimersAndOpenTasksAreNoted() throws {
    let path = try script("pending.lua", """
      local dev = lifesim.device{ ios = 17 }
      local app = dev:install{ bundle = "com.example.up" }
      app:on("sceneDidEnterBackground:", function(ctx)
        ctx:begin_background_task("upload")
      end)
      dev:launch(app)
      dev:after(40, function() dev:lock() end)
      dev:home()
      """)
    let r = try lifesim(["run", path])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stderr.contains("lifesim: note: a timer (function at \(path):7) was still pending, due at t=40 s"), "\(r.stderr)")
    #expect(r.stderr.contains("lifesim: note: com.example.up still holds background task 'upload', begun at t=0 s and never ended"),
            "\(r.stderr)")
    #expect(r.stderr.contains("the script ended at t=0 s"), "\(r.stderr)")
  }

  @Test func anExpectationOfSuspendedNamesTheTaskThatHoldsTheApp() throws {
    let path = try script("held.lua", """
      local dev = lifesim.device{ ios = 17 }
      local app = dev:install{ bundle = "com.example.up" }
      app:on("sceneDidEnterBackground:", function(ctx) ctx:begin_background_task("upload") end)
      dev:launch(app)
      dev:home()
      dev:advance(5)
      lifesim.expect_state(app, "suspended")
      """)
    let r = try lifesim(["run", path])
    #expect(r.status == 1)
    #expect(r.stderr.contains("com.example.up is background, expected suspended (t=5.000000); "
                              + "held by background task 'upload' (begun at t=0.000000)"), "\(r.stderr)")
  }

  /// No false positives: over every shipped script, the only warnings are the
  /// ones below, each a handler that the script registers on purpose on a
  /// version that never calls it (read the script's case to see why). A new
  /// warning fails this test until someone has checked that it is true.
  /// A case's devices are gone when the next case starts from the file's
  /// state: their warnings are said with the case's name.
  @Test func shippedScriptsGetOnlyTrueHandlerWarnings() throws {
    let r = try lifesim(["test", "Scripts"])
    let warnings = r.stderr.split(separator: "\n").filter { $0.contains("this handler never ran") }.map(String.init)
    let expected = [
      // "before iOS 10 there is no UNUserNotificationCenter: a remote notification takes the legacy path"
      "lifesim: warning: Scripts/app_delegate/open_notification.lua, case 'before iOS 10 there is no "
        + "UNUserNotificationCenter: a remote notification takes the legacy path': com.example.notes handles "
        + "userNotificationCenter:didReceiveNotificationResponse:withCompletionHandler:, which iOS 9 does not have; "
        + "it calls application:didReceiveRemoteNotification:fetchCompletionHandler: instead (reference §2.12); "
        + "this handler never ran",
    ]
    #expect(warnings == expected, "\(warnings.joined(separator: "\n"))")
  }
}
