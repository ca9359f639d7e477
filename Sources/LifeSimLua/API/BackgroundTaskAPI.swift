import CLua
import CLuaShim
import LifeSimEngine

// BGTaskScheduler (reference §3.5): app:register_task, ctx:submit_task and the
// task object a launch handler gets; the device's dev:run_task,
// dev:expire_task, dev:charging and dev:network are action rows (DeviceAPI).
extension API {
  static let backgroundTaskRows: [APIRow] = [
    .method(.app, "register_task", "app:register_task(id, function(ctx, task) … end)",
            "Registers the launch handler of a BGTaskScheduler task: outside any handler, the app's code registers it at every launch; in a launch method's handler, this process only; anywhere else it is late, as iOS says.") {
      try $0.appRegisterTask()
    },
    .method(.context, "submit_task",
            "ctx:submit_task{ id =, kind = \"refresh\" | \"processing\" | \"continued\", earliest = 0, requires_power = false, requires_network = false, title =, subtitle =, strategy = \"queue\" | \"fail\", requires_gpu = false }",
            "Submits a BGTaskScheduler request (earliest: seconds from now); it replaces a pending request of its id. A continued request (iOS 26, from the foreground, with a title and subtitle) runs at once, or waits in the queue (strategy \"fail\" refuses it instead) while the most continued tasks the system runs at once run; requires_gpu needs the app's background_gpu and a device that supports it. A refusal is the error iOS gives.") {
      try $0.ctxSubmitTask()
    },
    .method(.app, "submit_task", "app:submit_task{ id =, kind =, … }",
            "ctx:submit_task from the script outside any handler: the app's code submits the request, as an earlier process did when the app does not run.") {
      try $0.appSubmitTask()
    },
    .method(.context, "cancel_task", "ctx:cancel_task(id)", "Cancels a pending request; a running task goes on.") { try $0.ctxCancelTask() },
    .method(.context, "cancel_all_tasks", "ctx:cancel_all_tasks()", "Cancels every pending request of the app.") {
      try $0.ctxCancelAllTasks()
    },
    .method(.context, "pending_tasks", "ctx:pending_tasks()",
            "The pending requests, as getPendingTaskRequests gives them: each { id =, kind =, earliest = (time) }, and a continued request waiting in the queue with its title.") {
      try $0.ctxPendingTasks()
    },
    .method(.bgTask, "complete", "task:complete(success)",
            "setTaskCompleted(success:): the task ends, and the app is suspended once nothing else holds it.") {
      try $0.bgTaskComplete()
    },
    .method(.bgTask, "progress", "task:progress(fraction)",
            "A continued task reports its progress (0 to 1); one that reports none for 60 s is expired as stalled.") {
      try $0.bgTaskProgress()
    },
    // Read also after the task ended, from what the device kept of it.
    bgTaskField("id", "The task's identifier.") { L, slot, _, run, number in push(L, run?.identifier ?? slot.bgTaskNames[number] ?? "") },
    bgTaskField("kind", "\"refresh\", \"processing\" or \"continued\".") { L, slot, _, run, number in
      push(L, (run?.kind ?? slot.bgTaskKinds[number].flatMap(BGTaskKind.init(rawValue:)))?.description ?? "")
    },
    bgTaskField("running", "Whether it has not completed (and its process lives).") { L, _, _, run, _ in push(L, run != nil) },
    .field(.bgTask, "expired", "Whether its time ran out (its expiration handler was called), also after it ended.") { rt in
      let h = try rt.checkHandle(1, .bgTask)
      let slot = try rt.slot(h.device)
      let run = slot.device[AppID(Int(h.index))].bgTasks.running(number: h.extra)
      push(rt.L, run?.expired ?? slot.bgTaskExpiredEnded.contains(h.extra))
    },
    .field(.bgTask, "on_expire", "The expiration handler, `task.on_expire = function(ctx, task) … end`: called when the task's time runs out; it has a few seconds to call task:complete, and without one the task is marked complete and unsuccessful.") { rt in
      let h = try rt.checkHandle(1, .bgTask)
      let slot = try rt.slot(h.device)
      if let fn = slot.bgTaskExpiry[h.extra] { slot.pushSlot(fn) } else { lua_pushnil(rt.L) }
    },
    .meta(.bgTask, "__newindex") { try $0.bgTaskSet() },
    .meta(.bgTask, "__tostring") { rt in
      let h = try rt.checkHandle(1, .bgTask)
      let slot = try rt.slot(h.device)
      push(rt.L, "task \(slot.bgTaskNames[h.extra] ?? "?")")
      return 1
    },
  ]

