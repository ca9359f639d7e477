import CLua
import CLuaShim
import LifeSimEngine

// Background tasks: ctx:begin_background_task returns one; task:finish() ends it.
extension API {
  static let taskRows: [APIRow] = [
    .method(.task, "finish", "task:finish()", "Ends the background task (endBackgroundTask:).") { try $0.taskFinish() },
    taskField("id", "The task's id, unique on the device.") { L, _, _, task in push(L, Int(task)) },
    taskField("name", "The name it was begun with.") { L, slot, _, task in push(L, slot.taskNames[task] ?? "") },
    taskField("app", "Its app.") { _, slot, app, _ in slot.runtime.pushApp(app, on: slot) },
    taskField("open", "Whether it has not ended.") { L, slot, app, task in push(L, slot.device.isTaskOpen(app: app, task: task)) },
    taskField("expired", "Whether its expiration handler ran.") { L, slot, app, task in
      push(L, slot.device[app].tasks.first(where: { $0.id == task })?.expired ?? false)
    },
    .meta(.task, "__tostring") { try $0.taskToString() },
  ]

  private static func taskField(_ name: String, _ summary: String,
                                _ get: @escaping (LuaState, DeviceSlot, AppID, Int32) throws -> Void) -> APIRow {
    .field(.task, name, summary) { rt in
      let (slot, app, task) = try rt.selfTask()
      try get(rt.L, slot, app, task)
    }
  }
}

extension LuaRuntime {
  func selfTask() throws -> (DeviceSlot, AppID, Int32) {
    let h = try checkHandle(1, .task)
    return (try slot(h.device), AppID(Int(h.index)), h.extra)
  }

  /// Pushes the object of a task: one per task while it is open (stack effect: +1).
  func pushTask(_ task: Int32, of id: AppID, on slot: DeviceSlot) {
    withBalancedStack(L, pushing: 1) {
      if let stored = slot.taskObjects[task] {
        slot.pushSlot(stored)
        return
      }
      pushApp(id, on: slot)  // the task keeps its app (and device) alive
      pushObject(Handle(kind: ObjectKind.task.rawValue, device: slot.id, index: id.index, extra: task), userValue: true)
      slot.taskObjects[task] = slot.store(-1)
    }
  }

  /// `ctx:begin_background_task(name [, on_expire])`: `on_expire(task)` runs
  /// shortly before the background time runs out.
  func ctxBeginBackgroundTask() throws -> Int32 {
    let (slot, app) = try contextApp("begin_background_task")
    let name = try args.name(2, "the task name")
    var token: HostToken?
    if !args.isAbsent(3) {
      try args.function(3)
      token = HostToken(Int(slot.store(3)))
    }
    let task: Int32
    do {
      task = try slot.device.beginBackgroundTask(app: app, name: name, expiration: token)
    } catch {
      if let token { slot.free(Int32(token.rawValue)) }
      throw error
    }
    slot.taskNames[task] = name
    pushTask(task, of: app, on: slot)
    return 1
  }

  /// `task:finish()`: ends the task; finishing it twice records a warning, as
  /// UIKit logs one.
  func taskFinish() throws -> Int32 {
    let (slot, app, task) = try selfTask()
    if slot.device.endBackgroundTask(app: app, task: task) {
      if let stored = slot.taskObjects.removeValue(forKey: task) { slot.free(stored) }
    } else {
      slot.device.warn("task \(task) ended twice (or after its process died): endBackgroundTask with an invalid identifier", app: app)
    }
    return 0
  }


  func taskToString() throws -> Int32 {
    let (slot, app, task) = try selfTask()
    let open = slot.device.isTaskOpen(app: app, task: task)
    push(L, "<task \(task) \(slot.taskNames[task] ?? ""): \(open ? "open" : "ended")>")
    return 1
  }
}
