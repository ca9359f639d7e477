/// What the profile, the policy and the app say about the rules of view
/// controllers (§0, §5.3, §5.6), so that `ViewHierarchy.reduce` tests no
/// version number.
public struct ViewControllerFacts: Equatable, Sendable {
  /// Who gets `viewIsAppearing:` (§0, §5.3).
  public var viewIsAppearing: CallbackDelivery
  /// A child gets `viewIsAppearing:` too; on iOS 13–15 it misses it (§5.6).
  public var viewIsAppearingReachesChildren: Bool
  /// The app implements `viewIsAppearing:` (a back-deployed one reaches it).
  public var appImplementsViewIsAppearing: Bool
  /// Layout passes of a view controller's first appearance, and of one that a
  /// pop or a dismissal reveals (§5.3, §5.4).
  public var layoutPassesFirst: Int
  public var layoutPassesRevealed: Int
  /// A child added while its container appears gets an extra
  /// `viewDidAppear:` at once (iOS 6, §5.6).
  public var childAppearsTwiceMidAppearance: Bool
  /// `viewWillTransitionToSize:withTransitionCoordinator:` exists (iOS 8+, §5.3).
  public var viewWillTransitionToSize: Bool
  /// A memory warning unloads the views off screen (iOS ≤ 5, §5.5), with
  /// `viewWillUnload` first where it exists (iOS 5).
  public var unloadsViewsOnMemoryWarning: Bool
  public var viewWillUnload: Bool
  /// The style of a presentation that does not name one (§0: `.pageSheet`
  /// from iOS 13, `.fullScreen` before).
  public var defaultModalStyle: ModalStyle

  public init(viewIsAppearing: CallbackDelivery, viewIsAppearingReachesChildren: Bool,
              appImplementsViewIsAppearing: Bool = false, layoutPassesFirst: Int = 2, layoutPassesRevealed: Int = 0,
              childAppearsTwiceMidAppearance: Bool = false, viewWillTransitionToSize: Bool = true,
              unloadsViewsOnMemoryWarning: Bool = false, viewWillUnload: Bool = false,
              defaultModalStyle: ModalStyle = .pageSheet) {
    self.defaultModalStyle = defaultModalStyle
    self.viewWillTransitionToSize = viewWillTransitionToSize
    self.unloadsViewsOnMemoryWarning = unloadsViewsOnMemoryWarning
    self.viewWillUnload = viewWillUnload
    self.childAppearsTwiceMidAppearance = childAppearsTwiceMidAppearance
    self.viewIsAppearing = viewIsAppearing
    self.viewIsAppearingReachesChildren = viewIsAppearingReachesChildren
    self.appImplementsViewIsAppearing = appImplementsViewIsAppearing
    self.layoutPassesFirst = layoutPassesFirst
    self.layoutPassesRevealed = layoutPassesRevealed
  }

  public init(profile: OSProfile, policy: Policy, implemented: CallbackSet) {
    self.init(viewIsAppearing: profile.delivery(of: .viewIsAppearing),
              viewIsAppearingReachesChildren: profile.viewIsAppearingReachesChildren,
              appImplementsViewIsAppearing: implemented.contains(.viewIsAppearing),
              layoutPassesFirst: policy.layoutPassesFirst, layoutPassesRevealed: policy.layoutPassesRevealed,
              childAppearsTwiceMidAppearance: profile.childAppearsTwiceMidAppearance,
              viewWillTransitionToSize: profile.hasViewWillTransitionToSize,
              unloadsViewsOnMemoryWarning: profile.unloadsViewsOnMemoryWarning, viewWillUnload: profile.hasViewWillUnload,
              defaultModalStyle: profile.defaultModalStyle)
  }
}

