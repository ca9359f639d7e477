import CLua
import CLuaShim
import LifeSimEngine

// Modern iOS (reference §2.1 "Prewarming", §2.11, §2.13): what app code reads of
// its process during a prewarm, and a scene's restoration activity. The
// actions themselves (`dev:prewarm`, `dev:run_intent`) are rows of the action table.
extension API {
  static let modernRows: [APIRow] = [
    .field(.context, "environment", "The process environment: { ActivePrewarm = \"1\" } during an iOS 15 prewarm.") { rt in
      let (slot, info) = try rt.selfContext()
      let pairs = slot.device.environment(of: info.app)
      lua_createtable(rt.L, 0, Int32(pairs.count))
      for (key, value) in pairs {
        push(rt.L, value)
        setField(rt.L, -2, key)
      }
    },
    .field(.context, "protected_data_available",
           "UIApplication.isProtectedDataAvailable: false while the device is locked with a passcode.") { rt in
      let (slot, _) = try rt.selfContext()
      push(rt.L, slot.device.isProtectedDataAvailable)
    },
    .field(.scene, "state_restoration_activity",
           "The session's restoration activity: the table stateRestorationActivityForScene: last returned, or nil.") { rt in
      let (slot, id, number) = try rt.selfScene()
      let app = slot.device[id]
      if let i = app.sceneIndex(number), let token = app.scenes[i].restorationActivity {
        slot.pushSlot(Int32(token.rawValue))
      } else {
        lua_pushnil(rt.L)
      }
    },
  ]
}

extension LuaRuntime {
  /// `dev:run_intent(app, { name = "…", opens_app = false })`
  func devRunIntent() throws -> Int32 {
    let slot = try selfDevice()
    let app = try checkApp(2, on: slot)
    let o = try args.table(3, keys: ["name", "opens_app"])
    let name = try o.required("name", as: String.self, hint: "the intent's name, a string")
    let opens = try o.optional("opens_app", as: Bool.self) ?? false
    try slot.device.runIntent(app, name: name, opensApp: opens)
    return 0
  }
}
