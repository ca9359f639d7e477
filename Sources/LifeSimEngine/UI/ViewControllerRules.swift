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

  public init(viewIsAppearing: CallbackDelivery, viewIsAppearingReachesChildren: Bool,
              appImplementsViewIsAppearing: Bool = false, layoutPassesFirst: Int = 2, layoutPassesRevealed: Int = 0) {
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
              layoutPassesFirst: policy.layoutPassesFirst, layoutPassesRevealed: policy.layoutPassesRevealed)
  }
}

/// An input to the rules of view controllers.
public enum ViewControllerEvent: Equatable, Sendable {
  /// One step of a screen change, with its two parties (§5.4).
  case step(ScreenChangeStep, a: ObjectID?, b: ObjectID?)
  /// A container forwards `viewIsAppearing:` to a child appearing with it (§5.6).
  case childIsAppearing(ObjectID)
}

/// What a step of the view controllers' rules asks the device to do.
public enum ViewControllerEffect: Equatable, Sendable {
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
}

extension ViewHierarchy {
  /// One step of the view controllers' rules: changes the view controllers'
  /// flags the step owns (in the window, appeared once) and says what the
  /// device delivers, in order. A step whose party is absent does nothing.
  public mutating func reduce(_ event: ViewControllerEvent, facts: ViewControllerFacts) -> Effects<ViewControllerEffect> {
    switch event {
    case .step(let step, let a, let b):
      return reduce(step, a: a, b: b, facts: facts)
    case .childIsAppearing(let child):
      guard self[vc: child].appearance == .appearing, deliversViewIsAppearing(child, facts: facts) else { return [] }
      return [.deliver(.viewIsAppearing, child)]
    }
  }

  private mutating func reduce(_ step: ScreenChangeStep, a: ObjectID?, b: ObjectID?,
                               facts: ViewControllerFacts) -> Effects<ViewControllerEffect> {
    func pick(_ p: Party) -> ObjectID? { p == .a ? a : b }
    switch step {
    case .prepare(let p):
      guard let vc = pick(p) else { return [] }
      return self[vc: vc].created ? [.loadView(vc)] : [.create(vc), .loadView(vc)]
    case .willAppear(let p):
      guard let vc = pick(p) else { return [] }
      // §5.5: a view unloaded on iOS ≤ 5 loads again on the next access.
      return [.loadView(vc), .appear(vc, .willAppear)]
    case .enterWindow(let p):
      guard let vc = pick(p), !self[vc: vc].inWindow else { return [] }
      self[vc: vc].inWindow = true
      return [.moveToWindow(vc, entering: true)]
    case .isAppearing(let p):
      guard let vc = pick(p) else { return [] }
      var effects: Effects<ViewControllerEffect> = []
      if deliversViewIsAppearing(vc, facts: facts) { effects.append(.deliver(.viewIsAppearing, vc)) }
      // §5.6: a container forwards viewIsAppearing: to the children appearing with it.
      effects.append(.forwardIsAppearing(vc))
      return effects
    case .layout(let p):
      guard let vc = pick(p) else { return [] }
      // A view controller that appeared before is being revealed (a pop, a
      // full-screen dismissal): its view keeps its size (§5.4).
      return [.layout(vc, passes: self[vc: vc].hasAppeared ? facts.layoutPassesRevealed : facts.layoutPassesFirst)]
    case .didAppear(let p):
      guard let vc = pick(p) else { return [] }
      self[vc: vc].hasAppeared = true
      return [.appear(vc, .didAppear)]
    case .willDisappear(let p):
      guard let vc = pick(p) else { return [] }
      return [.appear(vc, .willDisappear)]
    case .leaveWindow(let p):
      guard let vc = pick(p), self[vc: vc].inWindow else { return [] }
      self[vc: vc].inWindow = false
      return [.moveToWindow(vc, entering: false)]
    case .didDisappear(let p):
      guard let vc = pick(p) else { return [] }
      return [.appear(vc, .didDisappear)]
    case .dealloc(let p):
      guard let vc = pick(p) else { return [] }
      return [.appear(vc, .dealloc), .deallocViews(vc)]
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
