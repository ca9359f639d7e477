// View controllers and views (reference §5–§6): the actions on them (the
// navigation stack, modal presentation, children, views), a device action's
// passes over the view controllers on screen, the windows, and the layout
// pass. Every appearance sequence comes from one table per kind
// (`ScreenChange.steps`); what each step delivers, and the rules of
// children, views and the appearance machine, are `ViewHierarchy.reduce`
// (`UI/ViewControllerRules.swift`), applied in `Device+Effects.swift`; which
// change of the stack or the modal chain a window refuses, and what one does
// to them, are `ViewHierarchy.refusal` and `Window.reduce`, in the same file;
// which change of children or views an object refuses is
// `ViewHierarchy.refusal(of:)`, what a window's own steps (shown, activated,
// exited) do is `Window.reduce(_: WindowEvent)`, and which view controllers
// and views a layout pass reaches is `needsLayoutPass`, `takesLayout` and
// `takesDisplay`, there too.
extension Device {
  // MARK: - Lookup

  public func viewController(_ id: ObjectID) -> ViewController { objects[vc: id] }
  public func view(_ id: ObjectID) -> View { objects[view: id] }

  /// The window the user sees of an app: its only one, or its focus scene's.
  public func focusWindow(of id: AppID) -> Window? {
    guard let i = focusWindowIndex(id) else { return nil }
    return self[id].windows[i]
  }

  /// The view controller on top of an app's focus window: the last one
  /// presented, or the top of the navigation stack.
  public func top(of id: AppID) -> ObjectID? {
    focusWindow(of: id)?.hierarchy.last
  }

  /// The view controllers on screen in a window, parent first: the top one and,
  /// under a sheet or `.overFullScreen`, the ones it leaves visible (§5.4).
  public func visible(in window: Window) -> [ObjectID] { objects.visible(in: window) }

  // MARK: - Navigation and presentation

  /// Pushes a new view controller onto the focus window's navigation stack (§5.4).
  @discardableResult
  public func push(_ spec: ObjectSpec, app id: AppID) throws -> ObjectID {
    let w = try beginScreenChange(.push, app: id, detail: spec.className)
    let b = newViewController(spec, app: id, window: w, placement: .stack)
    try changeStack(.push(b), app: id, window: w)
    return b
  }

  /// Pops the top view controller (§5.4), which is then deallocated.
  public func pop(app id: AppID) throws {
    try changeStack(.pop(cancelled: false), app: id, window: beginScreenChange(.pop, app: id))
  }

  /// The interactive pop (the edge swipe): completed, it is a pop; cancelled,
  /// the top view controller stays (§5.4 "Interactive pop cancelled").
  public func popGesture(app id: AppID, cancel: Bool) throws {
    let w = try beginScreenChange(.popGesture, app: id, detail: cancel ? "cancel" : nil)
    try changeStack(.pop(cancelled: cancel), app: id, window: w)
  }

  /// Presents a new view controller over the top one; `style` nil means the
  /// profile's default (§0: `.pageSheet` from iOS 13).
  @discardableResult
  public func present(_ spec: ObjectSpec, style: ModalStyle?, app id: AppID) throws -> ObjectID {
    let style = style ?? viewControllerFacts(id).defaultModalStyle
    let w = try beginScreenChange(.present, app: id, detail: "\(spec.className) \(style.rawValue)")
    let b = newViewController(spec, app: id, window: w, placement: .presented(style))
    try changeStack(.present(b), app: id, window: w)
    return b
  }

  /// Dismisses the view controller presented last, which is then deallocated.
  public func dismiss(app id: AppID) throws {
    try changeStack(.dismiss(cancelled: false), app: id, window: beginScreenChange(.dismiss, app: id))
  }

  /// The interactive dismissal of a sheet (swipe down): completed, it is a
  /// dismissal; cancelled, the sheet stays (§5.4).
  public func dismissGesture(app id: AppID, cancel: Bool) throws {
    let w = try beginScreenChange(.dismissGesture, app: id, detail: cancel ? "cancel" : nil)
    try changeStack(.dismiss(cancelled: cancel), app: id, window: w)
  }

