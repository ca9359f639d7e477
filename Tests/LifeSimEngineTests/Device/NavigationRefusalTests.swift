import Testing
@testable import LifeSimEngine

/// Which push, pop, presentation and dismissal a window refuses
/// (`ViewHierarchy.refusal`), and what one it takes does to the stack and the
/// modal chain (`Window.reduce`), with no device (§5.4).
struct NavigationRefusalTests {
  let app = AppID(0)

  func make(_ h: inout ViewHierarchy, _ placement: Placement) -> ObjectID {
    h.makeViewController(ObjectSpec(className: "Screen", creation: .code), app: app, classIndex: 0,
                         scene: 0, placement: placement)
  }

  /// A shown window with `stack` and `presented`.
  func window(_ stack: [ObjectID], _ presented: [ObjectID] = []) -> Window {
    var w = Window(scene: 0)
    w.stack = stack
    w.presented = presented
    w.shown = true
    return w
  }

  @Test func theWindowItselfRefusesFirst() {
    var h = ViewHierarchy()
    let root = make(&h, .stack), top = make(&h, .stack)
    #expect(h.refusal(of: .push, in: nil, hasRoot: false) == .noRoot)
    #expect(h.refusal(of: .pop, in: nil, hasRoot: true) == .windowNotShown)
    var hidden = window([root, top])
    hidden.shown = false
    #expect(h.refusal(of: .pop, in: hidden, hasRoot: true) == .windowNotShown)
    var exiting = window([root])
    exiting.exiting = true
    exiting.changing = true
    #expect(h.refusal(of: .present, in: exiting, hasRoot: true) == .exiting)
    var changing = window([root, top])
    changing.changing = true
    #expect(h.refusal(of: .pop, in: changing, hasRoot: true) == .transitionRunning)
    var waiting = window([root, top])
    waiting.awaitingDidAppear = true
    #expect(h.refusal(of: .push, in: waiting, hasRoot: true) == .transitionRunning)
    #expect(h.refusal(of: .pop, in: window([root, top]), hasRoot: true) == nil)
  }

  @Test func aPushOrAPopUnderAPresentationAndAPopOfTheRootAreRefused() {
    var h = ViewHierarchy()
    let root = make(&h, .stack), top = make(&h, .stack), sheet = make(&h, .presented(.pageSheet))
    for action in [DeviceAction.push, .pop, .popGesture] {
      #expect(h.refusal(of: action, in: window([root, top], [sheet]), hasRoot: true) == .presentedOverStack)
    }
    #expect(h.refusal(of: .pop, in: window([root]), hasRoot: true) == .onlyRoot)
    #expect(h.refusal(of: .popGesture, in: window([root]), hasRoot: true) == .onlyRoot)
    #expect(h.refusal(of: .push, in: window([root]), hasRoot: true) == nil)
    #expect(h.refusal(of: .present, in: window([root], [sheet]), hasRoot: true) == nil)
  }

  @Test func aDismissalNeedsAPresentationAndTheSwipeASheet() {
    var h = ViewHierarchy()
    let root = make(&h, .stack), full = make(&h, .presented(.fullScreen))
    let page = make(&h, .presented(.pageSheet)), form = make(&h, .presented(.formSheet))
    #expect(h.refusal(of: .dismiss, in: window([root]), hasRoot: true) == .nothingPresented)
    #expect(h.refusal(of: .dismissGesture, in: window([root]), hasRoot: true) == .nothingPresented)
    #expect(h.refusal(of: .dismiss, in: window([root], [full]), hasRoot: true) == nil)
    #expect(h.refusal(of: .dismissGesture, in: window([root], [full]), hasRoot: true) == .notSwipeable(.fullScreen))
    #expect(h.refusal(of: .dismissGesture, in: window([root], [full, page]), hasRoot: true) == nil)
    #expect(h.refusal(of: .dismissGesture, in: window([root], [form]), hasRoot: true) == nil)
  }

  @Test func aPushAndAPresentationGoOnTopOfWhatIsShown() {
    var h = ViewHierarchy()
    let root = make(&h, .stack), pushed = make(&h, .stack)
    let first = make(&h, .presented(.pageSheet)), second = make(&h, .presented(.fullScreen))
    var w = window([root])
    #expect(w.reduce(.push(pushed)) == .pushed(a: root, b: pushed))
    #expect(w.stack == [root, pushed])
    #expect(w.reduce(.present(first)) == .presented(a: pushed, b: first))
    #expect(w.reduce(.present(second)) == .presented(a: first, b: second))
    #expect(w.presented == [first, second] && w.stack == [root, pushed])
  }

  @Test func aPopAndADismissalTakeTheTopOffUnlessTheSwipeTurnsBack() {
    var h = ViewHierarchy()
    let root = make(&h, .stack), top = make(&h, .stack)
    let first = make(&h, .presented(.pageSheet)), second = make(&h, .presented(.pageSheet))
    var w = window([root, top], [first, second])
    #expect(w.reduce(.dismiss(cancelled: true)) == .dismissed(a: first, b: second, cancelled: true))
    #expect(w.presented == [first, second])
    #expect(w.reduce(.dismiss(cancelled: false)) == .dismissed(a: first, b: second, cancelled: false))
    // The last presentation is dismissed off the top of the stack.
    #expect(w.reduce(.dismiss(cancelled: false)) == .dismissed(a: top, b: first, cancelled: false))
    #expect(w.presented.isEmpty)
    #expect(w.reduce(.pop(cancelled: true)) == .popped(a: root, b: top, cancelled: true))
    #expect(w.stack == [root, top])
    #expect(w.reduce(.pop(cancelled: false)) == .popped(a: root, b: top, cancelled: false))
    #expect(w.stack == [root])
  }
}