/// An input to the rules of view controllers.
public enum ViewControllerEvent: Equatable, Sendable {
  /// B was pushed over A, popped off A (or the edge swipe turned back), B
  /// presented over A, or dismissed off it (or the swipe down turned back):
  /// the stack or the presented list already says so (§5.4).
  case pushed(a: ObjectID?, b: ObjectID)
  case popped(a: ObjectID, b: ObjectID, cancelled: Bool)
  case presented(a: ObjectID?, b: ObjectID)
  case dismissed(a: ObjectID?, b: ObjectID, cancelled: Bool)
  /// One step of a screen change, with its two parties (§5.4).
  case step(ScreenChangeStep, a: ObjectID?, b: ObjectID?)
  /// A container forwards `viewIsAppearing:` to a child appearing with it (§5.6).
  case childIsAppearing(ObjectID)
  /// `addChild(_:)` with the child's view added to its container's (§5.6);
  /// the steps after it follow, each once the effects before it ran.
  case childAdded(ObjectID)
  case childLoaded(ObjectID)
  case childJoins(ObjectID)
  /// The child's view enters the window; `containerAppeared` is whether its
  /// container had appeared (not merely appearing) when the child joined.
  case childEntersWindow(ObjectID, containerAppeared: Bool)
  case childAppeared(ObjectID, containerAppeared: Bool)
  /// `willMove(toParent: nil)`, the view removed, `removeFromParent()`, then
  /// `dealloc` (§5.6); the steps after it follow.
  case childRemoved(ObjectID)
  case childLeaves(ObjectID)
  case childLeavesWindow(ObjectID)
  case childDetaches(ObjectID)
  case childGone(ObjectID)
  /// A new view is added to its view controller's view or to its superview
  /// (§6); the steps after it follow.
  case viewAdded(ObjectID)
  case viewMoves(ObjectID)
  case viewAttaches(ObjectID)
  case viewJoins(ObjectID)
  /// A view entered a window: the next layout and display pass is due (§6).
  case layoutDue
  /// A view is removed from its superview (§6); `viewDetaches` follows.
  case viewRemoved(ObjectID)
  case viewDetaches(ObjectID)
  /// The device rotates: a view controller on screen hears of the new size
  /// (all of them first), then its bounds change (§5.3: layout follows bounds).
  case willTransitionToSize(ObjectID)
  case boundsChanged(ObjectID)
  /// A memory warning reaches a view controller of the visible hierarchy,
  /// on screen or not (§2.9, §5.5); `viewUnloads` follows an unload.
  case memoryWarning(ObjectID, onScreen: Bool)
  case viewUnloads(ObjectID)
  /// A step along a view controller's appearance machine (§5.3); where the
  /// table puts the change after the callback, `appearanceChanges` follows.
  case appearance(ObjectID, AppearanceEvent)
  case appearanceChanges(ObjectID, to: Appearance, on: AppearanceEvent)
  /// A container forwards its appearance step to a child (§5.6).
  case childAppearance(ObjectID, AppearanceEvent)
  /// Its window went with its scene or its process: it, its views and its
  /// children are released with no callback (§5.5: `dealloc` may never run
  /// at exit).
  case released(ObjectID)
}

/// What a step of the view controllers' rules asks the device to do.
public enum ViewControllerEffect: Equatable, Sendable {
  /// Walk one kind's table of steps with A and B (§5.4).
  case walk(ScreenChange, a: ObjectID?, b: ObjectID)
  /// The creation callbacks of a new view controller (§5.1).
  case create(ObjectID)
  /// `loadView`, `viewDidLoad` if its view is not loaded (§5.2).
  case loadView(ObjectID)
  /// One step along the appearance machine, with the edge's callbacks and
  /// the children it forwards to (§5.3, §5.6).
  case appear(ObjectID, AppearanceEvent)
  /// Its views enter or leave the window: `willMoveToWindow:` for each, then
  /// `didMoveToWindow` for each (§6).
  case moveToWindow(ObjectID, entering: Bool)
  /// A view controller callback.
  case deliver(Callback, ObjectID)
  /// `passes` layout pairs, then the subviews that need it lay out and draw (§5.3, §6).
  case layout(ObjectID, passes: Int)
  /// `dealloc` of every view under it (§5.5).
  case deallocViews(ObjectID)
  /// Each of its children, as they are once the effects before ran, gets
  /// `.childIsAppearing`.
  case forwardIsAppearing(ObjectID)
  /// A view callback.
  case deliverView(Callback, ObjectID)
  /// A view and every view under it enter or leave the window (§6).
  case moveSubtree(ObjectID, entering: Bool)
  /// `dealloc` of a view and every view under it (§6).
  case deallocSubtree(ObjectID)
  /// The appearance machine took edge `edge` (for coverage).
  case took(edge: Int)
  /// The step has no edge from the view controller's appearance: a rule of
  /// the engine is wrong.
  case outOfOrder(ObjectID, AppearanceEvent)
  /// Each of its children, as they are once the effects before ran, gets
  /// `.childAppearance` with the step.
  case forwardAppearance(ObjectID, AppearanceEvent)
  /// Each of its children gets `.released`.
  case releaseChildren(ObjectID)
  /// The next step, once the effects before it ran: it reads what their
  /// handlers left.
  case then(ViewControllerEvent)
}

