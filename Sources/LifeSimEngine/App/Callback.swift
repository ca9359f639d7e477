/// Who receives a callback, which names the class in a text trace line.
///
/// View-controller and view callbacks go to an object of the app's own class,
/// which the trace record names (`TraceRecord.object`).
public enum Receiver: UInt8, Sendable {
  case appDelegate, sceneDelegate, viewController, view

  /// The class name printed in `-[Class selector]` for delegate callbacks.
  public var className: String {
    switch self {
    case .appDelegate: return "AppDelegate"
    case .sceneDelegate: return "SceneDelegate"
    case .viewController: return "UIViewController"
    case .view: return "UIView"
    }
  }
}

/// A callback the OS delivers, named by its Objective-C selector (SPEC §1.5).
///
/// The raw value indexes the static tables below, so a trace record stores one
/// byte and the strings are built once, never per event.
public enum Callback: UInt8, CaseIterable, Sendable {
  // UIApplicationDelegate (reference §1.3, §2)
  case willFinishLaunching
  case didFinishLaunching
  case didBecomeActive
  case willResignActive
  case didEnterBackground
  case willEnterForeground
  case willTerminate
  case openURLOptions
  case openURLSourceApplication
  case didReceiveMemoryWarning
  case configurationForConnecting
  case didDiscardSceneSessions
  // UISceneDelegate / UIWindowSceneDelegate (reference §1.2, §2)
  case sceneWillConnect
  case sceneDidDisconnect
  case sceneWillEnterForeground
  case sceneDidBecomeActive
  case sceneWillResignActive
  case sceneDidEnterBackground
  case sceneOpenURLContexts
  // UIApplicationDelegate, background and protected data (reference §2.8, §0)
  case performFetch
  case didReceiveRemoteNotification
  case protectedDataWillBecomeUnavailable
  case protectedDataDidBecomeAvailable
  // UIViewController (reference §5). `initWithCoder:`, `awakeFromNib` and
  // `dealloc` are shared with views: the record's object says which.
  case initWithCoder
  case awakeFromNib
  case initWithNibName
  case loadView
  case viewDidLoad
  case viewWillAppear
  case viewIsAppearing
  case viewWillLayoutSubviews
  case viewDidLayoutSubviews
  case viewDidAppear
  case viewWillDisappear
  case viewDidDisappear
  case viewControllerDidReceiveMemoryWarning
  case viewWillUnload
  case viewDidUnload
  case viewWillTransitionToSize
  case dealloc
  // UIView (reference §6)
  case initWithFrame
  case willMoveToSuperview
  case didMoveToSuperview
  case willMoveToWindow
  case didMoveToWindow
  case layoutSubviews
  case drawRect

  /// The Objective-C selector: the canonical name scripts use.
  public var selector: String { Callback.selectors[Int(rawValue)] }

  /// The Swift spelling, for `--names swift`.
  public var swiftName: String { Callback.swiftNames[Int(rawValue)] }

  /// The delegate that receives it.
  public var receiver: Receiver {
    if rawValue >= Callback.initWithFrame.rawValue { return .view }
    if rawValue >= Callback.initWithCoder.rawValue { return .viewController }
    return (Callback.sceneWillConnect.rawValue...Callback.sceneOpenURLContexts.rawValue).contains(rawValue)
      ? .sceneDelegate : .appDelegate
  }

  /// A callback a view controller receives (`initWithCoder:`, `awakeFromNib` and
  /// `dealloc` included).
  public var isViewControllerCallback: Bool {
    (Callback.initWithCoder.rawValue...Callback.dealloc.rawValue).contains(rawValue)
  }

  /// A callback a view receives.
  public var isViewCallback: Bool {
    self == .initWithCoder || self == .awakeFromNib || self == .dealloc || receiver == .view
  }

  /// The UIApplication notification posted right after it, as on iOS (reference
  /// §0 last row). In the scene model the four scene callbacks stand in for the
  /// app-delegate methods, and the UIApplication notifications are still posted (§1.3).
  public var notification: AppNotification? {
    switch self {
    case .didFinishLaunching: return .didFinishLaunching
    case .didBecomeActive, .sceneDidBecomeActive: return .didBecomeActive
    case .willResignActive, .sceneWillResignActive: return .willResignActive
    case .didEnterBackground, .sceneDidEnterBackground: return .didEnterBackground
    case .willEnterForeground, .sceneWillEnterForeground: return .willEnterForeground
    case .willTerminate: return .willTerminate
    case .didReceiveMemoryWarning: return .didReceiveMemoryWarning
    case .protectedDataWillBecomeUnavailable: return .protectedDataWillBecomeUnavailable
    case .protectedDataDidBecomeAvailable: return .protectedDataDidBecomeAvailable
    default: return nil
    }
  }

  /// Finds a callback by selector or Swift name.
  public init?(selector: String) {
    guard let i = Callback.selectors.firstIndex(of: selector) ?? Callback.swiftNames.firstIndex(of: selector)
    else { return nil }
    self.init(rawValue: UInt8(i))
  }