  private static func bgTaskField(_ name: String, _ summary: String,
                                  _ get: @escaping (LuaState, DeviceSlot, AppID, BGTaskRun?, Int32) throws -> Void) -> APIRow {
    .field(.bgTask, name, summary) { rt in
      let h = try rt.checkHandle(1, .bgTask)
      let slot = try rt.slot(h.device), app = AppID(Int(h.index))
      try get(rt.L, slot, app, slot.device[app].bgTasks.running(number: h.extra), h.extra)
    }
  }
}

extension LuaRuntime {
  /// `app:register_task(id, fn)`
  func appRegisterTask() throws -> Int32 {
    let (slot, app) = try selfApp()
    let id = try args.name(2, "the task identifier")
    try args.function(3)
    try slot.device.registerTask(app, identifier: id)
    let handler = slot.store(3)
    // A new process registers again: the earlier process's handler goes.
    if let old = slot.bgTaskHandlers[Int32(app.index), default: [:]].updateValue(handler, forKey: id) { slot.free(old) }
    return 0
  }

  /// `ctx:submit_task{ id =, kind =, earliest =, requires_power =, requires_network = }`
  func ctxSubmitTask() throws -> Int32 {
    let (slot, app) = try contextApp("submit_task")
    return try submitTask(slot, app)
  }

  /// `app:submit_task{ … }`: outside any handler only, where no ctx is.
  func appSubmitTask() throws -> Int32 {
    let (slot, app) = try selfApp()
    guard slot.device.runningApp == nil else {
      throw ScriptError(message: "app:submit_task is the script's, outside any handler; in a handler, use ctx:submit_task")
    }
    return try submitTask(slot, app)
  }

  private func submitTask(_ slot: DeviceSlot, _ app: AppID) throws -> Int32 {
    let o = try args.table(2, keys: ["id", "kind", "earliest", "requires_power", "requires_network", "title", "subtitle",
                                     "strategy", "requires_gpu"])
    let id = try o.requiredName("id", hint: "the task identifier, one of the app's background_tasks")
    let kindName = try o.required("kind", as: String.self, hint: "\"refresh\", \"processing\" or \"continued\"")
    guard let kind = BGTaskKind(name: kindName) else {
      throw o.fail("field 'kind' must be \"refresh\", \"processing\" or \"continued\", got '\(kindName)'")
    }
    let earliest = try o.seconds("earliest") ?? .zero
    let power = try o.optional("requires_power", as: Bool.self) ?? false
    let network = try o.optional("requires_network", as: Bool.self) ?? false
    if kind != .processing && (power || network) {
      throw o.fail("requires_power and requires_network belong to processing requests (BGProcessingTaskRequest)")
    }
    let title = try o.optional("title", as: String.self), subtitle = try o.optional("subtitle", as: String.self)
    if kind == .continued {
      guard title != nil, subtitle != nil else {
        throw o.fail("a continued request needs a title and a subtitle (BGContinuedProcessingTaskRequest(identifier:title:subtitle:))")
      }
      if o.has("earliest") { throw o.fail("a continued request runs at once: it has no earliest time") }
    } else if title != nil || subtitle != nil || o.has("strategy") || o.has("requires_gpu") {
      throw o.fail("title, subtitle, strategy and requires_gpu belong to continued requests (BGContinuedProcessingTaskRequest)")
    }
    var strategy = ContinuedStrategy.queue
    if let name = try o.optional("strategy", as: String.self) {
      guard let s = ContinuedStrategy(name: name) else {
        throw o.fail("field 'strategy' must be \"queue\" or \"fail\", got '\(name)'")
      }
      strategy = s
    }
    let device = slot.device
    var request = BGTaskRequest(identifier: id, kind: kind, earliest: device.now + earliest,
                                requiresPower: power, requiresNetwork: network)
    request.title = title ?? ""
    request.subtitle = subtitle ?? ""
    request.strategy = strategy
    request.requiresGPU = try o.optional("requires_gpu", as: Bool.self) ?? false
    try device.submitTask(app, request)
    return 0
  }