  /// One pass of a device action over the view controllers on screen in the
  /// frontmost app's focus window, parent first, each through
  /// `ViewHierarchy.reduce`. Which ones are on screen is read when the pass
  /// starts: app code in an earlier pass may have changed the screen (a push
  /// from `viewWillTransitionToSize:`), and the view controllers on screen
  /// are the ones a rotation lays out (§5.3). A pass that lays out runs with
  /// the window marked as changing, as every layout pass does.
  func reachOnScreen(_ event: (ObjectID) -> ViewControllerEvent, laysOut: Bool = false) throws {
    guard let f = frontmost, self[f].state.isExecuting, let w = focusWindowIndex(f), self[f].windows[w].shown else { return }
    try cascade(for: f) {
      for vc in visible(in: self[f].windows[w]) {
        if laysOut { try changingHierarchy(of: vc) { try run(event(vc), app: f) } } else { try run(event(vc), app: f) }
      }
    }
  }

  // MARK: - Containment (reference §5.6)

  /// `addChild(_:)` with the child's view added to the parent's: UIKit calls
  /// `willMoveToParentViewController:`; the child's view loads; if the parent
  /// is on screen the child appears (`viewWillAppear:`, the layout pass,
  /// `viewDidAppear:`); then the app calls `didMoveToParentViewController:`.
  /// A parent that is appearing gives the child its `viewWillAppear:` now and
  /// its `viewDidAppear:` with its own (§5.6).
  @discardableResult
  public func addChild(_ spec: ObjectSpec, to parent: ObjectID) throws -> ObjectID {
    let id = objects[vc: parent].app
    try beginViewAction(.addChild, app: id, detail: spec.className) { try checkViewEdit(.addChild(to: parent)) }
    let child = objects.makeViewController(spec, app: id, classIndex: trace.classIndex(of: spec.className),
                                           scene: objects[vc: parent].scene, placement: .child(of: parent))
    try asAppCode(id) { try changingHierarchy(of: parent) { try run(.childAdded(child), app: id) } }
    try endViewAction()
    return child
  }

  /// `willMove(toParent: nil)`, the view removed (the child disappears if it
  /// was on screen), `removeFromParent()` (UIKit calls
  /// `didMoveToParentViewController:`), then `dealloc`.
  public func removeFromParent(_ child: ObjectID) throws {
    try checkViewEdit(.removeFromParent(child))
    let id = objects[vc: child].app
    try beginViewAction(.removeFromParent, app: id, detail: objects[vc: child].spec.className)
    // A child is made for its parent's window: its window is the parent's.
    try asAppCode(id) { try changingHierarchy(of: child) { try run(.childRemoved(child), app: id) } }
    try endViewAction()
  }

  // MARK: - Views (`add_view`, reference §6)

  /// Where a view is added: a view controller's view, or another view.
  public enum ViewParent: Sendable {
    case viewController(ObjectID)
    case view(ObjectID)
  }

  /// Adds a new view: its creation callbacks, the superview moves, the window
  /// moves when the superview is in a window; `layoutSubviews` and `drawRect:`
  /// come at the next layout and display pass. Adding to a view controller
  /// whose view is not loaded loads it first (§5.2: the view is lazy).
  @discardableResult
  public func addView(_ spec: ObjectSpec, to parent: ViewParent) throws -> ObjectID {
    let (owner, superview) = try resolve(parent)
    let id = objects[vc: owner].app
    try beginViewAction(.addView, app: id, detail: spec.className)
    let v = newView(spec, owner: owner, superview: superview)
    try asAppCode(id) { try changingHierarchy(of: owner) { try run(.viewAdded(v), app: id) } }
    if !self[id].state.isRunning { objects[view: v].deallocated = true }  // killed meanwhile
    try endViewAction()
    return v
  }

  /// Removes a view from its superview (§6): `willMoveToSuperview:`, the
  /// window moves if it was in a window, `didMoveToSuperview`, then `dealloc`
  /// for it and its subviews.
  public func removeView(_ v: ObjectID) throws {
    try checkViewEdit(.removeView(v))
    let view = objects[view: v]
    let id = view.app
    try beginViewAction(.removeView, app: id, detail: view.spec.className)
    try asAppCode(id) { try changingHierarchy(of: view.owner) { try run(.viewRemoved(v), app: id) } }
    try endViewAction()
  }

  /// Loads a view controller's view if it is not loaded (`loadViewIfNeeded`):
  /// `loadView`, then `viewDidLoad` (§5.2).
  public func loadViewIfNeeded(_ vc: ObjectID) throws {
    guard !objects[vc: vc].viewLoaded, objects[vc: vc].appearance != .deallocated else { return }
    let spec = objects[vc: vc].spec
    objects[vc: vc].viewLoaded = true
    try deliverUI(.loadView, vc: vc)
    if spec.overridesLoadView && spec.creation != .code {
      // §5.2 and seed 003: a custom loadView replaces nib loading entirely.
      trace.append({
        $0.app = objects[vc: vc].app; $0.object = objects[vc: vc].ref
        $0.detail = "\(spec.className) comes from a \(spec.creation.rawValue) but overrides loadView: the \(spec.creation.rawValue)'s view is never loaded, so its view is empty (reference §5.2)"
      }, kind: .warning, at: now)
    }
    try deliverUI(.viewDidLoad, vc: vc)
  }

