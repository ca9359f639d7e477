import Testing
@testable import LifeSimEngine

/// Adding and removing a view through `ViewHierarchy.reduce`, with no device
/// (§6): each follow-up is reduced at once, as the device would once the
/// effects before it ran.
struct ViewReduceTests {
  let app = AppID(0)

  func facts() throws -> ViewControllerFacts { try .ios(17) }

  func owner(inWindow: Bool) -> (ViewHierarchy, ObjectID) {
    var h = ViewHierarchy()
    let vc = h.makeViewController(ObjectSpec(className: "Screen", creation: .code), app: app, classIndex: 0,
                                  scene: 0, placement: .stack)
    h[vc: vc].inWindow = inWindow
    return (h, vc)
  }

  /// The effects of an event and of its follow-ups, in order, the follow-ups left out.
  func chain(_ event: ViewControllerEvent, _ h: inout ViewHierarchy) throws -> [ViewControllerEffect] {
    var result: [ViewControllerEffect] = []
    var next: ViewControllerEvent? = event
    while let e = next {
      next = nil
      for effect in h.reduce(e, facts: try facts()) {
        if case .then(let follow) = effect { next = follow } else { result.append(effect) }
      }
    }
    return result
  }

  @Test func aViewFromANibAddedOnScreenEntersTheWindowAndWaitsForTheNextPass() throws {
    var (h, vc) = owner(inWindow: true)
    let v = h.makeView(ObjectSpec(className: "Badge", creation: .xib), classIndex: 1, owner: vc, superview: nil)
    #expect(try chain(.viewAdded(v), &h) == [
      .loadView(vc), .deliverView(.initWithCoder, v), .deliverView(.awakeFromNib, v),
      .deliverView(.willMoveToSuperview, v), .deliverView(.didMoveToSuperview, v), .moveSubtree(v, entering: true),
    ])
    #expect(h[vc: vc].subviews == [v] && h.layoutPending)
  }

  @Test func aViewFromCodeAddedToAViewOffScreenStaysOutOfTheWindow() throws {
    var (h, vc) = owner(inWindow: false)
    let s = h.makeView(ObjectSpec(className: "Card", creation: .code), classIndex: 1, owner: vc, superview: nil)
    let v = h.makeView(ObjectSpec(className: "Label", creation: .code), classIndex: 2, owner: vc, superview: s)
    // Added to another view: its view controller's view is not loaded for it.
    #expect(try chain(.viewAdded(v), &h) == [
      .deliverView(.initWithFrame, v), .deliverView(.willMoveToSuperview, v), .deliverView(.didMoveToSuperview, v),
    ])
    #expect(h[view: s].subviews == [v] && !h.layoutPending)
  }

  @Test func aViewRemovedFromTheWindowLeavesItThenGoesWithItsSubviews() throws {
    var (h, vc) = owner(inWindow: true)
    let v = h.makeView(ObjectSpec(className: "Card", creation: .code), classIndex: 1, owner: vc, superview: nil)
    _ = try chain(.viewAdded(v), &h)
    h[view: v].inWindow = true
    #expect(try chain(.viewRemoved(v), &h) == [
      .deliverView(.willMoveToSuperview, v), .moveSubtree(v, entering: false),
      .deliverView(.didMoveToSuperview, v), .deallocSubtree(v),
    ])
    #expect(h[vc: vc].subviews.isEmpty)
    // Off screen, it only leaves its superview.
    let w = h.makeView(ObjectSpec(className: "Card", creation: .code), classIndex: 1, owner: vc, superview: nil)
    #expect(try chain(.viewRemoved(w), &h) == [
      .deliverView(.willMoveToSuperview, w), .deliverView(.didMoveToSuperview, w), .deallocSubtree(w),
    ])
  }
}