  static let selectors: [String] = [
    "application:willFinishLaunchingWithOptions:",
    "application:didFinishLaunchingWithOptions:",
    "applicationDidBecomeActive:",
    "applicationWillResignActive:",
    "applicationDidEnterBackground:",
    "applicationWillEnterForeground:",
    "applicationWillTerminate:",
    "application:openURL:options:",
    "application:openURL:sourceApplication:annotation:",
    "applicationDidReceiveMemoryWarning:",
    "application:configurationForConnectingSceneSession:options:",
    "application:didDiscardSceneSessions:",
    "scene:willConnectToSession:options:",
    "sceneDidDisconnect:",
    "sceneWillEnterForeground:",
    "sceneDidBecomeActive:",
    "sceneWillResignActive:",
    "sceneDidEnterBackground:",
    "scene:openURLContexts:",
    "application:performFetchWithCompletionHandler:",
    "application:didReceiveRemoteNotification:fetchCompletionHandler:",
    "applicationProtectedDataWillBecomeUnavailable:",
    "applicationProtectedDataDidBecomeAvailable:",
    "initWithCoder:",
    "awakeFromNib",
    "initWithNibName:bundle:",
    "loadView",
    "viewDidLoad",
    "viewWillAppear:",
    "viewIsAppearing:",
    "viewWillLayoutSubviews",
    "viewDidLayoutSubviews",
    "viewDidAppear:",
    "viewWillDisappear:",
    "viewDidDisappear:",
    "didReceiveMemoryWarning",
    "viewWillUnload",
    "viewDidUnload",
    "viewWillTransitionToSize:withTransitionCoordinator:",
    "dealloc",
    "initWithFrame:",
    "willMoveToSuperview:",
    "didMoveToSuperview",
    "willMoveToWindow:",
    "didMoveToWindow",
    "layoutSubviews",
    "drawRect:",
  ]

  static let swiftNames: [String] = [
    "application(_:willFinishLaunchingWithOptions:)",
    "application(_:didFinishLaunchingWithOptions:)",
    "applicationDidBecomeActive(_:)",
    "applicationWillResignActive(_:)",
    "applicationDidEnterBackground(_:)",
    "applicationWillEnterForeground(_:)",
    "applicationWillTerminate(_:)",
    "application(_:open:options:)",
    "application(_:open:sourceApplication:annotation:)",
    "applicationDidReceiveMemoryWarning(_:)",
    "application(_:configurationForConnecting:options:)",
    "application(_:didDiscardSceneSessions:)",
    "scene(_:willConnectTo:options:)",
    "sceneDidDisconnect(_:)",
    "sceneWillEnterForeground(_:)",
    "sceneDidBecomeActive(_:)",
    "sceneWillResignActive(_:)",
    "sceneDidEnterBackground(_:)",
    "scene(_:openURLContexts:)",
    "application(_:performFetchWithCompletionHandler:)",
    "application(_:didReceiveRemoteNotification:fetchCompletionHandler:)",
    "applicationProtectedDataWillBecomeUnavailable(_:)",
    "applicationProtectedDataDidBecomeAvailable(_:)",
    "init(coder:)",
    "awakeFromNib()",
    "init(nibName:bundle:)",
    "loadView()",
    "viewDidLoad()",
    "viewWillAppear(_:)",
    "viewIsAppearing(_:)",
    "viewWillLayoutSubviews()",
    "viewDidLayoutSubviews()",
    "viewDidAppear(_:)",
    "viewWillDisappear(_:)",
    "viewDidDisappear(_:)",
    "didReceiveMemoryWarning()",
    "viewWillUnload()",
    "viewDidUnload()",
    "viewWillTransition(to:with:)",
    "deinit",
    "init(frame:)",
    "willMove(toSuperview:)",
    "didMoveToSuperview()",
    "willMove(toWindow:)",
    "didMoveToWindow()",
    "layoutSubviews()",
    "draw(_:)",
  ]
}

/// A `UIApplication…Notification` that observers receive after the delegate method.
public enum AppNotification: UInt8, CaseIterable, Sendable {
  case didFinishLaunching, didBecomeActive, willResignActive, didEnterBackground
  case willEnterForeground, willTerminate, didReceiveMemoryWarning
  case protectedDataWillBecomeUnavailable, protectedDataDidBecomeAvailable

  /// The Objective-C name, as scripts pass it to `observe`.
  public var name: String { AppNotification.names[Int(rawValue)] }

  public init?(name: String) {
    guard let i = AppNotification.names.firstIndex(of: name) else { return nil }
    self.init(rawValue: UInt8(i))
  }

  static let names: [String] = [
    "UIApplicationDidFinishLaunchingNotification",
    "UIApplicationDidBecomeActiveNotification",
    "UIApplicationWillResignActiveNotification",
    "UIApplicationDidEnterBackgroundNotification",
    "UIApplicationWillEnterForegroundNotification",
    "UIApplicationWillTerminateNotification",
    "UIApplicationDidReceiveMemoryWarningNotification",
    "UIApplicationProtectedDataWillBecomeUnavailable",
    "UIApplicationProtectedDataDidBecomeAvailable",
  ]
}

/// A set of callbacks, as a bit mask: the engine's "does this app handle it?" check
/// costs one AND, so no Lua call happens where no handler is registered.
public struct CallbackSet: Equatable, Sendable {
  public var bits: UInt64 = 0
  public init() {}
  public func contains(_ c: Callback) -> Bool { bits & (1 << UInt64(c.rawValue)) != 0 }
  public mutating func insert(_ c: Callback) { bits |= 1 << UInt64(c.rawValue) }
  public static var all: CallbackSet { var s = CallbackSet(); s.bits = ~0; return s }
}

/// A set of notifications, as a bit mask.
public struct NotificationSet: Equatable, Sendable {
  public var bits: UInt32 = 0
  public init() {}
  public func contains(_ n: AppNotification) -> Bool { bits & (1 << UInt32(n.rawValue)) != 0 }
  public mutating func insert(_ n: AppNotification) { bits |= 1 << UInt32(n.rawValue) }
}