  // MARK: - Lifecycle hooks

  /// The root view controller is created: in the app-delegate model from a
  /// storyboard before `willFinishLaunching` and otherwise in `didFinishLaunching`
  /// (§2.1 row 0, §5.1); in the scene model in `scene:willConnectToSession:options:`
  /// (§2.1 step 6). Apps without a `root` have no view controllers.
  func createRoot(_ id: AppID, scene: Int32, storyboardPhase: Bool? = nil) throws {
    guard let spec = self[id].config.root else { return }
    if let storyboardPhase, storyboardPhase != (spec.creation == .storyboard) { return }
    if self[id].windows.contains(where: { $0.scene == scene }) { return }
    self[id].windows.append(Window(scene: scene))
    let w = self[id].windows.count - 1
    let root = newViewController(spec, app: id, window: w, placement: .stack)
    self[id].windows[w].stack = [root]
    try createCallbacks(root)
  }

  /// The window is shown for the first time in this process: the root appears
  /// up to its layout pass, and waits for the activation for `viewDidAppear:`
  /// (§2.1 steps 4–6; §8.8's quirk moves it before the activation).
  func showWindow(_ id: AppID, scene: Int32) throws {
    guard let w = self[id].windows.firstIndex(where: { $0.scene == scene }),
          self[id].windows[w].changes(on: .shows) else { return }
    try walkWindow(self[id].windows[w].reduce(.shows), app: id, window: w)
  }

  /// The root's `viewDidAppear:`, at the activation (§2.1 step 6).
  func finishShowingWindow(_ id: AppID, scene: Int32) throws {
    guard let w = self[id].windows.firstIndex(where: { $0.scene == scene }),
          self[id].windows[w].changes(on: .activates) else { return }
    try walkWindow(self[id].windows[w].reduce(.activates), app: id, window: w)
  }

  /// The activation of a window, with its root's pending `viewDidAppear:` on
  /// the side §2.1 (or §8.8's quirk) puts it.
  func activating(_ id: AppID, scene: Int32, _ activate: () throws -> Void) throws {
    let early = quirks.contains(.rootAppearsBeforeActive)
    if early { try finishShowingWindow(id, scene: scene) }
    try activate()
    if !early { try finishShowingWindow(id, scene: scene) }
  }

  /// Home with `UIApplicationExitsOnSuspend`: the visible view controller
  /// disappears before the app terminates (§0, §3.7).
  @inline(never)  // a rare step: see Device+Effects.swift
  func disappearForExit(_ id: AppID) throws {
    for w in self[id].windows.indices {
      let top = self[id].windows[w].presented.last ?? self[id].windows[w].stack.last
      let appeared = top.map { objects[vc: $0].appearance == .appeared } ?? false
      try walkWindow(self[id].windows[w].reduce(.exits(topAppeared: appeared)), app: id, window: w)
    }
  }

  /// §0, §2.9: after the app delegate and the notification, every view
  /// controller in the visible hierarchy, parent first, gets
  /// `didReceiveMemoryWarning`. On iOS ≤ 5 those off screen with a loaded view
  /// get it too, and unload their views (§5.5, the iOS 5-era log of §2.9).
  func warnViewControllers(_ id: AppID) throws {
    for w in self[id].windows.indices where self[id].windows[w].shown {
      let window = self[id].windows[w]
      let onScreen = visible(in: window)
      for vc in window.hierarchy { try run(.memoryWarning(vc, onScreen: onScreen.contains(vc)), app: id) }
    }
  }

  /// A window goes with its scene or its process: its view controllers and
  /// views are released with no callback (`ViewHierarchy.reduce`'s `.released`).
  func dropWindows(_ id: AppID, scene: Int32? = nil) {
    for window in self[id].windows where scene == nil || window.scene == scene {
      // Coverage and the children only.
      for vc in window.hierarchy { releasing { try run(.released(vc), app: id) } }
    }
    self[id].windows.removeAll { scene == nil || $0.scene == scene }
  }

  /// Views added to a window since the last pass lay out and draw (§6: "on
  /// the next layout pass", "on the next display"). Runs when the running code
  /// returns, as a run-loop turn would.
  @inline(__always)
  func flushLayout() throws {
    if objects.layoutPending { try layOutPending() }
  }

