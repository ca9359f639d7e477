import Testing
import LifeSimEngine
@testable import LifeSimLua

/// The Lua side of prewarming, App Intents and windows side by side: each
/// function reaches the engine and reads back what app code would see.
struct ModernAPITests {
  @Test func ctxReadsTheEnvironmentAndProtectedDataDuringAPrewarm() throws {
    let (_, out, failure) = try runScript("""
      for _, ios in ipairs({ 15, 16 }) do
        local dev = lifesim.device{ ios = ios, passcode = true }
        local app = dev:install{ bundle = "a" }
        app:on("application:didFinishLaunchingWithOptions:", function(ctx)
          print(ios, ctx.environment.ActivePrewarm, ctx.protected_data_available)
          return true
        end)
        dev:lock(); dev:advance(10)
        dev:prewarm(app)
        print(app.state, #app.scenes)
      end
      """)
    #expect(failure == nil, "\(String(describing: failure))")
    #expect(out == "15\t1\tfalse\nsuspended\t0\n16\tnil\tfalse\nsuspended\t0\n")
  }

  @Test func runIntentAndOpenSceneBesideReachTheEngine() throws {
    let (_, out, failure) = try runScript("""
      local dev = lifesim.device{ ios = 17, model = "iPad Pro 11 2018" }
      local app = dev:install{ bundle = "a" }
      dev:run_intent(app, { name = "Add" })
      print(app.state, #app.scenes)
      dev:run_intent(app, { name = "Show", opens_app = true })
      local s = app:open_scene{ beside = true }
      print(app.scenes[1].state, s.state)
      print(pcall(app.open_scene, app, { beside = "yes" }))
      """)
    #expect(failure == nil, "\(String(describing: failure))")
    let lines = out.split(separator: "\n").map(String.init)
    #expect(lines[0] == "background\t0")
    #expect(lines[1] == "foregroundActive\tforegroundActive")
    #expect(lines[2].hasPrefix("false") && lines[2].contains("beside"))
  }

  @Test func ctxFieldsAreRefusedOutsideAHandler() throws {
    let (_, _, failure) = try runScript("""
      local dev = lifesim.device{ ios = 15 }
      local app = dev:install{ bundle = "a" }
      local kept
      app:on("application:didFinishLaunchingWithOptions:", function(ctx) kept = ctx; return true end)
      dev:prewarm(app)
      local _ = kept.environment
      """)
    #expect(failure?.message.contains("belongs to a handler that has returned") == true)
  }
}
