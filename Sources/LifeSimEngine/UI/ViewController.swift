/// A view controller or a view on a device: the index of its creation, never reused.
public struct ObjectID: Hashable, Comparable, Sendable {
  public var index: Int32
  public init(_ index: Int) { self.index = Int32(index) }
  public static func < (a: ObjectID, b: ObjectID) -> Bool { a.index < b.index }
}

/// How a view controller or a view is created (reference §5.1, §6).
public enum Creation: String, CaseIterable, Sendable {
  /// `initWithCoder:`, then `awakeFromNib`.
  case storyboard
  /// A view controller: `initWithNibName:bundle:`; a view: `initWithCoder:`, then `awakeFromNib`.
  case xib
  /// A view controller: `initWithNibName:bundle:` with nil; a view: `initWithFrame:`.
  case code
}

/// What a script asks for: a class and how it is made (`root`, `push`, `add_view`).
public struct ObjectSpec: Sendable, Equatable {
  public var className: String
  public var creation: Creation
  /// A view controller from a xib or storyboard that overrides `loadView` gets
  /// an empty view (reference §5.2, seed 003).
  public var overridesLoadView: Bool
  /// The callbacks the spec's own handlers cover (its `on` table).
  public var handled: CallbackSet
  /// The host's name for those handlers; every object made from the spec shares them.
  public var handlers: HostToken?

  public init(className: String, creation: Creation, overridesLoadView: Bool = false,
              handled: CallbackSet = CallbackSet(), handlers: HostToken? = nil) {
    self.className = className
    self.creation = creation
    self.overridesLoadView = overridesLoadView
    self.handled = handled
    self.handlers = handlers
  }
}

/// Where a view controller is in its appearance cycle (UIKit's appear state).
public enum Appearance: UInt8, MachineValue {
  case disappeared, appearing, appeared, disappearing
  /// `dealloc` ran, or the process (or the scene's window) went away.
  case deallocated

  public var description: String {
    switch self {
    case .disappeared: return "disappeared"
    case .appearing: return "appearing"
    case .appeared: return "appeared"
    case .disappearing: return "disappearing"
    case .deallocated: return "deallocated"
    }
  }
}

/// An input to the appearance machine: one step of a screen change.
public enum AppearanceEvent: UInt8, MachineValue {
  case willAppear, didAppear, willDisappear, didDisappear, dealloc
  /// Silent: its window went with its scene or its process (§5.5: `dealloc`
  /// may never run at exit).
  case release

  public var description: String {
    switch self {
    case .willAppear: return "willAppear"
    case .didAppear: return "didAppear"
    case .willDisappear: return "willDisappear"
    case .didDisappear: return "didDisappear"
    case .dealloc: return "dealloc"
    case .release: return "release"
    }
  }
}

/// The appearance machine of a view controller (reference §5.3, §5.4): the
/// steps of every screen change walk it, so a step out of order is caught.
public enum AppearanceLifecycle {
  public typealias Edge = Transition<Appearance, AppearanceEvent>

  public static let table = TransitionTable<Appearance, AppearanceEvent>("view controller appearance", {
    typealias T = Edge
    var edges: [T] = [
      // §5.3: the state changes as each callback starts.
      T(.disappeared, .willAppear, .appearing, callbacks: [.viewWillAppear], reference: "§5.3"),
      T(.appearing, .didAppear, .appeared, callbacks: [.viewDidAppear], reference: "§5.3"),
      T(.appeared, .willDisappear, .disappearing, callbacks: [.viewWillDisappear], reference: "§5.3"),
      T(.disappearing, .didDisappear, .disappeared, callbacks: [.viewDidDisappear], reference: "§5.3"),
      // §5.4 "Interactive pop cancelled" and the cancelled sheet dismissal: an
      // appearance that turns back, and a disappearance that turns back.
      T(.appearing, .willDisappear, .disappearing, callbacks: [.viewWillDisappear], reference: "§5.4"),
      T(.disappearing, .willAppear, .appearing, callbacks: [.viewWillAppear], reference: "§5.4"),
      // §5.5: popped or dismissed, nothing else holds it; dealloc runs, then it is gone.
      T(.disappeared, .dealloc, .deallocated, callbacks: [.dealloc], after: false, reference: "§5.5"),
    ]
    for from in [Appearance.disappeared, .appearing, .appeared, .disappearing] {
      edges.append(T(from, .release, .deallocated, silent: true, reference: "§5.5"))
    }
    return edges
  }())
}