  /// `ctx:cancel_task(id)`
  func ctxCancelTask() throws -> Int32 {
    let (slot, app) = try contextApp("cancel_task")
    slot.device.cancelTask(app, identifier: try args.name(2, "the task identifier"))
    return 0
  }

  /// `ctx:cancel_all_tasks()`
  func ctxCancelAllTasks() throws -> Int32 {
    let (slot, app) = try contextApp("cancel_all_tasks")
    slot.device.cancelAllTasks(app)
    return 0
  }

  /// `ctx:pending_tasks()`: copies, as getPendingTaskRequests gives.
  func ctxPendingTasks() throws -> Int32 {
    let (slot, app) = try contextApp("pending_tasks")
    let pending = slot.device[app].bgTasks.pending
    pushArray(L, pending) { r in
      lua_createtable(L, 0, 3)
      push(L, r.identifier); setField(L, -2, "id")
      push(L, r.kind.description); setField(L, -2, "kind")
      push(L, r.earliest.seconds); setField(L, -2, "earliest")
      if r.kind == .continued { push(L, r.title); setField(L, -2, "title") }
    }
    return 1
  }

  /// `task:complete(success)`; completing twice is a warning, as UIKit logs one.
  func bgTaskComplete() throws -> Int32 {
    let h = try checkHandle(1, .bgTask)
    let slot = try slot(h.device), app = AppID(Int(h.index))
    let success = try args.value(2, as: Bool.self)
    if !slot.device.completeTask(app, number: h.extra, success: success) {
      slot.device.warn("task \(slot.bgTaskNames[h.extra] ?? "?") completed when it was not running (completed twice, or its process died)", app: app)
    }
    return 0
  }

  /// `task:progress(fraction)`
  func bgTaskProgress() throws -> Int32 {
    let h = try checkHandle(1, .bgTask)
    let slot = try slot(h.device)
    let f = try args.value(2, as: Double.self)
    guard f >= 0, f <= 1 else { throw ArgumentError(position: 2, message: "the progress must be a fraction from 0 to 1, got \(formatNumber(f))") }
    try slot.device.reportTaskProgress(AppID(Int(h.index)), number: h.extra, fraction: f)
    return 0
  }

  /// `task.on_expire = fn` (or nil); every other field is read-only.
  func bgTaskSet() throws -> Int32 {
    let h = try checkHandle(1, .bgTask)
    let slot = try slot(h.device)
    guard lua_type(L, 2) == LUA_TSTRING, String(cString: lua_tolstring(L, 2, nil)) == "on_expire" else {
      return try readOnly()
    }
    if lua_type(L, 3) != LUA_TNIL { try args.function(3) }
    guard slot.device[AppID(Int(h.index))].bgTasks.running(number: h.extra) != nil else {
      throw ArgumentError(position: 3, message: "task \(slot.bgTaskNames[h.extra] ?? "?") has ended: its expiration handler would never run")
    }
    if let old = slot.bgTaskExpiry.removeValue(forKey: h.extra) { slot.free(old) }
    if lua_type(L, 3) != LUA_TNIL { slot.bgTaskExpiry[h.extra] = slot.store(3) }
    return 0
  }

  /// Pushes the object of a running task (stack effect: +1).
  func pushBGTask(_ run: BGTaskRun, of id: AppID, on slot: DeviceSlot) {
    withBalancedStack(L, pushing: 1) {
      if let stored = slot.bgTaskObjects[run.number] {
        slot.pushSlot(stored)
        return
      }
      pushApp(id, on: slot)  // the task keeps its app (and device) alive
      pushObject(Handle(kind: ObjectKind.bgTask.rawValue, device: slot.id, index: id.index, extra: run.number),
                 userValue: true)
      slot.bgTaskObjects[run.number] = slot.store(-1)
      slot.bgTaskNames[run.number] = run.identifier
      slot.bgTaskKinds[run.number] = run.kind.rawValue
    }
  }
}
