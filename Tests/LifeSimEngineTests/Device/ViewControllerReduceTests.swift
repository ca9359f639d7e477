import Testing
@testable import LifeSimEngine

/// The steps of a screen change through `ViewHierarchy.reduce`, with no
/// device: each step's effects, in order, and the flags it owns (§5.3–§5.6).
struct ViewControllerReduceTests {
  let app = AppID(0)

  /// A root on screen (A) and a new view controller (B) about to be pushed.
  func rootAndNew() -> (ViewHierarchy, ObjectID, ObjectID) {
    var h = ViewHierarchy()
    let a = h.makeViewController(ObjectSpec(className: "Root", creation: .storyboard), app: app, classIndex: 0,
                                 scene: 0, placement: .stack)
    h[vc: a].created = true
    h[vc: a].viewLoaded = true
    h[vc: a].appearance = .appeared
    h[vc: a].inWindow = true
    h[vc: a].hasAppeared = true
    let b = h.makeViewController(ObjectSpec(className: "Detail", creation: .code), app: app, classIndex: 1,
                                 scene: 0, placement: .stack)
    return (h, a, b)
  }

  func walk(_ kind: ScreenChange, _ h: inout ViewHierarchy, a: ObjectID?, b: ObjectID?,
            facts: ViewControllerFacts) -> [[ViewControllerEffect]] {
    kind.steps.map { Array(h.reduce(.step($0, a: a, b: b), facts: facts)) }
  }

  @Test func aPushOnIOS17GivesTheAppearanceCallbacksInOrder() throws {
    var (h, a, b) = rootAndNew()
    let effects = walk(.push, &h, a: a, b: b, facts: try .ios(17))
    #expect(effects == [
      [.create(b), .loadView(b)],
      [.appear(a, .willDisappear)],
      [.loadView(b), .appear(b, .willAppear)],
      [.moveToWindow(b, entering: true)],
      [.deliver(.viewIsAppearing, b), .forwardIsAppearing(b)],
      [.layout(b, passes: 2)],
      [.moveToWindow(a, entering: false)],
      [.appear(a, .didDisappear)],
      [.appear(b, .didAppear)],
    ])
    #expect(h[vc: b].inWindow && h[vc: b].hasAppeared && !h[vc: a].inWindow)
    // The transition has settled once only viewDidAppear: remains.
    #expect(ScreenChange.push.settledAt == 8)
  }

  @Test func beforeIOS13NoViewControllerGetsViewIsAppearing() throws {
    var (h, a, b) = rootAndNew()
    let effects = walk(.push, &h, a: a, b: b, facts: try .ios(12))
    #expect(effects[4] == [.forwardIsAppearing(b)])
  }

  @Test func onIOS13To16OnlyAnImplementerGetsViewIsAppearing() throws {
    var (h, a, b) = rootAndNew()
    #expect(walk(.push, &h, a: a, b: b, facts: try .ios(15))[4] == [.forwardIsAppearing(b)])
    var implemented = CallbackSet()
    implemented.insert(.viewIsAppearing)
    (h, a, b) = rootAndNew()
    #expect(walk(.push, &h, a: a, b: b, facts: try .ios(15, implemented: implemented))[4]
      == [.deliver(.viewIsAppearing, b), .forwardIsAppearing(b)])
  }

  @Test func aChildBeforeIOS16GetsNoViewIsAppearing() throws {
    var (h, a, _) = rootAndNew()
    let child = h.makeViewController(ObjectSpec(className: "Child", creation: .code), app: app, classIndex: 2,
                                     scene: 0, placement: .child(of: a))
    h[vc: a].children.append(child)
    h[vc: child].appearance = .appearing
    #expect(h.reduce(.childIsAppearing(child), facts: try .ios(17)) == [.deliver(.viewIsAppearing, child)])
    #expect(h.reduce(.childIsAppearing(child), facts: try .ios(15)).isEmpty)
    // A child not appearing with its container gets nothing, whatever the version.
    h[vc: child].appearance = .appeared
    #expect(h.reduce(.childIsAppearing(child), facts: try .ios(17)).isEmpty)
  }

  @Test func aPopRevealsAViewControllerThatKeepsItsSize() throws {
    var (h, a, b) = rootAndNew()
    _ = walk(.push, &h, a: a, b: b, facts: try .ios(17))
    h[vc: a].appearance = .disappeared
    h[vc: b].appearance = .appeared
    let effects = walk(.pop, &h, a: a, b: b, facts: try .ios(17))
    #expect(effects[4] == [.layout(a, passes: 0)])
    #expect(effects.last == [.appear(b, .dealloc), .deallocViews(b)])
    #expect(ScreenChange.pop.settledAt == 7)
  }

  @Test func aStepWithoutItsPartyDoesNothing() throws {
    var (h, _, b) = rootAndNew()
    #expect(h.reduce(.step(.willDisappear(.a), a: nil, b: b), facts: try .ios(17)).isEmpty)
    // A view already in the window does not enter it again.
    #expect(h.reduce(.step(.enterWindow(.b), a: nil, b: b), facts: try .ios(17)) == [.moveToWindow(b, entering: true)])
    #expect(h.reduce(.step(.enterWindow(.b), a: nil, b: b), facts: try .ios(17)).isEmpty)
  }
}
