import Testing
@testable import LifeSimEngine

/// Which screen change a push, a pop, a presentation or a dismissal walks,
/// through `ViewHierarchy.reduce` with no device (§5.4), and the modal style
/// a presentation gets when it names none (§0).
struct NavigationReduceTests {
  let app = AppID(0)

  func make(_ h: inout ViewHierarchy, _ placement: Placement) -> ObjectID {
    h.makeViewController(ObjectSpec(className: "Screen", creation: .code), app: app, classIndex: 0,
                         scene: 0, placement: placement)
  }

  @Test func aPushAndAPopWalkTheirTablesAndATurnedBackSwipeTheCancelledOne() throws {
    var h = ViewHierarchy()
    let a = make(&h, .stack), b = make(&h, .stack)
    let f = try ViewControllerFacts.ios(17)
    #expect(h.reduce(.pushed(a: a, b: b), facts: f) == [.walk(.push, a: a, b: b)])
    #expect(h.reduce(.popped(a: a, b: b, cancelled: false), facts: f) == [.walk(.pop, a: a, b: b)])
    #expect(h.reduce(.popped(a: a, b: b, cancelled: true), facts: f) == [.walk(.popCancelled, a: a, b: b)])
  }

  @Test func aSheetLeavesThePresenterAloneAndAFullScreenOneDoesNot() throws {
    var h = ViewHierarchy()
    let a = make(&h, .stack), sheet = make(&h, .presented(.pageSheet)), full = make(&h, .presented(.fullScreen))
    let f = try ViewControllerFacts.ios(17)
    #expect(h.reduce(.presented(a: a, b: sheet), facts: f) == [.walk(.presentOver, a: a, b: sheet)])
    #expect(h.reduce(.dismissed(a: a, b: sheet, cancelled: false), facts: f) == [.walk(.dismissOver, a: a, b: sheet)])
    #expect(h.reduce(.dismissed(a: a, b: sheet, cancelled: true), facts: f) == [.walk(.dismissCancelled, a: a, b: sheet)])
    #expect(h.reduce(.presented(a: a, b: full), facts: f) == [.walk(.presentFullScreen, a: a, b: full)])
    #expect(h.reduce(.dismissed(a: a, b: full, cancelled: false), facts: f) == [.walk(.dismissFullScreen, a: a, b: full)])
  }

  @Test func aPresentationThatNamesNoStyleIsASheetFromIOS13() throws {
    #expect(try ViewControllerFacts.ios(13).defaultModalStyle == .pageSheet)
    #expect(try ViewControllerFacts.ios(12).defaultModalStyle == .fullScreen)
  }
}
