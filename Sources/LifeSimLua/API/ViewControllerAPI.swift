import CLua
import CLuaShim
import LifeSimEngine

// View controllers and views: specs, the app's navigation and presentation
// methods, and the vc and view objects (the view controller API).
extension API {
  static let viewControllerRows: [APIRow] = [
    .method(.vc, "add_view", "vc:add_view{ class =, from = \"code\" | \"xib\" }",
            "Adds a view to the view controller's view.") { try $0.vcAddView() },
    .method(.vc, "load_view", "vc:load_view()", "Loads the view if it is not loaded (loadViewIfNeeded).") { try $0.vcLoadView() },
    .method(.vc, "add_child", "vc:add_child{ class =, from =, on = }",
            "Adds a child view controller and its view (containment); it appears if the parent is on screen.") { rt in
      let (slot, id) = try rt.selfVC()
      let spec = try rt.readSpec(2, arg: 2, on: slot, isView: false)
      let child = try slot.device.addChild(spec, to: id)
      rt.pushViewController(child, on: slot)
      return 1
    },
    .method(.vc, "remove_from_parent", "vc:remove_from_parent()",
            "Removes a child view controller from its container; it disappears and is deallocated.") { rt in
      let (slot, id) = try rt.selfVC()
      try slot.device.removeFromParent(id)
      return 0
    },
    vcField("parent", "Its container, for a child view controller; else nil.") { L, slot, vc in
      if case .child(let parent) = vc.placement { slot.runtime.pushViewController(parent, on: slot) } else { lua_pushnil(L) }
    },
    vcField("children", "Its child view controllers, in the order they were added.") { _, slot, vc in
      slot.runtime.pushViewControllers(vc.children, on: slot)
    },
    vcField("class", "Its class name.") { L, _, vc in push(L, vc.spec.className) },
    vcField("instance", "Which instance of its class it is, from 1.") { L, _, vc in push(L, Int(vc.instance)) },
    vcField("from", "\"storyboard\", \"xib\" or \"code\".") { L, _, vc in push(L, vc.spec.creation.rawValue) },
    vcField("app", "Its app.") { _, slot, vc in slot.runtime.pushApp(vc.app, on: slot) },
    vcField("state", "Its appearance state.") { L, _, vc in push(L, vc.appearance.description) },
    vcField("view_loaded", "isViewLoaded.") { L, _, vc in push(L, vc.viewLoaded) },
    vcField("in_window", "Whether its view is in a window.") { L, _, vc in push(L, vc.inWindow) },
    vcField("empty_view", "Whether an overridden loadView left it without the nib's view.") { L, _, vc in
      push(L, vc.viewLoaded && vc.spec.overridesLoadView && vc.spec.creation != .code)
    },
    vcField("presentation", "\"stack\", or the modal style it was presented with.") { L, _, vc in
      switch vc.placement {
      case .stack: push(L, "stack")
      case .presented(let style): push(L, style.rawValue)
      case .child: push(L, "child")
      }
    },
    vcField("views", "The views added to its view.") { _, slot, vc in slot.runtime.pushViews(vc.subviews, on: slot) },
    .meta(.vc, "__tostring") { try $0.vcToString() },
  ]

  static let viewRows: [APIRow] = [
    .method(.view, "add_view", "view:add_view{ class =, from = \"code\" | \"xib\" }", "Adds a subview.") { try $0.viewAddView() },
    .method(.view, "remove", "view:remove()", "Removes the view from its superview.") { try $0.viewRemove() },
    viewField("class", "Its class name.") { L, _, v in push(L, v.spec.className) },
    viewField("instance", "Which instance of its class it is, from 1.") { L, _, v in push(L, Int(v.instance)) },
    viewField("from", "\"xib\" or \"code\".") { L, _, v in push(L, v.spec.creation.rawValue) },
    viewField("app", "Its app.") { _, slot, v in slot.runtime.pushApp(v.app, on: slot) },
    viewField("vc", "The view controller whose view holds it.") { _, slot, v in slot.runtime.pushViewController(v.owner, on: slot) },
    viewField("superview", "Its superview, or nil for a direct subview of the view controller's view.") { L, slot, v in
      if let s = v.superview { slot.runtime.pushView(s, on: slot) } else { lua_pushnil(L) }
    },
    viewField("views", "Its subviews.") { _, slot, v in slot.runtime.pushViews(v.subviews, on: slot) },
    viewField("in_window", "Whether it is in a window.") { L, _, v in push(L, v.inWindow) },
    viewField("removed", "Whether it was removed (and deallocated).") { L, _, v in push(L, v.deallocated) },
    .meta(.view, "__tostring") { try $0.viewToString() },
  ]

  private static func vcField(_ name: String, _ summary: String,
                              _ get: @escaping (LuaState, DeviceSlot, ViewController) throws -> Void) -> APIRow {
    .field(.vc, name, summary) { rt in
      let (slot, id) = try rt.selfVC()
      try get(rt.L, slot, slot.device.viewController(id))
    }
  }

