import CLua
import CLuaShim
import LifeSimEngine

// View controllers and views: specs, the app's navigation and presentation
// methods, and the vc and view objects (SPEC §2 "view controllers").
extension LuaRuntime {
  // MARK: - Specs

  /// Reads a spec table at `i`: `{ class = "…", from = "storyboard"|"xib"|"code",
  /// on = { selector = fn, … }, overrides_load_view = bool }` (the last for view
  /// controllers). The `on` functions are stored as one handler set.
  func readSpec(_ index: Int32, arg: Int32, on slot: DeviceSlot, isView: Bool) throws -> ObjectSpec {
    let i = lua_absindex(L, index)
    guard lua_type(L, i) == LUA_TTABLE else {
      throw ArgumentError(position: arg, message: "\(isView ? "view" : "view-controller") spec expected ({ class = …, from = … }), got \(typeName(L, i))")
    }
    try checkKeys(L, i, allowed: isView ? ["class", "from", "on"] : ["class", "from", "on", "overrides_load_view"], arg: arg)
    guard let cls = try fieldString(L, i, "class", arg: arg), !cls.isEmpty else {
      let example = isView ? "\"BadgeView\"" : "\"DetailViewController\""
      throw ArgumentError(position: arg, message: "field 'class' (a class name such as \(example)) is required")
    }
    var creation = Creation.code
    if let from = try fieldString(L, i, "from", arg: arg) {
      let allowed = isView ? ["code", "xib"] : Creation.allCases.map(\.rawValue)
      guard allowed.contains(from), let c = Creation(rawValue: from) else {
        throw ArgumentError(position: arg, message: "field 'from' must be \(allowed.map { "\"\($0)\"" }.joined(separator: ", ")), got \"\(from)\"\(suggestion(for: from, in: allowed))")
      }
      creation = c
    }
    var spec = ObjectSpec(className: cls, creation: creation,
                          overridesLoadView: isView ? false : try fieldBool(L, i, "overrides_load_view", arg: arg) ?? false)
    let onType = rawField(L, i, "on")
    defer { ls_pop(L, 1) }
    if onType != LUA_TNIL {
      guard lua_type(L, -1) == LUA_TTABLE else {
        throw ArgumentError(position: arg, message: "field 'on' must be a table of selector = function, got \(typeName(L, -1))")
      }
      let table = lua_gettop(L)
      let valid = Callback.allCases.filter { isView ? $0.isViewCallback : $0.isViewControllerCallback }
      var functions: [UInt8: Int32] = [:]
      for key in stringKeys(L, table) {
        guard let c = Callback(selector: key), valid.contains(c) else {
          for (_, s) in functions { slot.free(s) }
          let what = isView ? "view" : "view-controller"
          throw ArgumentError(position: arg, message: "field 'on': '\(key)' is not a \(what) callback\(suggestion(for: key, in: valid.map(\.selector)))")
        }
        lua_getfield(L, table, key)
        defer { ls_pop(L, 1) }
        guard lua_type(L, -1) == LUA_TFUNCTION else {
          for (_, s) in functions { slot.free(s) }
          throw ArgumentError(position: arg, message: "field 'on': '\(key)' must be a function, got \(typeName(L, -1))")
        }
        functions[c.rawValue] = slot.store(-1)
        spec.handled.insert(c)
      }
      if !functions.isEmpty {
        let token = slot.nextHandlerSet
        slot.nextHandlerSet += 1
        slot.specHandlers[token] = functions
        spec.handlers = HostToken(Int(token))
      }
    }
    return spec
  }

  // MARK: - App methods

  /// `app:push{ class, from, on }` → the new view controller.
  func appPush() throws -> Int32 {
    let (slot, id) = try selfApp()
    let spec = try readSpec(2, arg: 2, on: slot, isView: false)
    let vc = try slot.device.push(spec, app: id)
    pushViewController(vc, on: slot)
    return 1
  }

  /// `app:present(spec [, { style = "fullScreen"|"pageSheet"|"formSheet"|"overFullScreen" }])`
  func appPresent() throws -> Int32 {
    let (slot, id) = try selfApp()
    let spec = try readSpec(2, arg: 2, on: slot, isView: false)
    var style: ModalStyle?
    if !isNoneOrNil(L, 3) {
      try checkTable(L, 3)
      try checkKeys(L, 3, allowed: ["style"], arg: 3)
      if let s = try fieldString(L, 3, "style", arg: 3) {
        let names = ModalStyle.allCases.map(\.rawValue)
        guard let parsed = ModalStyle(rawValue: s) else {
          throw ArgumentError(position: 3, message: "unknown style '\(s)'\(suggestion(for: s, in: names)); expected one of \(names.joined(separator: ", "))")
        }
        style = parsed
      }
    }
    let vc = try slot.device.present(spec, style: style, app: id)
    pushViewController(vc, on: slot)
    return 1
  }

  /// `app:pop()`, `app:dismiss()`.
  func appSimple(_ action: (Device, AppID) throws -> Void) throws -> Int32 {
    let (slot, id) = try selfApp()
    try action(slot.device, id)
    return 0
  }

  /// `app:pop_gesture{ cancel = bool }`, `app:dismiss_gesture{ cancel = bool }`.
  func appGesture(_ action: (Device, AppID, Bool) throws -> Void) throws -> Int32 {
    let (slot, id) = try selfApp()
    var cancel = false
    if !isNoneOrNil(L, 2) {
      try checkTable(L, 2)
      try checkKeys(L, 2, allowed: ["cancel"], arg: 2)
      cancel = try fieldBool(L, 2, "cancel", arg: 2) ?? false
    }
    try action(slot.device, id, cancel)
    return 0
  }

  /// Pushes an array of view-controller objects (stack effect: +1).
  func pushViewControllers(_ ids: [ObjectID], on slot: DeviceSlot) {
    lua_createtable(L, Int32(ids.count), 0)
    for (i, vc) in ids.enumerated() {
      pushViewController(vc, on: slot)
      lua_rawseti(L, -2, lua_Integer(i + 1))
    }
  }

  // MARK: - The vc object

  /// Pushes the object of a view controller, one per instance (stack effect: +1).
  func pushViewController(_ vc: ObjectID, on slot: DeviceSlot) {
    if let stored = slot.vcObjects[vc.index] {
      slot.pushSlot(stored)
      return
    }
    pushApp(slot.device.viewController(vc).app, on: slot)  // it keeps its app alive
    pushObject(Handle(kind: ObjectKind.vc.rawValue, device: slot.id, index: vc.index, extra: 0), userValue: true)
    slot.vcObjects[vc.index] = slot.store(-1)
  }

  private func selfVC() throws -> (DeviceSlot, ObjectID) {
    let h = try checkHandle(1, .vc)
    return (try slot(h.device), ObjectID(Int(h.index)))
  }

  /// `vc:add_view{ class, from, on }` → the new view, in the view controller's view.
  func vcAddView() throws -> Int32 {
    let (slot, vc) = try selfVC()
    let spec = try readSpec(2, arg: 2, on: slot, isView: true)
    let v = try slot.device.addView(spec, to: .viewController(vc))
    pushView(v, on: slot)
    return 1
  }

  /// `vc:load_view()`: `loadViewIfNeeded`.
  func vcLoadView() throws -> Int32 {
    let (slot, vc) = try selfVC()
    let id = slot.device.viewController(vc).app
    guard slot.device[id].state.isExecuting else {
      throw ScriptError(message: "vc:load_view: \(slot.device[id].config.bundle) is \(slot.device[id].state), so none of its code runs")
    }
    try slot.device.loadViewIfNeeded(vc)
    return 0
  }

  func vcIndex() throws -> Int32 {
    let (slot, id) = try selfVC()
    let vc = slot.device.viewController(id)
    switch stringValue(L, 2) {
    case "class": push(L, vc.spec.className)
    case "instance": push(L, Int(vc.instance))
    case "from": push(L, vc.spec.creation.rawValue)
    case "app": pushApp(vc.app, on: slot)
    case "state": push(L, vc.appearance.description)
    case "view_loaded": push(L, vc.viewLoaded)
    case "in_window": push(L, vc.inWindow)
    case "empty_view": push(L, vc.viewLoaded && vc.spec.overridesLoadView && vc.spec.creation != .code)
    case "presentation":
      switch vc.placement {
      case .stack: push(L, "stack")
      case .presented(let style): push(L, style.rawValue)
      }
    case "views": pushViews(vc.subviews, on: slot)
    default: throw unknownField(.vc)
    }
    return 1
  }

  func vcToString() throws -> Int32 {
    let (slot, id) = try selfVC()
    let vc = slot.device.viewController(id)
    push(L, "<vc \(vc.spec.className) #\(vc.instance): \(vc.appearance)\(vc.viewLoaded ? "" : ", view not loaded")>")
    return 1
  }

  // MARK: - The view object

  func pushView(_ v: ObjectID, on slot: DeviceSlot) {
    if let stored = slot.viewObjects[v.index] {
      slot.pushSlot(stored)
      return
    }
    pushApp(slot.device.view(v).app, on: slot)
    pushObject(Handle(kind: ObjectKind.view.rawValue, device: slot.id, index: v.index, extra: 0), userValue: true)
    slot.viewObjects[v.index] = slot.store(-1)
  }

  func pushViews(_ ids: [ObjectID], on slot: DeviceSlot) {
    lua_createtable(L, Int32(ids.count), 0)
    for (i, v) in ids.enumerated() {
      pushView(v, on: slot)
      lua_rawseti(L, -2, lua_Integer(i + 1))
    }
  }

  private func selfView() throws -> (DeviceSlot, ObjectID) {
    let h = try checkHandle(1, .view)
    return (try slot(h.device), ObjectID(Int(h.index)))
  }

  /// `view:add_view{ class, from, on }` → a subview.
  func viewAddView() throws -> Int32 {
    let (slot, v) = try selfView()
    let spec = try readSpec(2, arg: 2, on: slot, isView: true)
    let sub = try slot.device.addView(spec, to: .view(v))
    pushView(sub, on: slot)
    return 1
  }

  /// `view:remove()`: `removeFromSuperview`.
  func viewRemove() throws -> Int32 {
    let (slot, v) = try selfView()
    try slot.device.removeView(v)
    return 0
  }

  func viewIndex() throws -> Int32 {
    let (slot, id) = try selfView()
    let v = slot.device.view(id)
    switch stringValue(L, 2) {
    case "class": push(L, v.spec.className)
    case "instance": push(L, Int(v.instance))
    case "from": push(L, v.spec.creation.rawValue)
    case "app": pushApp(v.app, on: slot)
    case "vc": pushViewController(v.owner, on: slot)
    case "superview":
      if let s = v.superview { pushView(s, on: slot) } else { lua_pushnil(L) }
    case "views": pushViews(v.subviews, on: slot)
    case "in_window": push(L, v.inWindow)
    case "removed": push(L, v.deallocated)
    default: throw unknownField(.view)
    }
    return 1
  }

  func viewToString() throws -> Int32 {
    let (slot, id) = try selfView()
    let v = slot.device.view(id)
    let where_ = v.deallocated ? "removed" : v.inWindow ? "in window" : "not in a window"
    push(L, "<view \(v.spec.className) #\(v.instance): \(where_)>")
    return 1
  }
}
