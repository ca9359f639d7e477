import Testing
@testable import LifeSimEngine

/// Which change of children or views the object it starts from refuses
/// (`ViewHierarchy.refusal(of:)`), with no device (§5.5, §5.6, §6).
struct ViewEditRefusalTests {
  let app = AppID(0)

  func make(_ h: inout ViewHierarchy, _ name: String, _ placement: Placement) -> ObjectID {
    h.makeViewController(ObjectSpec(className: name, creation: .code), app: app, classIndex: 0,
                         scene: 0, placement: placement)
  }

  func makeView(_ h: inout ViewHierarchy, _ name: String, owner: ObjectID, superview: ObjectID? = nil) -> ObjectID {
    h.makeView(ObjectSpec(className: name, creation: .code), classIndex: 1, owner: owner, superview: superview)
  }

  @Test func aDeallocatedViewControllerTakesNoChildAndNoView() {
    var h = ViewHierarchy()
    let parent = make(&h, "Parent", .stack)
    #expect(h.refusal(of: .addChild(to: parent)) == nil)
    #expect(h.refusal(of: .addView(toViewController: parent)) == nil)
    h[vc: parent].appearance = .deallocated
    #expect(h.refusal(of: .addChild(to: parent)) == .deallocated(className: "Parent"))
    #expect(h.refusal(of: .addView(toViewController: parent)) == .deallocated(className: "Parent"))
  }

  @Test func onlyAChildNotYetDeallocatedLeavesItsParent() {
    var h = ViewHierarchy()
    let parent = make(&h, "Parent", .stack)
    let child = make(&h, "Child", .child(of: parent))
    let sheet = make(&h, "Sheet", .presented(.pageSheet))
    #expect(h.refusal(of: .removeFromParent(child)) == nil)
    #expect(h.refusal(of: .removeFromParent(parent)) == .notChild(className: "Parent"))
    #expect(h.refusal(of: .removeFromParent(sheet)) == .notChild(className: "Sheet"))
    // Removed once, the child was deallocated: it has no parent to leave.
    h[vc: child].appearance = .deallocated
    #expect(h.refusal(of: .removeFromParent(child)) == .notChild(className: "Child"))
  }

  @Test func aRemovedViewTakesNoSubviewAndIsNotRemovedTwice() {
    var h = ViewHierarchy()
    let owner = make(&h, "Screen", .stack)
    let card = makeView(&h, "Card", owner: owner)
    let label = makeView(&h, "Label", owner: owner, superview: card)
    #expect(h.refusal(of: .addSubview(to: card)) == nil)
    #expect(h.refusal(of: .removeView(label)) == nil)
    h[view: card].deallocated = true
    #expect(h.refusal(of: .addSubview(to: card)) == .removed(className: "Card"))
    #expect(h.refusal(of: .removeView(card)) == .alreadyRemoved(className: "Card"))
    // Its owner still takes views: the view, not its owner, went.
    #expect(h.refusal(of: .addView(toViewController: owner)) == nil)
  }

  @Test func eachEditIsTheActionThatMakesIt() {
    let vc = ObjectID(0)
    #expect(ViewEdit.addChild(to: vc).action == .addChild)
    #expect(ViewEdit.removeFromParent(vc).action == .removeFromParent)
    #expect(ViewEdit.addView(toViewController: vc).action == .addView)
    #expect(ViewEdit.addSubview(to: vc).action == .addView)
    #expect(ViewEdit.removeView(vc).action == .removeView)
  }
}