  @inline(never)  // rare: the check above runs after every event
  private func layOutPending() throws {
    objects.layoutPending = false
    for app in processes.executing() {
      // A working app lays out once its code returns (§3.8).
      if !workFrames.isEmpty, isMainThreadBusy(app) {
        objects.layoutPending = true
        continue
      }
      try cascade(for: app) {
        for window in self[app].windows where window.shown {
          for vc in window.hierarchy where objects.needsLayoutPass(vc) {
            try changingHierarchy(of: vc) { try layoutPass(vc, passes: 1) }
          }
        }
      }
    }
  }

  // MARK: - Walking a screen change

  /// Runs a view action's body. Made by the script, a kill of the app inside
  /// it ends the action; made by app code, the kill unwinds that code too.
  private func asAppCode(_ id: AppID, _ body: () throws -> Void) throws {
    if runningApp == nil { try cascade(for: id, body) } else { try body() }
  }

  /// Runs `body` with the view controller's window marked as changing, so that
  /// app code cannot start a screen change from a view callback meanwhile.
  private func changingHierarchy(of vc: ObjectID, _ body: () throws -> Void) throws {
    let id = objects[vc: vc].app
    guard let w = self[id].windows.firstIndex(where: { $0.scene == objects[vc: vc].scene }) else {
      return try body()
    }
    let was = self[id].windows[w].changing
    self[id].windows[w].changing = true
    defer {
      if let w = self[id].windows.firstIndex(where: { $0.scene == objects[vc: vc].scene }) {
        self[id].windows[w].changing = was
      }
    }
    try body()
  }

  /// Walks the screen change a window's own step asks for (`Window.reduce(_: WindowEvent)`).
  private func walkWindow(_ walk: WindowWalk?, app id: AppID, window w: Int) throws {
    guard let walk else { return }
    try change(walk.kind, a: walk.a, b: walk.b, app: id, window: w)
  }

  /// Walks one kind's table with A and B (reference §5.4), each step through
  /// `ViewHierarchy.reduce`.
  func change(_ kind: ScreenChange, a: ObjectID?, b: ObjectID?, app id: AppID, window w: Int) throws {
    self[id].windows[w].changing = true
    defer { if w < self[id].windows.count { self[id].windows[w].changing = false } }
    let steps = kind.steps
    let settled = kind.settledAt
    for (i, step) in steps.enumerated() {
      if i == settled, w < self[id].windows.count { self[id].windows[w].changing = false }
      try run(.step(step, a: a, b: b), app: id)
    }
  }

  /// `passes` layout pairs; in the first, the subviews that need it lay out
  /// (after the view controller's, as Core Animation recurses); then the
  /// subviews that need it draw (§5.3, §6).
  func layoutPass(_ vc: ObjectID, passes: Int) throws {
    for pass in 0..<max(passes, 0) {
      try deliverUI(.viewWillLayoutSubviews, vc: vc)
      try deliverUI(.viewDidLayoutSubviews, vc: vc)
      if pass == 0 {
        for v in objects.passViews(vc) where objects.takesLayout(v) { try deliverUI(.layoutSubviews, view: v) }
      }
    }
    for v in objects.passViews(vc) where objects.takesDisplay(v) { try deliverUI(.drawRect, view: v) }
    objects.pruneMarked(vc)
  }

  /// `willMoveToWindow:` for every view, then `didMoveToWindow` for every view,
  /// parents first (§6).
  func moveToWindow(_ moving: [ObjectID], entering: Bool) throws {
    for v in moving { try deliverUI(.willMoveToWindow, view: v) }
    for v in moving {
      objects.movesToWindow(v, entering: entering)
      try deliverUI(.didMoveToWindow, view: v)
    }
  }

  func deallocView(_ v: ObjectID) throws {
    try deliverUI(.dealloc, view: v)
    objects[view: v].deallocated = true
  }

  // MARK: - Objects

  private func newViewController(_ spec: ObjectSpec, app id: AppID, window w: Int, placement: Placement) -> ObjectID {
    objects.makeViewController(spec, app: id, classIndex: trace.classIndex(of: spec.className),
                               scene: self[id].windows[w].scene, placement: placement)
  }

  private func newView(_ spec: ObjectSpec, owner: ObjectID, superview: ObjectID?) -> ObjectID {
    objects.makeView(spec, classIndex: trace.classIndex(of: spec.className), owner: owner, superview: superview)
  }

