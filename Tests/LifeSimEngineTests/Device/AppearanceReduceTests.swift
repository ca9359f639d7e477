import Testing
@testable import LifeSimEngine

/// A step along a view controller's appearance machine through
/// `ViewHierarchy.reduce`, with no device (§5.3, §5.5, §5.6).
struct AppearanceReduceTests {
  let app = AppID(0)

  func facts() throws -> ViewControllerFacts { try .ios(17) }

  func edge(_ from: Appearance, _ event: AppearanceEvent) -> Int {
    AppearanceLifecycle.table.edge(from: from, on: event)!
  }

  func containerAndChild() -> (ViewHierarchy, ObjectID, ObjectID) {
    var h = ViewHierarchy()
    let p = h.makeViewController(ObjectSpec(className: "Tabs", creation: .code), app: app, classIndex: 0,
                                 scene: 0, placement: .stack)
    let c = h.makeViewController(ObjectSpec(className: "Tab", creation: .code), app: app, classIndex: 1,
                                 scene: 0, placement: .child(of: p))
    h[vc: p].children = [c]
    return (h, p, c)
  }

  @Test func viewWillAppearFindsTheViewControllerAlreadyAppearingThenReachesItsChildren() throws {
    var (h, p, _) = containerAndChild()
    #expect(h.reduce(.appearance(p, .willAppear), facts: try facts())
      == [.took(edge: edge(.disappeared, .willAppear)), .deliver(.viewWillAppear, p), .forwardAppearance(p, .willAppear)])
    #expect(h[vc: p].appearance == .appearing)
  }

  @Test func deallocRunsBeforeTheViewControllerIsGone() throws {
    var (h, p, _) = containerAndChild()
    #expect(h.reduce(.appearance(p, .dealloc), facts: try facts()) == [
      .took(edge: edge(.disappeared, .dealloc)), .deliver(.dealloc, p),
      .then(.appearanceChanges(p, to: .deallocated, on: .dealloc)),
    ])
    #expect(h[vc: p].appearance == .disappeared)
    #expect(h.reduce(.appearanceChanges(p, to: .deallocated, on: .dealloc), facts: try facts())
      == [.forwardAppearance(p, .dealloc)])
    #expect(h[vc: p].appearance == .deallocated)
  }

  @Test func aChildTakesItsContainersStepOnlyWhereItsMachineHasOne() throws {
    var (h, _, c) = containerAndChild()
    #expect(h.reduce(.childAppearance(c, .didAppear), facts: try facts()).isEmpty)
    #expect(!h[vc: c].hasAppeared)
    h[vc: c].appearance = .appearing
    #expect(h.reduce(.childAppearance(c, .didAppear), facts: try facts()) == [.then(.appearance(c, .didAppear))])
    #expect(h[vc: c].hasAppeared)
    h[vc: c].appearance = .disappeared
    #expect(h.reduce(.childAppearance(c, .dealloc), facts: try facts())
      == [.then(.appearance(c, .dealloc)), .deallocViews(c)])
  }

  @Test func aStepOutOfOrderIsReportedNotTaken() throws {
    var (h, p, _) = containerAndChild()
    #expect(h.reduce(.appearance(p, .didDisappear), facts: try facts()) == [.outOfOrder(p, .didDisappear)])
    #expect(h[vc: p].appearance == .disappeared)
  }
}
