import Testing
import LifeSimTestSupport

/// An opened notification belongs to the launch it opened. When that launch
/// dies on the way (a watchdog here) and a script's timer opens the app again
/// at the same instant, the new launch is a plain one: it carries no
/// notification and gets no notification method (§2.12).
struct OpenedNotificationScopeTests {
  @Test(arguments: [true, false])
  func aRelaunchAfterTheOpeningLaunchDiedCarriesNoNotification(remote: Bool) throws {
    let (_, out, failure) = try runScript("""
      local dev = lifesim.device{ ios = 17, seed = 1 }
      local a = dev:install{ bundle = "com.ex.a", scenes = false }
      local slow, m = true, nil
      a:on("application:didFinishLaunchingWithOptions:", function(ctx)
        if slow then
          slow = false
          dev:after(20, function() m = dev:mark(); dev:launch(a) end)
          ctx:work(25)  -- past the launch watchdog: the opening launch dies
        end
        return true
      end)
      a:on("userNotificationCenter:didReceiveNotificationResponse:withCompletionHandler:", function() end)
      a:on("application:didReceiveRemoteNotification:fetchCompletionHandler:", function() end)
      dev:open_notification(a, { remote = \(remote) })
      dev:run()
      print(table.concat(dev.trace:callbacks{ app = a, since = m }, ","))
      for _, r in ipairs(dev.trace:records{ app = a, since = m }) do
        if r.kind == "callback" and r.detail then print("detail: " .. r.detail) end
      end
      """)
    #expect(failure == nil, "\(failure?.message ?? "")")
    #expect(out.hasPrefix("application:willFinishLaunchingWithOptions:,application:didFinishLaunchingWithOptions:,applicationDidBecomeActive:"),
            "\(out)")
    #expect(!out.contains("Notification"), "\(out)")
    #expect(!out.contains("detail:"), "\(out)")
  }
}
