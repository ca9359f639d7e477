/// The two view controllers of a screen change (reference §5.4): A was on screen,
/// B comes or goes.
public enum Party: Sendable {
  case a, b
}

/// One step of a screen change (what UIKit calls an appearance transition).
/// The engine walks a kind's steps in order; a step whose party is
/// absent (no A under a root) is skipped.
public enum ScreenChangeStep: Equatable, Sendable {
  /// Create the view controller if it is new, then load its view if needed (§5.1, §5.2).
  case prepare(Party)
  case willAppear(Party)
  /// Its view (and every subview) enters the window: `willMoveToWindow:`, `didMoveToWindow` (§6).
  case enterWindow(Party)
  /// `viewIsAppearing:`, when the profile and the handlers say so (§0, §5.3).
  case isAppearing(Party)
  /// The layout pass (twice on a first appearance, none for a view controller
  /// that a pop or a dismissal reveals; `Policy`), then the subviews that need
  /// it lay out and draw (§5.3, §5.4, §6).
  case layout(Party)
  case didAppear(Party)
  case willDisappear(Party)
  /// Its view leaves the window: UIKit has removed it by `viewDidDisappear:` (Scripts/view_controllers/seed003.lua).
  case leaveWindow(Party)
  case didDisappear(Party)
  /// `dealloc`, then its views' (§5.5: nothing else holds it).
  case dealloc(Party)
}

/// The kinds of screen change, each with one table of steps (reference §5.4).
public enum ScreenChange: String, CaseIterable, Sendable {
  /// The root view controller is put on screen, up to the layout pass; its
  /// `viewDidAppear:` waits for the activation (§2.1 steps 4–6).
  case installRoot
  /// The root's `viewDidAppear:` once the app or scene is active (§2.1 step 6).
  case finishRoot
  case push, pop, popCancelled
  case presentFullScreen, dismissFullScreen
  /// `.pageSheet`, `.formSheet`, `.overFullScreen`: the presenter gets nothing.
  case presentOver, dismissOver, dismissCancelled
  /// Home with `UIApplicationExitsOnSuspend`: the visible view controller disappears (§0, §3.7).
  case exitOnSuspend

  /// The steps, in order. Each row cites its source.
  public var steps: [ScreenChangeStep] {
    switch self {
    case .installRoot:  // §2.1 app-delegate steps 0–4, scene step 6; §5.3
      return [.prepare(.b), .willAppear(.b), .enterWindow(.b), .isAppearing(.b), .layout(.b)]
    case .finishRoot:  // §2.1 step 6
      return [.didAppear(.b)]
    case .push:  // §5.4 row "Nav push B over A"
      return [.prepare(.b), .willDisappear(.a), .willAppear(.b), .enterWindow(.b), .isAppearing(.b), .layout(.b),
              .leaveWindow(.a), .didDisappear(.a), .didAppear(.b)]
    case .pop:  // §5.4 row "Nav pop B"; A's layout step runs `layout_passes.revealed` (none by default)
      return [.willDisappear(.b), .willAppear(.a), .enterWindow(.a), .isAppearing(.a), .layout(.a),
              .leaveWindow(.b), .didDisappear(.b), .didAppear(.a), .dealloc(.b)]
    case .popCancelled:  // §5.4 row "Interactive pop cancelled": A gets no viewDidAppear:, B stays
      return [.willDisappear(.b), .willAppear(.a), .enterWindow(.a), .willDisappear(.a), .leaveWindow(.a),
              .didDisappear(.a), .willAppear(.b), .didAppear(.b)]
    case .presentFullScreen:  // §5.4 row "Present, .fullScreen": UIKit removes the presenter's views after
      return [.prepare(.b), .willDisappear(.a), .willAppear(.b), .enterWindow(.b), .isAppearing(.b), .layout(.b),
              .didAppear(.b), .leaveWindow(.a), .didDisappear(.a)]
    case .dismissFullScreen:  // §5.4 row "Dismiss, .fullScreen" (did-order by symmetry)
      return [.willDisappear(.b), .willAppear(.a), .enterWindow(.a), .isAppearing(.a), .layout(.a),
              .didAppear(.a), .leaveWindow(.b), .didDisappear(.b), .dealloc(.b)]
    case .presentOver:  // §5.4 row "Present .pageSheet / .formSheet / .overFullScreen": A gets nothing
      return [.prepare(.b), .willAppear(.b), .enterWindow(.b), .isAppearing(.b), .layout(.b), .didAppear(.b)]
    case .dismissOver:  // §5.4 same row: no viewWillAppear: / viewDidAppear: for A on dismiss
      return [.willDisappear(.b), .leaveWindow(.b), .didDisappear(.b), .dealloc(.b)]
    case .dismissCancelled:  // §5.4 row "Sheet interactive dismissal cancelled"
      return [.willDisappear(.b), .willAppear(.b), .isAppearing(.b), .didAppear(.b)]
    case .exitOnSuspend:  // §0 row UIApplicationExitsOnSuspend, §3.7 (bunnyhero)
      return [.willDisappear(.a), .didDisappear(.a)]
    }
  }

  /// The index of the first step after which only `viewDidAppear:` and
  /// `dealloc` remain: the transition has completed as far as UIKit's
  /// bookkeeping goes, so a handler there may start the next.
  public var settledAt: Int {
    (steps.lastIndex { step in
      switch step { case .didAppear, .dealloc: return false; default: return true }
    } ?? -1) + 1
  }

  /// The kind that presents with `style`, and the one that dismisses it.
  static func present(_ style: ModalStyle) -> ScreenChange {
    style == .fullScreen ? .presentFullScreen : .presentOver
  }

  static func dismiss(_ style: ModalStyle) -> ScreenChange {
    style == .fullScreen ? .dismissFullScreen : .dismissOver
  }
}
