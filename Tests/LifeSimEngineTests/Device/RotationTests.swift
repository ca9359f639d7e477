import Testing
@testable import LifeSimEngine

/// A rotation (§5.3): the rule through `ViewHierarchy.reduce` with no device,
/// and the action on a device, without Lua.
struct RotationTests {
  @Test func eachViewControllerHearsOfTheNewSizeFromIOS8ThenLaysOutOnce() throws {
    var h = ViewHierarchy()
    let vc = h.makeViewController(ObjectSpec(className: "List", creation: .code), app: AppID(0), classIndex: 0,
                                  scene: 0, placement: .stack)
    h[vc: vc].viewLoaded = true
    h[vc: vc].inWindow = true
    let v = h.makeView(ObjectSpec(className: "Cell", creation: .code), classIndex: 1, owner: vc, superview: nil)
    h[vc: vc].subviews = [v]
    h[view: v].inWindow = true
    h[view: v].needsLayout = false  // laid out already
    #expect(h.reduce(.willTransitionToSize(vc), facts: try .ios(8)) == [.deliver(.viewWillTransitionToSize, vc)])
    #expect(h.reduce(.willTransitionToSize(vc), facts: try .ios(7)).isEmpty)
    #expect(!h[view: v].needsLayout)
    #expect(h.reduce(.boundsChanged(vc), facts: try .ios(17)) == [.layout(vc, passes: 1)])
    #expect(h[view: v].needsLayout)
  }

  /// Every view controller on screen hears of the size before any lays out;
  /// nothing appears or disappears.
  @Test func aRotationReachesTheViewControllersOnScreen() throws {
    for (ios, sizes) in [(17, true), (7, false)] {
      let dev = try Device(profile: OSProfile(version: ios), seed: 1)
      let app = try dev.install(AppConfig(bundle: "com.example.notes", root: ObjectSpec(className: "Root", creation: .code)))
      try dev.launch(app)
      let sheet = try dev.present(ObjectSpec(className: "Sheet", creation: .code), style: .pageSheet, app: app)
      let m = dev.mark()
      try dev.rotate()
      let got = dev.trace.records(kind: .callback, since: m).compactMap { r in
        r.object.map { "\(dev.trace.className(of: $0)) \(r.callback!.selector)" }
      }
      let told = sizes ? ["Root viewWillTransitionToSize:withTransitionCoordinator:",
                          "Sheet viewWillTransitionToSize:withTransitionCoordinator:"] : []
      #expect(got == told + ["Root viewWillLayoutSubviews", "Root viewDidLayoutSubviews",
                             "Sheet viewWillLayoutSubviews", "Sheet viewDidLayoutSubviews"], "iOS \(ios)")
      #expect(dev.viewController(sheet).appearance == .appeared)
    }
  }
}