extension ViewHierarchy {
  /// One step of the view controllers' rules: changes the view controllers'
  /// flags the step owns (in the window, appeared once) and says what the
  /// device delivers, in order. A step whose party is absent does nothing.
  public mutating func reduce(_ event: ViewControllerEvent, facts: ViewControllerFacts) -> Effects<ViewControllerEffect> {
    switch event {
    case .pushed(let a, let b):
      return Effects(.walk(.push, a: a, b: b))
    case .popped(let a, let b, let cancelled):
      return Effects(.walk(cancelled ? .popCancelled : .pop, a: a, b: b))
    case .presented(let a, let b):
      return Effects(.walk(.present(modalStyle(of: b)), a: a, b: b))
    case .dismissed(let a, let b, let cancelled):
      return Effects(.walk(cancelled ? .dismissCancelled : .dismiss(modalStyle(of: b)), a: a, b: b))
    case .step(let step, let a, let b):
      return reduce(step, a: a, b: b, facts: facts)
    case .childIsAppearing(let child):
      guard self[vc: child].appearance == .appearing, deliversViewIsAppearing(child, facts: facts) else { return Effects() }
      return Effects(.deliver(.viewIsAppearing, child))
    case .childAdded(let child):
      guard let parent = container(of: child) else { return Effects() }
      self[vc: parent].children.append(child)
      return Effects(.create(child), .deliver(.willMoveToParent, child), .loadView(parent), .then(.childLoaded(child)))
    case .childLoaded(let child):
      return Effects(.loadView(child), .then(.childJoins(child)))
    case .childJoins(let child):
      // On screen, or appearing (added from `applicationDidBecomeActive:` at
      // launch, between the container's viewWillAppear: and viewDidAppear:).
      guard let parent = container(of: child), self[vc: parent].inWindow,
            self[vc: parent].appearance == .appeared || self[vc: parent].appearance == .appearing else {
        return Effects(.deliver(.didMoveToParent, child))
      }
      let appeared = self[vc: parent].appearance == .appeared
      return Effects(.appear(child, .willAppear), .then(.childEntersWindow(child, containerAppeared: appeared)))
    case .childEntersWindow(let child, let appeared):
      self[vc: child].inWindow = true
      var effects: Effects<ViewControllerEffect> = Effects(.moveToWindow(child, entering: true))
      if deliversViewIsAppearing(child, facts: facts) { effects.append(.deliver(.viewIsAppearing, child)) }  // §0, §5.3
      effects.append(.layout(child, passes: facts.layoutPassesFirst))
      effects.append(.then(.childAppeared(child, containerAppeared: appeared)))
      return effects
    case .childAppeared(let child, let appeared):
      if appeared {
        self[vc: child].hasAppeared = true
        return Effects(.appear(child, .didAppear), .deliver(.didMoveToParent, child))
      }
      if facts.childAppearsTwiceMidAppearance {
        // §5.6: iOS 6's extra viewDidAppear:; the child stays appearing, and
        // gets the usual one when its container's is forwarded.
        return Effects(.deliver(.viewDidAppear, child), .deliver(.didMoveToParent, child))
      }
      return Effects(.deliver(.didMoveToParent, child))
    case .childRemoved(let child):
      return Effects(.deliver(.willMoveToParent, child), .then(.childLeaves(child)))
    case .childLeaves(let child):
      // Only a child on screen disappears.
      guard self[vc: child].appearance == .appeared else { return detach(child) }
      return Effects(.appear(child, .willDisappear), .then(.childLeavesWindow(child)))
    case .childLeavesWindow(let child):
      self[vc: child].inWindow = false
      return Effects(.moveToWindow(child, entering: false), .appear(child, .didDisappear), .then(.childDetaches(child)))
    case .childDetaches(let child):
      return detach(child)
    case .childGone(let child):
      // A child that has disappeared is released: nothing else holds it (§5.5).
      guard self[vc: child].appearance == .disappeared else { return Effects() }
      return Effects(.appear(child, .dealloc), .deallocViews(child))
    case .viewAdded(let v):
      var effects = Effects<ViewControllerEffect>()
      // §5.2: the view controller's view is lazy; adding to it loads it.
      if self[view: v].superview == nil { effects.append(.loadView(self[view: v].owner)) }
      if self[view: v].spec.creation == .code {
        effects.append(.deliverView(.initWithFrame, v))
      } else {
        effects.append(.deliverView(.initWithCoder, v))
        effects.append(.deliverView(.awakeFromNib, v))
      }
      effects.append(.then(.viewMoves(v)))
      return effects
    case .viewMoves(let v):
      return Effects(.deliverView(.willMoveToSuperview, v), .then(.viewAttaches(v)))
    case .viewAttaches(let v):
      attach(v)
      return Effects(.deliverView(.didMoveToSuperview, v), .then(.viewJoins(v)))
    case .viewJoins(let v):
      // `layoutSubviews` and `drawRect:` come at the next pass, not now.
      let inWindow = self[view: v].superview.map { self[view: $0].inWindow } ?? self[vc: self[view: v].owner].inWindow
      return inWindow ? Effects(.moveSubtree(v, entering: true), .then(.layoutDue)) : Effects()
    case .layoutDue:
      layoutPending = true
      return Effects()
    case .viewRemoved(let v):
      // Whether it leaves a window is as it was when the removal started.
      return self[view: v].inWindow
        ? Effects(.deliverView(.willMoveToSuperview, v), .moveSubtree(v, entering: false), .then(.viewDetaches(v)))
        : Effects(.deliverView(.willMoveToSuperview, v), .then(.viewDetaches(v)))
    case .viewDetaches(let v):
      if let s = self[view: v].superview {
        self[view: s].subviews.removeAll { $0 == v }
      } else {
        self[vc: self[view: v].owner].subviews.removeAll { $0 == v }
      }
      return Effects(.deliverView(.didMoveToSuperview, v), .deallocSubtree(v))
    case .willTransitionToSize(let vc):
      return facts.viewWillTransitionToSize ? Effects(.deliver(.viewWillTransitionToSize, vc)) : Effects()
    case .boundsChanged(let vc):
      // Its subviews' bounds change too: they lay out in the pass.
      for v in views(under: vc) where self[view: v].inWindow {
        self[view: v].needsLayout = true
        mark(v)
      }
      return Effects(.layout(vc, passes: 1))
    case .memoryWarning(let vc, let onScreen):
      if onScreen { return Effects(.deliver(.viewControllerDidReceiveMemoryWarning, vc)) }
      guard facts.unloadsViewsOnMemoryWarning, self[vc: vc].viewLoaded else { return Effects() }
      return facts.viewWillUnload
        ? Effects(.deliver(.viewControllerDidReceiveMemoryWarning, vc), .deliver(.viewWillUnload, vc), .then(.viewUnloads(vc)))
        : Effects(.deliver(.viewControllerDidReceiveMemoryWarning, vc), .then(.viewUnloads(vc)))
    case .viewUnloads(let vc):
      for v in views(under: vc) { self[view: v].deallocated = true }
      self[vc: vc].subviews.removeAll()
      self[vc: vc].viewLoaded = false
      return Effects(.deliver(.viewDidUnload, vc))
    case .appearance(let vc, let event):
      let table = AppearanceLifecycle.table
      guard let e = table.edge(from: self[vc: vc].appearance, on: event) else { return Effects(.outOfOrder(vc, event)) }
      var effects: Effects<ViewControllerEffect> = Effects(.took(edge: e))
      let after = table.transitions[e].deliveredAfter
      if after { self[vc: vc].appearance = table.transitions[e].to }
      for callback in table.transitions[e].callbacks { effects.append(.deliver(callback, vc)) }
      effects.append(after ? .forwardAppearance(vc, event)
                           : .then(.appearanceChanges(vc, to: table.transitions[e].to, on: event)))
      return effects
    case .appearanceChanges(let vc, let to, let event):
      self[vc: vc].appearance = to
      return Effects(.forwardAppearance(vc, event))
    case .childAppearance(let child, let event):
      // §5.6: after its own callback; children that cannot take the step
      // (one added while the container was off screen) are left as they are.
      guard AppearanceLifecycle.table.edge(from: self[vc: child].appearance, on: event) != nil else { return Effects() }
      if event == .didAppear { self[vc: child].hasAppeared = true }
      return event == .dealloc ? Effects(.then(.appearance(child, event)), .deallocViews(child)) : Effects(.then(.appearance(child, event)))
    case .released(let vc):
      return released(vc)
    }
  }

