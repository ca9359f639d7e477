import Testing
@testable import LifeSimEngine

/// Adding and removing a child view controller through `ViewHierarchy.reduce`,
/// with no device (§5.6): each follow-up is reduced at once, as the device
/// would once the effects before it ran (here no handler changes anything).
struct ContainmentReduceTests {
  let app = AppID(0)

  /// A container in a window, in `appearance`, and a child made for it.
  func containerAndChild(_ appearance: Appearance, inWindow: Bool = true) -> (ViewHierarchy, ObjectID, ObjectID) {
    var h = ViewHierarchy()
    let p = h.makeViewController(ObjectSpec(className: "Container", creation: .code), app: app, classIndex: 0,
                                 scene: 0, placement: .stack)
    h[vc: p].appearance = appearance
    h[vc: p].inWindow = inWindow
    let c = h.makeViewController(ObjectSpec(className: "Child", creation: .code), app: app, classIndex: 1,
                                 scene: 0, placement: .child(of: p))
    return (h, p, c)
  }

  /// The effects of an event and of its follow-ups, in order, the follow-ups left out.
  func chain(_ event: ViewControllerEvent, _ h: inout ViewHierarchy, _ facts: ViewControllerFacts) -> [ViewControllerEffect] {
    var result: [ViewControllerEffect] = []
    var next: ViewControllerEvent? = event
    while let e = next {
      next = nil
      for effect in h.reduce(e, facts: facts) {
        if case .then(let follow) = effect { next = follow } else { result.append(effect) }
      }
    }
    return result
  }

  @Test func aChildAddedToAContainerOnScreenAppearsBeforeItsDidMove() throws {
    var (h, p, c) = containerAndChild(.appeared)
    #expect(chain(.childAdded(c), &h, try .ios(17)) == [
      .create(c), .deliver(.willMoveToParent, c), .loadView(p), .loadView(c),
      .appear(c, .willAppear), .moveToWindow(c, entering: true), .deliver(.viewIsAppearing, c),
      .layout(c, passes: 2), .appear(c, .didAppear), .deliver(.didMoveToParent, c),
    ])
    #expect(h[vc: p].children == [c] && h[vc: c].inWindow && h[vc: c].hasAppeared)
  }

  @Test func aChildAddedOffScreenOnlyMovesToItsParent() throws {
    var (h, p, c) = containerAndChild(.appeared, inWindow: false)
    #expect(chain(.childAdded(c), &h, try .ios(17)) == [
      .create(c), .deliver(.willMoveToParent, c), .loadView(p), .loadView(c), .deliver(.didMoveToParent, c),
    ])
    #expect(!h[vc: c].inWindow)
  }

  @Test func aChildAddedMidAppearanceWaitsForItsContainersDidAppearExceptOnIOS6() throws {
    var (h, _, c) = containerAndChild(.appearing)
    let ios7 = chain(.childAdded(c), &h, try .ios(7))
    #expect(Array(ios7.suffix(2)) == [.layout(c, passes: 2), .deliver(.didMoveToParent, c)])
    #expect(!h[vc: c].hasAppeared)
    (h, _, c) = containerAndChild(.appearing)
    let ios6 = chain(.childAdded(c), &h, try .ios(6))
    #expect(Array(ios6.suffix(3)) == [.layout(c, passes: 2), .deliver(.viewDidAppear, c), .deliver(.didMoveToParent, c)])
  }

  @Test func aChildOnScreenDisappearsWhenRemovedAndIsDeallocatedOnceItHas() throws {
    var (h, p, c) = containerAndChild(.appeared)
    _ = chain(.childAdded(c), &h, try .ios(17))
    h[vc: c].appearance = .appeared
    // The device applies each step's effects before the next is reduced;
    // here the child stays as it was, so it is not released.
    #expect(chain(.childRemoved(c), &h, try .ios(17)) == [
      .deliver(.willMoveToParent, c), .appear(c, .willDisappear), .moveToWindow(c, entering: false),
      .appear(c, .didDisappear), .deliver(.didMoveToParent, c),
    ])
    #expect(h[vc: p].children.isEmpty && !h[vc: c].inWindow)
    h[vc: c].appearance = .disappeared
    #expect(h.reduce(.childGone(c), facts: try .ios(17)) == [.appear(c, .dealloc), .deallocViews(c)])
  }

  @Test func aChildOffScreenIsDetachedWithNoAppearanceCallbacks() throws {
    var (h, p, c) = containerAndChild(.disappeared, inWindow: false)
    _ = chain(.childAdded(c), &h, try .ios(17))
    #expect(chain(.childRemoved(c), &h, try .ios(17)) == [
      .deliver(.willMoveToParent, c), .deliver(.didMoveToParent, c), .appear(c, .dealloc), .deallocViews(c),
    ])
    #expect(h[vc: p].children.isEmpty)
  }
}
