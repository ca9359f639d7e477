import Testing
import LifeSimEngine
@testable import LifeSimLua

/// The bridge makes a device method of every device action of the table, and
/// the search a step of the same word; refusals get their Lua hint here.
struct ActionTableBridgeTests {
  func runtime(_ source: String) throws -> (LuaRuntime, DeviceSlot) {
    var o = RuntimeOptions()
    o.pinDevices = true
    o.output = { _ in }
    let rt = try LuaRuntime(options: o)
    try rt.run(source: source, chunkName: "=actions")
    return (rt, try rt.exploreDevice())
  }

  func failure(_ source: String) throws -> String {
    let (rt, _) = try runtime("dev = lifesim.device{ ios = 12 }")
    do { try rt.run(source: source, chunkName: "=s") } catch let f as LuaFailure { return f.message }
    return "no error"
  }

  @Test func everyDeviceActionIsADeviceMethod() {
    let methods = Set(API.methodNames(.device))
    for row in ActionRow.table where row.target == .device { #expect(methods.contains(row.name), "dev:\(row.name)") }
    let rows = API.rows.filter { $0.qualifiedName == "dev:end_call" || $0.qualifiedName == "dev:kill" }
    #expect(rows.map(\.usage).sorted() == ["dev:end_call()", "dev:kill(app)"])
  }

  @Test func theHintLivesAtTheBridgeAndTheTextStaysTheSame() throws {
    #expect(try failure("dev:end_call()")
            == "s:1: dev:end_call: no answered call is in progress; answer one with end_interrupt{ accept = true }")
    #expect(try failure("dev:lock() dev:lock()") == "s:1: dev:lock: the device is already locked")
    #expect(try failure("dev:end_interrupt()") == "s:1: dev:end_interrupt: no interruption is showing")
  }

  @Test func theSearchStepEndInterruptIsTheMethodEndInterrupt() throws {
    let (rt, slot) = try runtime("""
      dev = lifesim.device{ ios = 12 }
      dev:install{ bundle = "com.example.notes" }
      dev:launch("com.example.notes")
      """)
    #expect(rt.alphabet(of: slot).contains("end_interrupt"))
    #expect(!rt.alphabet(of: slot).contains("end_call"))
    #expect(try rt.take("call", on: slot) == .done)
    #expect(try rt.take("end_interrupt", on: slot) == .done)
    #expect(slot.device.interruption == nil)
    // end_call, as dev:end_call(), ends an answered call only.
    #expect(try rt.take("end_call", on: slot) == .refused)
  }
}