  /// A view controller whose window is gone: nothing of it is in a window
  /// any more, its views are gone, it takes the silent `release` edge unless
  /// it was deallocated already, and its children go with it (§5.5, §5.6).
  @inline(never)  // a rare step: see Device+Effects.swift
  private mutating func released(_ vc: ObjectID) -> Effects<ViewControllerEffect> {
    for v in views(under: vc) {
      self[view: v].deallocated = true
      self[view: v].inWindow = false
    }
    self[vc: vc].inWindow = false
    let table = AppearanceLifecycle.table
    guard let e = table.edge(from: self[vc: vc].appearance, on: .release) else { return Effects(.releaseChildren(vc)) }
    self[vc: vc].appearance = table.transitions[e].to
    return Effects(.took(edge: e), .releaseChildren(vc))
  }

  /// `removeFromParent()`: UIKit calls `didMoveToParentViewController:` (§5.6).
  private mutating func detach(_ child: ObjectID) -> Effects<ViewControllerEffect> {
    if let parent = container(of: child) { self[vc: parent].children.removeAll { $0 == child } }
    return Effects(.deliver(.didMoveToParent, child), .then(.childGone(child)))
  }

  /// The style a view controller was presented with (`.fullScreen` for one
  /// that was not presented, which no rule asks).
  private func modalStyle(of vc: ObjectID) -> ModalStyle {
    if case .presented(let style) = self[vc: vc].placement { return style }
    return .fullScreen
  }

