import Foundation
import Testing
@testable import LifeSimEngine

/// Children and views nest as deep as a script makes them: every walk over
/// them (an appearance step forwarded to the children, a release, the views
/// entering the window, the layout pass) keeps its place on a stack of its
/// own, so a deep tree costs no thread stack, and the callbacks come in the
/// order they always did: parents first, children in the order added.
struct DeepHierarchyTests {
  /// A device whose app has a code root, launched.
  private func launched() throws -> (Device, AppID, ObjectID) {
    let dev = try Device(profile: OSProfile(version: 17), seed: 1)
    let app = try dev.install(AppConfig(bundle: "com.example.deep", scenes: false,
                                        root: ObjectSpec(className: "Root", creation: .code)))
    try dev.launch(app)
    return (dev, app, try #require(dev.top(of: app)))
  }

  private static let spec = ObjectSpec(className: "C", creation: .code)

  /// "instance selector" for every callback of an object of `className` since `m`.
  private func calls(_ dev: Device, of className: String, since m: Int) -> [String] {
    dev.trace.records(kind: .callback, since: m).compactMap { r in
      guard let o = r.object, dev.trace.className(of: o) == className else { return nil }
      return "\(o.instance) \(r.callback!.selector)"
    }
  }

  /// Runs `body` on a thread of its own with a 4 MB stack, half of what the
  /// main thread has: what a walk costs in stack then does not depend on the
  /// thread the test happens to run on.
  private func onFourMegabyteStack(_ body: @escaping () throws -> Void) throws {
    final class Run: @unchecked Sendable {
      let body: () throws -> Void
      var error: Error?
      let done = DispatchSemaphore(value: 0)
      init(_ body: @escaping () throws -> Void) { self.body = body }
    }
    let run = Run(body)
    let thread = Thread {
      do { try run.body() } catch { run.error = error }
      run.done.signal()
    }
    thread.stackSize = 4 << 20
    thread.start()
    run.done.wait()
    if let error = run.error { throw error }
  }

  @Test func aChainOf2000ChildrenOnScreenIsRemovedParentFirst() throws {
    let (dev, _, root) = try launched()
    var chain: [ObjectID] = []
    var parent = root
    for _ in 0..<2000 {
      parent = try dev.addChild(Self.spec, to: parent)
      chain.append(parent)
    }
    #expect(dev.viewController(chain.last!).appearance == .appeared)
    let m = dev.mark()
    try onFourMegabyteStack { try dev.removeFromParent(chain[0]) }
    let each = 1...2000
    let expected = ["1 willMoveToParentViewController:"] + each.map { "\($0) viewWillDisappear:" }
      + each.map { "\($0) viewDidDisappear:" } + ["1 didMoveToParentViewController:"] + each.map { "\($0) dealloc" }
    #expect(calls(dev, of: "C", since: m) == expected)
    #expect(chain.allSatisfy { dev.viewController($0).appearance == .deallocated })
    #expect(dev.viewController(root).children.isEmpty)
    #expect(dev.invariantViolations().isEmpty)
  }

  @Test func aChainOf2000ChildrenGoesWithItsProcess() throws {
    let (dev, app, root) = try launched()
    var parent = root
    for _ in 0..<2000 { parent = try dev.addChild(Self.spec, to: parent) }
    try onFourMegabyteStack { try dev.forceQuit(app) }
    #expect(dev[app].state == .notRunning)
    #expect(dev.viewControllers.allSatisfy { $0.appearance == .deallocated && !$0.inWindow })
    #expect(dev.invariantViolations().isEmpty)
  }

  /// 50,000 views, each in the one before, enter the window when their view
  /// controller is revealed and draw in its layout pass; a view added under
  /// them brings the next pass, where they all lay out.
  @Test func fiftyThousandNestedViewsEnterTheWindowAndLayOut() throws {
    let (dev, app, root) = try launched()
    dev.trapsOnViolation = false  // checked once below: after each of 50,000 steps would take minutes
    _ = try dev.push(ObjectSpec(className: "B", creation: .code), app: app)
    var v = try dev.addView(ObjectSpec(className: "V", creation: .code), to: .viewController(root))
    for _ in 1..<50_000 { v = try dev.addView(ObjectSpec(className: "V", creation: .code), to: .view(v)) }
    let m = dev.mark()
    try onFourMegabyteStack { try dev.pop(app: app) }
    let views = calls(dev, of: "V", since: m)
    #expect(views.count == 3 * 50_000)
    #expect(views.prefix(2) == ["1 willMoveToWindow:", "2 willMoveToWindow:"])
    #expect(views[50_000...50_001] == ["1 didMoveToWindow", "2 didMoveToWindow"])
    #expect(views.suffix(2) == ["49999 drawRect:", "50000 drawRect:"])
    let deepest = v, next = dev.mark()
    try onFourMegabyteStack { _ = try dev.addView(ObjectSpec(className: "V", creation: .code), to: .view(deepest)) }
    let laidOut = calls(dev, of: "V", since: next).filter { $0.hasSuffix(" layoutSubviews") }
    #expect(laidOut.count == 50_001 && laidOut.first == "1 layoutSubviews" && laidOut.last == "50001 layoutSubviews")
    #expect(dev.views.allSatisfy { $0.inWindow && !$0.deallocated })
    #expect(dev.invariantViolations().isEmpty)
  }

  /// The views under a view controller, parents first, each one's subviews
  /// in the order they were added.
  @Test func viewsUnderAViewControllerAreListedParentsFirst() throws {
    let (dev, _, root) = try launched()
    func add(_ name: String, to parent: Device.ViewParent) throws -> ObjectID {
      try dev.addView(ObjectSpec(className: name, creation: .code), to: parent)
    }
    let a = try add("A", to: .viewController(root))
    let b = try add("B", to: .viewController(root))
    let a1 = try add("A1", to: .view(a))
    let a2 = try add("A2", to: .view(a))
    let a1x = try add("A1x", to: .view(a1))
    let b1 = try add("B1", to: .view(b))
    #expect(dev.objects.views(under: root) == [a, a1, a1x, a2, b, b1])
    #expect(dev.objects.subtree(a) == [a, a1, a1x, a2])
    #expect(dev.objects.subtree(a1x) == [a1x])
  }
}