  private static func viewField(_ name: String, _ summary: String,
                                _ get: @escaping (LuaState, DeviceSlot, View) throws -> Void) -> APIRow {
    .field(.view, name, summary) { rt in
      let (slot, id) = try rt.selfView()
      try get(rt.L, slot, slot.device.view(id))
    }
  }
}

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
    let o = Options(L: L, index: i, argument: arg)
    try o.checkKeys(isView ? ["class", "from", "on"] : ["class", "from", "on", "overrides_load_view"])
    let example = isView ? "\"BadgeView\"" : "\"DetailViewController\""
    let cls = try o.requiredName("class", hint: "a class name such as \(example)")
    guard !cls.isEmpty else { throw o.fail("field 'class' must not be empty") }
    var creation = Creation.code
    if let from = try o.optional("from", as: String.self) {
      let allowed = isView ? ["code", "xib"] : Creation.allCases.map(\.rawValue)
      guard allowed.contains(from), let c = Creation(rawValue: from) else {
        throw o.fail("field 'from' must be \(allowed.map { "\"\($0)\"" }.joined(separator: ", ")), got \"\(from)\"\(suggestion(for: from, in: allowed))")
      }
      creation = c
    }
    var spec = ObjectSpec(className: cls, creation: creation,
                          overridesLoadView: isView ? false : try o.optional("overrides_load_view") ?? false)
    let valid = Callback.allCases.filter { isView ? $0.isViewCallback : $0.isViewControllerCallback }
    let what = isView ? "view" : "view-controller"
    // The `on` table: selector = function. Every key is checked before any
    // function is stored, and every read is raw.
    let on: [(Callback, String)] = try o.withTable("on", keys: nil, hint: "{ viewDidLoad = function(ctx) … end }") { on in
      try on.keys().map { key in
        guard let c = Callback(selector: key), valid.contains(c) else {
          throw o.fail("field 'on': '\(key)' is not a \(what) callback\(suggestion(for: key, in: valid.map(\.selector)))")
        }
        guard on.type(of: key) == LUA_TFUNCTION else {
          throw on.withValue(key) { _ in o.fail("field 'on': '\(key)' must be a function, got \(typeName(L, -1))") }
        }
        return (c, key)
      }
    } ?? []
    if !on.isEmpty {
      var functions: [UInt8: Int32] = [:]
      try o.withTable("on", keys: nil, hint: "") { table in
        for (c, key) in on {
          functions[c.rawValue] = table.withValue(key) { _ in slot.store(-1) }
          spec.handled.insert(c)
        }
      }
      let token = slot.nextHandlerSet
      slot.nextHandlerSet += 1
      slot.specHandlers[token] = functions
      spec.handlers = HostToken(Int(token))
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
    if let o = try args.options(3, keys: ["style"]) {
      if let s = try o.optional("style", as: String.self) {
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
    let cancel = try args.options(2, keys: ["cancel"])?.optional("cancel", as: Bool.self) ?? false
    try action(slot.device, id, cancel)
    return 0
  }

  /// Pushes an array of view-controller objects (stack effect: +1).
  func pushViewControllers(_ ids: [ObjectID], on slot: DeviceSlot) {
    withBalancedStack(L, pushing: 1) {
      pushArray(L, ids) { pushViewController($0, on: slot) }
    }
  }

  // MARK: - The vc object

  /// Pushes the object of a view controller, one per instance (stack effect: +1).
  func pushViewController(_ vc: ObjectID, on slot: DeviceSlot) {
    withBalancedStack(L, pushing: 1) {
      if let stored = slot.vcObjects[vc.index] {
        slot.pushSlot(stored)
        return
      }
      pushApp(slot.device.viewController(vc).app, on: slot)  // it keeps its app alive
      pushObject(Handle(kind: ObjectKind.vc.rawValue, device: slot.id, index: vc.index, extra: 0), userValue: true)
      slot.vcObjects[vc.index] = slot.store(-1)
    }
  }

  func selfVC() throws -> (DeviceSlot, ObjectID) {
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


  func vcToString() throws -> Int32 {
    let (slot, id) = try selfVC()
    let vc = slot.device.viewController(id)
    push(L, "<vc \(vc.spec.className) #\(vc.instance): \(vc.appearance)\(vc.viewLoaded ? "" : ", view not loaded")>")
    return 1
  }

  // MARK: - The view object

  func pushView(_ v: ObjectID, on slot: DeviceSlot) {
    withBalancedStack(L, pushing: 1) {
      if let stored = slot.viewObjects[v.index] {
        slot.pushSlot(stored)
        return
      }
      pushApp(slot.device.view(v).app, on: slot)
      pushObject(Handle(kind: ObjectKind.view.rawValue, device: slot.id, index: v.index, extra: 0), userValue: true)
      slot.viewObjects[v.index] = slot.store(-1)
    }
  }

  func pushViews(_ ids: [ObjectID], on slot: DeviceSlot) {
    withBalancedStack(L, pushing: 1) {
      pushArray(L, ids) { pushView($0, on: slot) }
    }
  }

  func selfView() throws -> (DeviceSlot, ObjectID) {
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


  func viewToString() throws -> Int32 {
    let (slot, id) = try selfView()
    let v = slot.device.view(id)
    let where_ = v.deallocated ? "removed" : v.inWindow ? "in window" : "not in a window"
    push(L, "<view \(v.spec.className) #\(v.instance): \(where_)>")
    return 1
  }
}
