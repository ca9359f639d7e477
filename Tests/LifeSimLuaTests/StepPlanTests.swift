import Testing
import LifeSimEngine
@testable import LifeSimLua

/// A search reads each step of its alphabet once (`LuaRuntime.plan`) and
/// takes the plan at every step: a plan must do what its name does.
struct StepPlanTests {
  func runtime(_ source: String) throws -> (LuaRuntime, DeviceSlot) {
    var o = RuntimeOptions()
    o.pinDevices = true
    o.output = { _ in }
    let rt = try LuaRuntime(options: o)
    try rt.run(source: source, chunkName: "=plans")
    return (rt, try rt.exploreDevice())
  }

  @Test func aPlanDrivesTheDeviceAsItsNameDoes() throws {
    let (rt, slot) = try runtime("""
      dev = lifesim.device{ ios = 17 }
      dev:install{ bundle = "com.example.notes" }
      """)
    let notes = try #require(slot.device.apps.first?.id)
    let launch = rt.plan("launch com.example.notes", on: slot)
    #expect(try rt.take(launch, on: slot) == .done)
    #expect(slot.device[notes].state == .active)
    #expect(try rt.take(rt.plan("home", on: slot), on: slot) == .done)
    #expect(slot.device[notes].state == .suspended)
    let before = slot.device.now
    #expect(try rt.take(rt.plan("advance 2.5", on: slot), on: slot) == .done)
    #expect(slot.device.now - before == SimTime(microseconds: 2_500_000))
    // The same plan, taken again, acts again.
    #expect(try rt.take(launch, on: slot) == .done)
    #expect(slot.device[notes].state == .active)
    // Refused where the device refuses it.
    #expect(try rt.take(rt.plan("unlock", on: slot), on: slot) == .refused)
  }

  @Test func anAppInstalledAfterThePlanIsFoundWhenTheStepIsTaken() throws {
    let (rt, slot) = try runtime("dev = lifesim.device{ ios = 17 }")
    let plan = rt.plan("launch com.example.later", on: slot)
    #expect(plan.kind == nil)
    #expect(throws: ScriptError.self) { try rt.take(plan, on: slot) }
    try rt.run(source: #"dev:install{ bundle = "com.example.later" }"#, chunkName: "=install")
    #expect(try rt.take(plan, on: slot) == .done)
    #expect(slot.device.apps.first.map { slot.device[$0.id].state } == .active)
  }

  @Test func aBadNameFailsWhenTakenWithTheMessageItAlwaysHad() throws {
    let (rt, slot) = try runtime("dev = lifesim.device{ ios = 17 }")
    func message(_ step: String) -> String? {
      do { _ = try rt.take(rt.plan(step, on: slot), on: slot) } catch let e as ScriptError { return e.message } catch {}
      return nil
    }
    #expect(message("advance -5") == "unknown step 'advance -5' (advance takes a positive number of seconds)")
    #expect(message("advance soon") == "unknown step 'advance soon' (advance takes a positive number of seconds)")
    #expect(message("fly") == "unknown step 'fly' (lifesim.action adds one)")
    #expect(message("kill com.example.nobody") == "unknown step 'kill com.example.nobody'")
  }

  @Test func theScriptsActionOfTheSameNameWinsEvenWhenDeclaredLater() throws {
    let (rt, slot) = try runtime("""
      dev = lifesim.device{ ios = 17 }
      dev:install{ bundle = "com.example.notes" }
      homes = 0
      """)
    let home = rt.plan("home", on: slot)
    try rt.run(source: #"lifesim.action("home", function(d) homes = homes + 1 end)"#, chunkName: "=action")
    #expect(try rt.take(home, on: slot) == .done)
    try rt.run(source: #"assert(homes == 1, "the script's home ran " .. homes .. " times")"#, chunkName: "=check")
    #expect(slot.device.apps.allSatisfy { slot.device[$0.id].state == .notRunning })
  }
}