  private func container(of child: ObjectID) -> ObjectID? {
    if case .child(let parent) = self[vc: child].placement { return parent }
    return nil
  }

  private mutating func reduce(_ step: ScreenChangeStep, a: ObjectID?, b: ObjectID?,
                               facts: ViewControllerFacts) -> Effects<ViewControllerEffect> {
    func pick(_ p: Party) -> ObjectID? { p == .a ? a : b }
    switch step {
    case .prepare(let p):
      guard let vc = pick(p) else { return Effects() }
      return self[vc: vc].created ? Effects(.loadView(vc)) : Effects(.create(vc), .loadView(vc))
    case .willAppear(let p):
      guard let vc = pick(p) else { return Effects() }
      // §5.5: a view unloaded on iOS ≤ 5 loads again on the next access.
      return Effects(.loadView(vc), .appear(vc, .willAppear))
    case .enterWindow(let p):
      guard let vc = pick(p), !self[vc: vc].inWindow else { return Effects() }
      self[vc: vc].inWindow = true
      return Effects(.moveToWindow(vc, entering: true))
    case .isAppearing(let p):
      guard let vc = pick(p) else { return Effects() }
      var effects = Effects<ViewControllerEffect>()
      if deliversViewIsAppearing(vc, facts: facts) { effects.append(.deliver(.viewIsAppearing, vc)) }
      // §5.6: a container forwards viewIsAppearing: to the children appearing with it.
      effects.append(.forwardIsAppearing(vc))
      return effects
    case .layout(let p):
      guard let vc = pick(p) else { return Effects() }
      // A view controller that appeared before is being revealed (a pop, a
      // full-screen dismissal): its view keeps its size (§5.4).
      return Effects(.layout(vc, passes: self[vc: vc].hasAppeared ? facts.layoutPassesRevealed : facts.layoutPassesFirst))
    case .didAppear(let p):
      guard let vc = pick(p) else { return Effects() }
      self[vc: vc].hasAppeared = true
      return Effects(.appear(vc, .didAppear))
    case .willDisappear(let p):
      guard let vc = pick(p) else { return Effects() }
      return Effects(.appear(vc, .willDisappear))
    case .leaveWindow(let p):
      guard let vc = pick(p), self[vc: vc].inWindow else { return Effects() }
      self[vc: vc].inWindow = false
      return Effects(.moveToWindow(vc, entering: false))
    case .didDisappear(let p):
      guard let vc = pick(p) else { return Effects() }
      return Effects(.appear(vc, .didDisappear))
    case .dealloc(let p):
      guard let vc = pick(p) else { return Effects() }
      return Effects(.appear(vc, .dealloc), .deallocViews(vc))
    }
  }