/// How a view controller came on screen.
public enum Placement: Equatable, Sendable {
  /// In the window's navigation stack (the root, or pushed).
  case stack
  /// Presented modally, with its style.
  case presented(ModalStyle)
  /// A child of another view controller (containment, §5.6).
  case child(of: ObjectID)
}

/// A view controller (reference §5).
public struct ViewController: Sendable {
  public let id: ObjectID
  public let app: AppID
  public let spec: ObjectSpec
  /// The class index in `Trace.classNames`.
  let classIndex: Int32
  /// 1 for the first object of its class in its app, 2 for the second, … (documented in docs/view-controllers.md).
  public let instance: Int32
  /// The scene number of its window (0 in the app-delegate model).
  public let scene: Int32
  public internal(set) var placement: Placement
  public internal(set) var appearance: Appearance = .disappeared
  /// Its creation callbacks have run.
  public internal(set) var created = false
  /// `isViewLoaded`.
  public internal(set) var viewLoaded = false
  /// Its view is in the window's hierarchy.
  public internal(set) var inWindow = false
  /// The view controller appeared at least once (the layout pass runs twice the first time, §0).
  var hasAppeared = false
  /// Its child view controllers, in the order they were added (§5.6).
  public internal(set) var children: [ObjectID] = []
  /// The subviews of its view, in order.
  public internal(set) var subviews: [ObjectID] = []
  /// Views under it marked for the next layout and display pass, in the order
  /// they were marked: the pass visits these, not the whole tree, so that a
  /// view added to a large hierarchy costs the same as one added to an empty one.
  var marked: [ObjectID] = []

  /// Its trace identity.
  var ref: ObjectRef { ObjectRef(isView: false, classIndex: classIndex, instance: instance) }
}

/// A view (reference §6).
public struct View: Sendable {
  public let id: ObjectID
  public let app: AppID
  public let spec: ObjectSpec
  let classIndex: Int32
  public let instance: Int32
  /// The view controller whose view holds it, directly or through other views.
  public let owner: ObjectID
  /// The view it was added to, or nil when added to the view controller's view.
  public let superview: ObjectID?
  /// The scene number of its window (0 in the app-delegate model).
  let scene: Int32
  /// How many views are between it and its view controller's view (0 for one
  /// added to the view controller's view).
  let depth: Int32
  /// When it joined its superview, among all views: siblings are in this order.
  var attached: Int64 = 0
  /// It is in its owner's `marked` list.
  var isMarked = false
  public internal(set) var subviews: [ObjectID] = []
  /// It is in a window now (`willMoveToWindow:` / `didMoveToWindow` bracket changes).
  public internal(set) var inWindow = false
  /// Removed from its superview, or released with its view controller.
  public internal(set) var deallocated = false
  /// `layoutSubviews` and `drawRect:` are due at the next layout and display pass.
  var needsLayout = true
  var needsDisplay = true

  var ref: ObjectRef { ObjectRef(isView: true, classIndex: classIndex, instance: instance) }
}

/// What a trace record says about the object that received a callback.
public struct ObjectRef: Equatable, Sendable {
  public var isView: Bool
  public var classIndex: Int32
  public var instance: Int32
}

/// One window of an app: the app-delegate model's only window, or a scene's
/// window. The root sits in a navigation controller (UIKit's own class,
/// which lifesim models but does not trace).
public struct Window: Sendable {
  /// The scene number, or 0 in the app-delegate model.
  public let scene: Int32
  /// The navigation stack, root first.
  public internal(set) var stack: [ObjectID] = []
  /// The modal chain over the stack, the first presented first.
  public internal(set) var presented: [ObjectID] = []
  /// The root's view has been put on screen in this process.
  public internal(set) var shown = false
  /// The root has had `viewWillAppear:` but waits for `viewDidAppear:` until the
  /// app (or scene) becomes active (reference §2.1).
  var awaitingDidAppear = false
  /// A transition runs now: another one would unbalance UIKit's appearance calls.
  var changing = false
  /// Its view controllers disappeared because the app is exiting (§3.7): the
  /// window will not come back in this process.
  var exiting = false

  /// Every view controller in the hierarchy, parent first: the stack from the
  /// root, then the presented ones.
  public var hierarchy: [ObjectID] { stack + presented }
}
