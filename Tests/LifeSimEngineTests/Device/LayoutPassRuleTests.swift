import Testing
@testable import LifeSimEngine

/// Which view controllers and views a layout and display pass reaches
/// (`needsLayoutPass`, `takesLayout`, `takesDisplay`, `movesToWindow`),
/// with no device (§5.3, §6).
struct LayoutPassRuleTests {
  let app = AppID(0)

  /// A view controller in a window with a card holding a label, both out of
  /// any window and marked, as new views are.
  func screen() -> (ViewHierarchy, ObjectID, ObjectID, ObjectID) {
    var h = ViewHierarchy()
    let vc = h.makeViewController(ObjectSpec(className: "Screen", creation: .code), app: app, classIndex: 0,
                                  scene: 0, placement: .stack)
    h[vc: vc].inWindow = true
    let card = h.makeView(ObjectSpec(className: "Card", creation: .code), classIndex: 1, owner: vc, superview: nil)
    h[vc: vc].subviews = [card]
    let label = h.makeView(ObjectSpec(className: "Label", creation: .code), classIndex: 2, owner: vc, superview: card)
    h[view: card].subviews = [label]
    return (h, vc, card, label)
  }

  @Test func aViewOutOfTheWindowNeitherLaysOutNorDraws() {
    var (h, vc, card, _) = screen()
    #expect(!h.needsLayoutPass(vc))
    let laidOut = h.takesLayout(card), drawn = h.takesDisplay(card)
    #expect(!laidOut && !drawn)
    // Its marks wait for it to enter a window.
    #expect(h[view: card].needsLayout && h[view: card].needsDisplay)
  }

  @Test func aViewEnteringTheWindowIsMarkedForLayoutAndLeavingItIsNot() {
    var (h, vc, card, label) = screen()
    h[view: label].needsLayout = false
    h[view: label].needsDisplay = false
    h.movesToWindow(label, entering: true)
    #expect(h[view: label].inWindow && h[view: label].needsLayout && !h[view: label].needsDisplay)
    // A subview in the window is reached through a superview that is not.
    #expect(h.needsLayoutPass(vc))
    h.movesToWindow(card, entering: false)
    #expect(!h[view: card].inWindow && h[view: card].needsLayout)
  }

  @Test func eachViewLaysOutAndDrawsOncePerMark() {
    var (h, vc, card, label) = screen()
    h.movesToWindow(card, entering: true)
    h.movesToWindow(label, entering: true)
    let layouts = [h.takesLayout(card), h.takesLayout(card), h.takesLayout(label)]
    #expect(layouts == [true, false, true])
    #expect(h.needsLayoutPass(vc))  // drawing is still due
    let draws = [h.takesDisplay(card), h.takesDisplay(label), h.takesDisplay(label)]
    #expect(draws == [true, true, false])
    #expect(!h.needsLayoutPass(vc))
    // Resized: marked again.
    h[view: label].needsLayout = true
    #expect(h.needsLayoutPass(vc))
  }

  @Test func aViewControllerOutOfTheWindowGetsNoPass() {
    var (h, vc, card, _) = screen()
    h.movesToWindow(card, entering: true)
    h[vc: vc].inWindow = false
    #expect(!h.needsLayoutPass(vc))
  }
}
