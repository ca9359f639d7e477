import CLua
import CLuaShim
import LifeSimEngine

// The scene object: one window (scene session) of a scene app. It names the
// session by number, so it outlives the connection: a disconnected scene reads
// "unattached", and a closed one says so.
extension LuaRuntime {
  private func selfScene() throws -> (DeviceSlot, AppID, Int32) {
    let h = try checkHandle(1, .scene)
    return (try slot(h.device), AppID(Int(h.index)), h.extra)
  }

  /// Pushes the object for scene `number` of an app: one object per session,
  /// so `app.scenes[1] == ctx.scene` holds (stack effect: +1).
  func pushScene(_ number: Int32, of id: AppID, on slot: DeviceSlot) {
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

  /// `app:open_scene()`: another window; returns its scene.
  func appOpenScene() throws -> Int32 {
    let h = try checkHandle(1, .app)
    let slot = try slot(h.device)
    let id = AppID(Int(h.index))
    let number = try slot.device.openScene(id)
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

  func sceneIndex() throws -> Int32 {
    let (slot, id, number) = try selfScene()
    let app = slot.device[id]
    let scene = app.sceneIndex(number).map { app.scenes[$0] }
    switch stringValue(L, 2) {
    case "id": push(L, Int(number))
    case "app": pushApp(id, on: slot)
    case "state": push(L, scene?.state.description ?? "unattached")
    case "connected": push(L, scene?.state.isConnected ?? false)
    case "closed": push(L, scene == nil)
    default: throw unknownField(.scene)
    }
    return 1
  }

  func sceneToString() throws -> Int32 {
    let (slot, id, number) = try selfScene()
    let app = slot.device[id]
    let state = app.sceneIndex(number).map { app.scenes[$0].state.description } ?? "closed"
    push(L, "<scene \(number) of \(app.config.bundle): \(state)>")
    return 1
  }
}
