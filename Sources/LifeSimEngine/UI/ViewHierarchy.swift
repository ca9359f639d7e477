/// Every view controller and view a device ever made, by
/// `ObjectID`, with what the layout pass owes them. Objects are never
/// removed: a deallocated one keeps its identity, so traces and scripts can
/// still name it.
///
/// Invariants (`violations()`): an object's `id` is its index; a view's owner
/// and superview are objects of the same app made before it; a subview lists
/// the view it was added to as its superview.
public struct ViewHierarchy: Sendable {
  public private(set) var viewControllers: [ViewController] = []
  public private(set) var views: [View] = []
  /// Instances made so far per (app, class), for instance numbers.
  private var instanceCounts: [Int64: Int32] = [:]
  /// A view entered a window and waits for the next layout and display pass.
  var layoutPending = false
  /// Views attached so far (`View.attached`).
  private var attachCount: Int64 = 0

  public init() {}

  public subscript(vc id: ObjectID) -> ViewController {
    _read { yield viewControllers[Int(id.index)] }
    _modify { yield &viewControllers[Int(id.index)] }
  }

  public subscript(view id: ObjectID) -> View {
    _read { yield views[Int(id.index)] }
    _modify { yield &views[Int(id.index)] }
  }

  /// Makes a view controller of `app` for the window of `scene`.
  mutating func makeViewController(_ spec: ObjectSpec, app: AppID, classIndex: Int32, scene: Int32,
                                   placement: Placement) -> ObjectID {
    let id = ObjectID(viewControllers.count)
    viewControllers.append(ViewController(
      id: id, app: app, spec: spec, classIndex: classIndex, instance: nextInstance(app, classIndex),
      scene: scene, placement: placement))
    return id
  }

  /// Makes a view for `owner`'s view, or for `superview`.
  mutating func makeView(_ spec: ObjectSpec, classIndex: Int32, owner: ObjectID, superview: ObjectID?) -> ObjectID {
    let id = ObjectID(views.count)
    let app = self[vc: owner].app
    let depth = superview.map { self[view: $0].depth + 1 } ?? 0
    views.append(View(id: id, app: app, spec: spec, classIndex: classIndex, instance: nextInstance(app, classIndex),
                      owner: owner, superview: superview, scene: self[vc: owner].scene, depth: depth))
    return id
  }

  private mutating func nextInstance(_ app: AppID, _ cls: Int32) -> Int32 {
    let key = Int64(app.index) << 32 | Int64(cls)
    let n = (instanceCounts[key] ?? 0) + 1
    instanceCounts[key] = n
    return n
  }

  /// A view and every view under it, parents first.
  public func subtree(_ v: ObjectID) -> [ObjectID] {
    var result: [ObjectID] = []
    appendSubtrees([v], to: &result)
    return result
  }

  /// Every view under a view controller's view, parents first.
  public func views(under vc: ObjectID) -> [ObjectID] {
    var result: [ObjectID] = []
    appendSubtrees(self[vc: vc].subviews, to: &result)
    return result
  }

  /// The views of `roots` and every view under them, in order, parents
  /// first. Walked with a stack of its own, not by recursion: views nest as
  /// deep as a script makes them, and the thread's stack is small.
  private func appendSubtrees(_ roots: [ObjectID], to result: inout [ObjectID]) {
    var pending = Array(roots.reversed())
    while let v = pending.popLast() {
      result.append(v)
      pending.append(contentsOf: self[view: v].subviews.reversed())
    }
  }

  /// A view joins its superview (or its view controller's view), last of its siblings.
  mutating func attach(_ v: ObjectID) {
    attachCount += 1
    self[view: v].attached = attachCount
    if let s = self[view: v].superview { self[view: s].subviews.append(v) } else {
      self[vc: self[view: v].owner].subviews.append(v)
    }
  }

  /// The view controllers on screen in a window, parent first: the top one and,
  /// under a sheet or `.overFullScreen`, the ones it leaves visible (§5.4).
  public func visible(in window: Window) -> [ObjectID] {
    var result: [ObjectID] = []
    for vc in window.hierarchy.reversed() {
      result.append(vc)
      if case .presented(let style) = self[vc: vc].placement, style != .fullScreen { continue }
      break
    }
    return result.reversed()
  }

  /// Every invariant of the store that does not hold now.
  public func violations() -> [String] {
    var found: [String] = []
    for (i, c) in viewControllers.enumerated() where c.id.index != Int32(i) {
      found.append("view controller \(i) has id \(c.id.index)")
    }
    for (i, v) in views.enumerated() {
      if v.id.index != Int32(i) { found.append("view \(i) has id \(v.id.index)") }
      if Int(v.owner.index) >= viewControllers.count || viewControllers[Int(v.owner.index)].app != v.app {
        found.append("view \(i) (\(v.spec.className)): its owner is not a view controller of its app")
      }
      if let s = v.superview, s.index >= Int32(i) || views[Int(s.index)].app != v.app {
        found.append("view \(i) (\(v.spec.className)): its superview was not made before it in its app")
      }
      for sub in v.subviews where Int(sub.index) >= views.count || views[Int(sub.index)].superview != v.id {
        found.append("view \(i) (\(v.spec.className)) lists a subview that is not its own")
      }
    }
    return found
  }
}