  /// `viewIsAppearing:` per profile: always from 17; on 13–16 only to a view
  /// controller that implements it; never before 13 (§0, §5.3).
  public func deliversViewIsAppearing(_ vc: ObjectID, facts: ViewControllerFacts) -> Bool {
    // §5.6: on iOS 13–15 a child misses it, whatever it implements.
    if case .child = self[vc: vc].placement, !facts.viewIsAppearingReachesChildren { return false }
    switch facts.viewIsAppearing {
    case .always: return true
    case .never, .ifAny: return false
    case .whenImplemented:
      return facts.appImplementsViewIsAppearing || self[vc: vc].spec.handled.contains(.viewIsAppearing)
    }
  }
}

// MARK: - The navigation stack and the modal chain (§5.4)

/// Why a window refuses a change of its navigation stack or modal chain.
public enum NavigationRefusal: Equatable, Sendable {
  /// The app has no root view controller, so no window.
  case noRoot
  /// The window is not on screen yet.
  case windowNotShown
  /// The app is exiting (§3.7): its view controllers have left for good.
  case exiting
  /// A transition runs, or the root waits for its `viewDidAppear:`: another
  /// would unbalance UIKit's appearance calls.
  case transitionRunning
  /// A push or a pop under a presented view controller.
  case presentedOverStack
  /// A pop of the root.
  case onlyRoot
  /// A dismissal with nothing presented.
  case nothingPresented
  /// A swipe down on a presentation that is not a sheet.
  case notSwipeable(ModalStyle)
}

/// A change of a window's navigation stack or modal chain that a check
/// (`ViewHierarchy.refusal`) let through; the new view controller of a push
/// or a presentation is made by then.
public enum StackChange: Equatable, Sendable {
  case push(ObjectID)
  case present(ObjectID)
  /// A pop, or the edge swipe (turned back: `cancelled`).
  case pop(cancelled: Bool)
  /// A dismissal, or the swipe down (turned back: `cancelled`).
  case dismiss(cancelled: Bool)
}

extension ViewHierarchy {
  /// Whether an app's focus window takes a view action, and if not, why
  /// (§5.4); a push, a pop, a presentation and a dismissal, the swipes
  /// included, have checks of their own after the window's.
  /// - Parameters:
  ///   - window: the app's focus window; nil when it has none yet.
  ///   - hasRoot: the app has a root view controller (`AppConfig.root`).
  public func refusal(of action: DeviceAction, in window: Window?, hasRoot: Bool) -> NavigationRefusal? {
    guard let window, window.shown else { return hasRoot ? .windowNotShown : .noRoot }
    // Found by the action fuzzer: a push from applicationWillTerminate:
    // after the exit's viewWillDisappear: would make the top disappear twice.
    if window.exiting { return .exiting }
    if window.changing || window.awaitingDidAppear { return .transitionRunning }
    switch action {
    case .push:
      return window.presented.isEmpty ? nil : .presentedOverStack
    case .pop, .popGesture:
      if !window.presented.isEmpty { return .presentedOverStack }
      return window.stack.count >= 2 ? nil : .onlyRoot
    case .dismiss, .dismissGesture:
      guard let b = window.presented.last, case .presented(let style) = self[vc: b].placement else { return .nothingPresented }
      // Only a sheet follows the finger down (§5.4).
      if action == .dismissGesture && style != .pageSheet && style != .formSheet { return .notSwipeable(style) }
      return nil
    default:
      return nil
    }
  }
}

extension Window {
  /// Applies a change the checks let through (`ViewHierarchy.refusal`): the
  /// stack or the modal chain says so at once, a turned-back swipe leaving
  /// it as it was; returns the event that walks the screen change, between
  /// the top before and the one pushed, popped, presented or dismissed (§5.4).
  public mutating func reduce(_ change: StackChange) -> ViewControllerEvent {
    switch change {
    case .push(let b):
      let a = stack.last
      stack.append(b)
      return .pushed(a: a, b: b)
    case .present(let b):
      let a = presented.last ?? stack.last
      presented.append(b)
      return .presented(a: a, b: b)
    case .pop(let cancelled):
      let a = stack[stack.count - 2], b = stack[stack.count - 1]
      if !cancelled { stack.removeLast() }
      return .popped(a: a, b: b, cancelled: cancelled)
    case .dismiss(let cancelled):
      // The one under it: the top of the stack, or the one presented before.
      let b = presented[presented.count - 1]
      let a = presented.count >= 2 ? presented[presented.count - 2] : stack.last
      if !cancelled { presented.removeLast() }
      return .dismissed(a: a, b: b, cancelled: cancelled)
    }
  }
}

