import Testing
@testable import LifeSimEngine

/// A memory warning as it reaches view controllers, through
/// `ViewHierarchy.reduce` with no device (§2.9, §5.5).
struct MemoryWarningReduceTests {
  let app = AppID(0)

  /// A view controller with a loaded view holding one subview.
  func screen(inWindow: Bool) -> (ViewHierarchy, ObjectID, ObjectID) {
    var h = ViewHierarchy()
    let vc = h.makeViewController(ObjectSpec(className: "List", creation: .code), app: app, classIndex: 0,
                                  scene: 0, placement: .stack)
    h[vc: vc].viewLoaded = true
    h[vc: vc].inWindow = inWindow
    let v = h.makeView(ObjectSpec(className: "Cell", creation: .code), classIndex: 1, owner: vc, superview: nil)
    h[vc: vc].subviews = [v]
    h[view: v].inWindow = inWindow
    h[view: v].needsLayout = false
    return (h, vc, v)
  }

  @Test func aViewControllerOnScreenIsOnlyWarned() throws {
    var (h, vc, _) = screen(inWindow: true)
    #expect(h.reduce(.memoryWarning(vc, onScreen: true), facts: try .ios(5))
      == [.deliver(.viewControllerDidReceiveMemoryWarning, vc)])
    #expect(h[vc: vc].viewLoaded)
  }

  @Test func offScreenOnIOS5ItsViewUnloadsWithViewWillUnloadFirst() throws {
    var (h, vc, v) = screen(inWindow: false)
    #expect(h.reduce(.memoryWarning(vc, onScreen: false), facts: try .ios(5)) == [
      .deliver(.viewControllerDidReceiveMemoryWarning, vc), .deliver(.viewWillUnload, vc), .then(.viewUnloads(vc)),
    ])
    #expect(h.reduce(.viewUnloads(vc), facts: try .ios(5)) == [.deliver(.viewDidUnload, vc)])
    #expect(!h[vc: vc].viewLoaded && h[vc: vc].subviews.isEmpty && h[view: v].deallocated)
  }

  @Test func offScreenOnIOS4ThereIsNoViewWillUnloadAndFromIOS6NothingUnloads() throws {
    var (h, vc, _) = screen(inWindow: false)
    #expect(h.reduce(.memoryWarning(vc, onScreen: false), facts: try .ios(4))
      == [.deliver(.viewControllerDidReceiveMemoryWarning, vc), .then(.viewUnloads(vc))])
    #expect(h.reduce(.memoryWarning(vc, onScreen: false), facts: try .ios(6)).isEmpty)
    #expect(h[vc: vc].viewLoaded)
  }
}
