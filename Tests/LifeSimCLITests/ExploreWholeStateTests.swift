import Foundation
import Testing
import LifeSimTestSupport

/// `lifesim explore` tells states apart by everything that decides what
/// happens next, on every device: a state that differs only in a policy a
/// step set, in a view inside a view controller, or on a device other than
/// the first, is not taken for one seen before, so the violation behind it
/// is found (and the counterexample fails under `lifesim run`).
struct ExploreWholeStateTests {
  private func explore(_ name: String, _ source: String, actions: String) throws -> (Result, String) {
    let file = try script(name, source)
    let out = tempPath(name.replacingOccurrences(of: ".lua", with: "-counterexample.lua"))
    try? FileManager.default.removeItem(atPath: out)
    let r = try lifesim(["explore", file, "--depth", "3", "--actions", actions, "--quiet", "-o", out])
    return (r, out)
  }

  private func expectFound(_ r: Result, _ counterexample: String, _ sequence: String) throws {
    #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
    #expect(r.stdout.contains(sequence), "\(r.stdout)")
    let replay = try lifesim(["run", counterexample])
    #expect(replay.status != 0, "the counterexample passes under lifesim run: \(replay.stdout)")
  }

  @Test func aPolicySetByAStepIsPartOfTheState() throws {
    let (r, out) = try explore("explore_policy_step.lua", """
      local dev = lifesim.device{ ios = 12 }
      local app = dev:install{ bundle = "com.example.slow" }
      app:on("application:didFinishLaunchingWithOptions:", function(ctx) ctx:work(5) end)
      lifesim.action("strict watchdog", function(d) d:policy{ watchdog = { launch = 2 } } end)
      lifesim.invariant("never killed by the watchdog", function(d)
        return (d.stats.kills.watchdog or 0) == 0, "killed by the watchdog"
      end)
      """, actions: "launch com.example.slow,strict watchdog")
    try expectFound(r, out, "does not hold after 2 steps: strict watchdog, launch com.example.slow")
  }

  @Test func theViewsInAViewControllerArePartOfTheState() throws {
    let (r, out) = try explore("explore_view_step.lua", """
      local dev = lifesim.device{ ios = 17 }
      local app = dev:install{ bundle = "com.example.a", root = { class = "Root" } }
      local pushed = false
      app:on("didMoveToWindow", function(ctx)
        if pushed then error("the spinner left the window") end
      end)
      lifesim.action("add view", function(d)
        if app.state == "active" and app.top then app.top:add_view{ class = "Spinner", from = "code" } end
      end)
      lifesim.action("push detail", function(d)
        if app.state == "active" then
          pushed = true
          app:push{ class = "Detail", from = "code" }
          pushed = false
        end
      end)
      lifesim.invariant("ok", function() return true end)
      """, actions: "launch com.example.a,add view,push detail")
    try expectFound(r, out, "a handler fails after 3 steps: launch com.example.a, add view, push detail")
  }

  @Test func everyDeviceIsPartOfTheState() throws {
    let (r, out) = try explore("explore_second_device.lua", """
      local dev = lifesim.device{ ios = 12 }
      local a = dev:install{ bundle = "com.example.a" }
      local dev2 = lifesim.device{ ios = 12 }
      local b = dev2:install{ bundle = "com.example.b" }
      lifesim.action("launch b", function() if b.state ~= "active" then dev2:launch(b) end end)
      lifesim.action("home b", function() if b.state == "active" then dev2:home() end end)
      lifesim.invariant("b never leaves the front", function()
        return b.state == "notRunning" or b.state == "active", "b went to " .. b.state
      end)
      """, actions: "launch com.example.a,launch b,home b")
    try expectFound(r, out, "does not hold after 2 steps: launch b, home b")
  }
}