  /// The creation path of a view controller (§5.1).
  func createCallbacks(_ vc: ObjectID) throws {
    set(vc) { $0.created = true }
    switch objects[vc: vc].spec.creation {
    case .storyboard:
      try deliverUI(.initWithCoder, vc: vc)
      try deliverUI(.awakeFromNib, vc: vc)
    case .xib:
      try deliverUI(.initWithNibName, vc: vc, detail: "nibName=\(objects[vc: vc].spec.className)")
    case .code:
      try deliverUI(.initWithNibName, vc: vc, detail: "nibName=nil")
    }
  }

  private func set(_ vc: ObjectID, _ change: (inout ViewController) -> Void) {
    change(&objects[vc: vc])
  }

  // MARK: - Checks

  /// Checks a hierarchy change (`ViewHierarchy.refusal`) and records it;
  /// returns the focus window.
  private func beginScreenChange(_ action: DeviceAction, app id: AppID, detail: String? = nil) throws -> Int {
    var window = -1
    try beginViewAction(action, app: id, detail: detail) {
      let w = focusWindowIndex(id)
      if let refusal = objects.refusal(of: action, in: w.map { self[id].windows[$0] }, hasRoot: self[id].config.root != nil) {
        throw refused(action, refusal, app: id)
      }
      window = w!
    }
    return window
  }

  /// A change of the stack or the modal chain the checks let through
  /// (`Window.reduce`), then the screen change it walks.
  private func changeStack(_ change: StackChange, app id: AppID, window w: Int) throws {
    let event = self[id].windows[w].reduce(change)
    try asAppCode(id) { try run(event, app: id) }
    try endViewAction()
  }

  /// The error of a refused view action.
  private func refused(_ action: DeviceAction, _ refusal: NavigationRefusal, app id: AppID) -> SimulationError {
    let operation = Operation.action(action), app = self[id].config.bundle
    switch refusal {
    case .noRoot: return .noRootViewController(operation, app: app)
    case .windowNotShown: return .invalidAction(operation, .windowNotShown(app: app))
    case .exiting: return .invalidAction(operation, .exiting(app: app))
    case .transitionRunning: return .invalidAction(operation, .transitionRunning(app: app))
    case .presentedOverStack: return .invalidAction(operation, .presentedOverStack(app: app))
    case .onlyRoot: return .invalidAction(operation, .onlyRoot(app: app))
    case .nothingPresented: return .invalidAction(operation, .nothingPresented(app: app))
    case .notSwipeable(let style): return .invalidAction(operation, .notSwipeable(style: style))
    }
  }

  /// Records a view action made by the script (not by app code), after
  /// checking that the app's code can run and that `checks` allow it: a
  /// refused action leaves no record.
  private func beginViewAction(_ action: DeviceAction, app id: AppID, detail: String?,
                               checks: () throws -> Void = {}) throws {
    let operation = Operation.action(action)
    if let running = runningApp, running != id {
      throw SimulationError.reentrant(operation, app: self[id].config.bundle, inside: activity(busy!))
    }
    if case .policy = busy {
      throw SimulationError.reentrant(operation, app: self[id].config.bundle, inside: activity(busy!))
    }
    guard self[id].state.isExecuting else {
      throw SimulationError.notExecuting(operation, app: self[id].config.bundle, state: self[id].state)
    }
    try checks()
    if runningApp == nil {
      trace.append({ $0.action = action; $0.app = id; $0.detail = detail }, kind: .action, at: now)
    }
  }

  /// After a view action made by the script: the layout pass and the events due now.
  private func endViewAction() throws {
    if runningApp == nil { try settle() }
  }

  /// Checks a change of children or views (`ViewHierarchy.refusal(of:)`).
  private func checkViewEdit(_ edit: ViewEdit) throws {
    if let refusal = objects.refusal(of: edit) { throw SimulationError.invalidAction(.action(edit.action), refusal) }
  }

  /// The owner and the superview of a view added to `parent`, once the check let it through.
  private func resolve(_ parent: ViewParent) throws -> (ObjectID, ObjectID?) {
    switch parent {
    case .viewController(let vc):
      try checkViewEdit(.addView(toViewController: vc))
      return (vc, nil)
    case .view(let v):
      try checkViewEdit(.addSubview(to: v))
      return (objects[view: v].owner, v)
    }
  }

  private func focusWindowIndex(_ id: AppID) -> Int? {
    let scene: Int32 = self[id].model == .scene ? (self[id].focusScene ?? -1) : 0
    return self[id].windows.firstIndex { $0.scene == scene }
  }
}