// MARK: - Children and views (§5.6, §6)

/// A change of a view controller's children or of the views, named by the
/// object it starts from, as a check (`ViewHierarchy.refusal(of:)`) sees it.
public enum ViewEdit: Equatable, Sendable {
  /// `addChild(_:)` to this view controller (§5.6).
  case addChild(to: ObjectID)
  /// `removeFromParent()` of this view controller (§5.6).
  case removeFromParent(ObjectID)
  /// A new view added to this view controller's view (§6).
  case addView(toViewController: ObjectID)
  /// A new view added to this view (§6).
  case addSubview(to: ObjectID)
  /// This view removed from its superview (§6).
  case removeView(ObjectID)

  /// The action of the action table that makes the change.
  public var action: DeviceAction {
    switch self {
    case .addChild: return .addChild
    case .removeFromParent: return .removeFromParent
    case .addView, .addSubview: return .addView
    case .removeView: return .removeView
    }
  }
}

extension ViewHierarchy {
  /// Whether the object a change of children or views starts from takes it,
  /// and if not, why: a deallocated view controller has no view to hold a
  /// child or a view, only a child has a parent to leave, and a removed view
  /// is gone for good (§5.5, §5.6, §6). Unlike the navigation checks it asks
  /// nothing of the window: the change is the object's own.
  public func refusal(of edit: ViewEdit) -> Refusal? {
    switch edit {
    case .addChild(let vc), .addView(let vc):
      return self[vc: vc].appearance == .deallocated ? .deallocated(className: self[vc: vc].spec.className) : nil
    case .removeFromParent(let vc):
      // A child removed before was deallocated: it has no parent any more.
      guard case .child = self[vc: vc].placement, self[vc: vc].appearance != .deallocated else {
        return .notChild(className: self[vc: vc].spec.className)
      }
      return nil
    case .addSubview(let v):
      return self[view: v].deallocated ? .removed(className: self[view: v].spec.className) : nil
    case .removeView(let v):
      return self[view: v].deallocated ? .alreadyRemoved(className: self[view: v].spec.className) : nil
    }
  }
}

// MARK: - The layout and display pass (§5.3, §6)

extension ViewHierarchy {
  /// A view controller in a window gets a pass of its own at the next
  /// run-loop turn when a view under it in the window needs layout or
  /// display: one added, moved into the window, or resized since the last (§6).
  /// Only the marked views are looked at (`ViewController.marked`).
  public func needsLayoutPass(_ vc: ObjectID) -> Bool {
    guard self[vc: vc].inWindow else { return false }
    for v in self[vc: vc].marked where takesPass(v) { return true }
    return false
  }

  /// In a window, not released, and marked for layout or display.
  private func takesPass(_ v: ObjectID) -> Bool {
    let view = self[view: v]
    return view.inWindow && !view.deallocated && (view.needsLayout || view.needsDisplay)
  }

  /// Puts a view on its owner's list for the next pass (once).
  mutating func mark(_ v: ObjectID) {
    guard !self[view: v].isMarked else { return }
    self[view: v].isMarked = true
    self[vc: self[view: v].owner].marked.append(v)
  }

  /// The views under a view controller that the pass visits now, parents
  /// first and siblings in order, as a walk of the whole tree would meet them
  /// (§6). Sorting the marked views costs about their number times their
  /// depth; when that is more than walking every view, the tree is walked.
  public func passViews(_ vc: ObjectID) -> [ObjectID] {
    let marked = self[vc: vc].marked
    var result = [ObjectID]()  // no effects here: the views of one pass
    result.reserveCapacity(marked.count)
    var cost = 0
    for v in marked where takesPass(v) {
      result.append(v)
      cost += Int(self[view: v].depth) + 1
    }
    guard result.count > 1 else { return result }
    let log = Int.bitWidth - result.count.leadingZeroBitCount
    if cost.multipliedReportingOverflow(by: log).partialValue > views.count {
      return views(under: vc).filter { takesPass($0) }
    }
    result.sort { precedes($0, $1) }
    return result
  }

