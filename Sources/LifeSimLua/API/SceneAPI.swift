import CLua
import CLuaShim
import LifeSimEngine

// The scene object: one window (scene session) of a scene app. It names the
// session by number, so it outlives the connection: a disconnected scene reads
// "unattached", and a closed one says so.
extension API {
  static let sceneRows: [APIRow] = [
    .method(.scene, "close", "scene:close()", "The user closes the window: disconnect, then discard.") { try $0.sceneClose() },
    .method(.scene, "disconnect", "scene:disconnect()", "The system reclaims a background scene; it reconnects later.") { try $0.sceneDisconnect() },
    sceneField("id", "The session's number, from 1.") { L, _, _, number, _ in push(L, Int(number)) },
    sceneField("app", "Its app.") { _, slot, id, _, _ in slot.runtime.pushApp(id, on: slot) },
    sceneField("state", "Its state, or \"unattached\" while disconnected or closed.") { L, _, _, _, scene in
      push(L, scene?.state.description ?? "unattached")
    },
    sceneField("connected", "Whether a scene is connected to the session.") { L, _, _, _, scene in
      push(L, scene?.state.isConnected ?? false)
    },
    sceneField("closed", "Whether the session was discarded.") { L, _, _, _, scene in push(L, scene == nil) },
    .meta(.scene, "__tostring") { try $0.sceneToString() },
  ]

  private static func sceneField(_ name: String, _ summary: String,
                                 _ get: @escaping (LuaState, DeviceSlot, AppID, Int32, Scene?) throws -> Void) -> APIRow {
    .field(.scene, name, summary) { rt in
      let (slot, id, number) = try rt.selfScene()
      let app = slot.device[id]
      try get(rt.L, slot, id, number, app.sceneIndex(number).map { app.scenes[$0] })
    }
  }
}

extension LuaRuntime {
  func selfScene() throws -> (DeviceSlot, AppID, Int32) {
    let h = try checkHandle(1, .scene)
    return (try slot(h.device), AppID(Int(h.index)), h.extra)
  }

  /// Pushes the object for scene `number` of an app: one object per session,
  /// so `app.scenes[1] == ctx.scene` holds (stack effect: +1).
  func pushScene(_ number: Int32, of id: AppID, on slot: DeviceSlot) {
    withBalancedStack(L, pushing: 1) {
      let app = Int(id.index)
      if let stored = slot.sceneObjects[app][number] {
        slot.pushSlot(stored)
        return
      }
      pushApp(id, on: slot)  // the scene keeps its app (and so its device) alive
      pushObject(Handle(kind: ObjectKind.scene.rawValue, device: slot.id, index: id.index, extra: number),
                 userValue: true)
      slot.sceneObjects[app][number] = slot.store(-1)
    }
  }

  /// `app:open_scene([{ beside = true }])`: another window; returns its scene.
  func appOpenScene() throws -> Int32 {
    let h = try checkHandle(1, .app)
    let slot = try slot(h.device)
    let id = AppID(Int(h.index))
    let beside = try args.options(2, keys: ["beside"])?.optional("beside", as: Bool.self) ?? false
    let number = beside ? try slot.device.openSceneBeside(id) : try slot.device.openScene(id)
    pushScene(number, of: id, on: slot)
    return 1
  }

  /// `scene:close()`: the user closes the window in the app switcher.
  func sceneClose() throws -> Int32 {
    let (slot, id, number) = try selfScene()
    try slot.device.closeScene(id, scene: number)
    return 0
  }

  /// `scene:disconnect()`: the system reclaims a background scene.
  func sceneDisconnect() throws -> Int32 {
    let (slot, id, number) = try selfScene()
    try slot.device.disconnectScene(id, scene: number)
    return 0
  }


  func sceneToString() throws -> Int32 {
    let (slot, id, number) = try selfScene()
    let app = slot.device[id]
    let state = app.sceneIndex(number).map { app.scenes[$0].state.description } ?? "closed"
    push(L, "<scene \(number) of \(app.config.bundle): \(state)>")
    return 1
  }
}