  /// Whether `a` comes before `b` in a walk of their view controller's tree,
  /// parents first (both are under the same view controller).
  private func precedes(_ a: ObjectID, _ b: ObjectID) -> Bool {
    var a = a, b = b
    guard a != b else { return false }
    while self[view: a].depth > self[view: b].depth {
      guard let up = self[view: a].superview else { break }
      if up == b { return false }  // b holds a
      a = up
    }
    while self[view: b].depth > self[view: a].depth {
      guard let up = self[view: b].superview else { break }
      if up == a { return true }  // a holds b
      b = up
    }
    while self[view: a].superview != self[view: b].superview,
          let upA = self[view: a].superview, let upB = self[view: b].superview {
      a = upA
      b = upB
    }
    return self[view: a].attached < self[view: b].attached
  }

  /// After a pass: the views still owed one stay on the list. One that left
  /// the window is marked again when it comes back (`movesToWindow`).
  mutating func pruneMarked(_ vc: ObjectID) {
    var marked = [ObjectID]()
    swap(&marked, &self[vc: vc].marked)  // taken out, so that trimming it copies nothing
    var kept = 0
    for v in marked {
      if takesPass(v) {
        marked[kept] = v
        kept += 1
      } else {
        self[view: v].isMarked = false
      }
    }
    marked.removeLast(marked.count - kept)
    self[vc: vc].marked = marked
  }

  /// Whether a view lays out in this pass: in a window and marked since the
  /// last. The mark is cleared before `layoutSubviews` runs: what its
  /// handler changes waits for the next pass (§6).
  public mutating func takesLayout(_ v: ObjectID) -> Bool {
    guard self[view: v].inWindow, self[view: v].needsLayout else { return false }
    self[view: v].needsLayout = false
    return true
  }

  /// Whether a view draws in this pass (`drawRect:`), as `takesLayout` (§6).
  public mutating func takesDisplay(_ v: ObjectID) -> Bool {
    guard self[view: v].inWindow, self[view: v].needsDisplay else { return false }
    self[view: v].needsDisplay = false
    return true
  }

  /// A view enters or leaves a window, between `willMoveToWindow:` and
  /// `didMoveToWindow`; one that enters lays out at the next pass (§6).
  public mutating func movesToWindow(_ v: ObjectID, entering: Bool) {
    self[view: v].inWindow = entering
    if entering {
      self[view: v].needsLayout = true
      mark(v)
    }
  }
}

// MARK: - A window's own steps (§2.1, §3.7)

/// A step of a window's own life, apart from its stack and modal chain.
public enum WindowEvent: Equatable, Sendable {
  /// Its scene connected, or the app-delegate app's launch reached the
  /// window: shown for the first time in this process (§2.1 steps 4–6).
  case shows
  /// Its app or scene becomes active (§2.1 step 6).
  case activates
  /// Home with `UIApplicationExitsOnSuspend` (§0, §3.7); `topAppeared`: the
  /// view controller on top has appeared.
  case exits(topAppeared: Bool)
}

/// A screen change a window's step walks, between A and B (§5.4).
public struct WindowWalk: Equatable, Sendable {
  public var kind: ScreenChange
  public var a: ObjectID?
  public var b: ObjectID?

  public init(_ kind: ScreenChange, a: ObjectID?, b: ObjectID?) {
    self.kind = kind
    self.a = a
    self.b = b
  }
}

extension Window {
  /// Whether one of a window's own steps changes it. The device asks before
  /// `reduce`: changing a window that a saved state shares copies the app's
  /// windows, and the activation asks at every activation.
  public func changes(on event: WindowEvent) -> Bool {
    switch event {
    case .shows: return !shown && !stack.isEmpty
    case .activates: return awaitingDidAppear && !stack.isEmpty
    case .exits: return shown
    }
  }

  /// One of a window's own steps: its flags change at once, and the screen
  /// change it walks, if any, follows. The root appears up to its layout
  /// pass when the window is first shown and gets `viewDidAppear:` at the
  /// activation (§2.1 steps 4–6); an exit makes the top disappear for good,
  /// and no change starts after it (§0, §3.7).
  public mutating func reduce(_ event: WindowEvent) -> WindowWalk? {
    guard changes(on: event) else { return nil }
    switch event {
    case .shows:
      shown = true
      awaitingDidAppear = true
      return WindowWalk(.installRoot, a: nil, b: stack[0])
    case .activates:
      awaitingDidAppear = false
      return WindowWalk(.finishRoot, a: nil, b: stack[0])
    case .exits(let topAppeared):
      exiting = true
      // Only a top on screen has something to disappear from.
      guard topAppeared, let top = presented.last ?? stack.last else { return nil }
      return WindowWalk(.exitOnSuspend, a: top, b: nil)
    }
  }
}
