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

/// A callback the OS delivers, named by its Objective-C selector.
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
  // UNUserNotificationCenterDelegate, usually the app delegate (reference §2.12)
  case userNotificationCenterWillPresent
  case userNotificationCenterDidReceive
  // UIViewController containment (reference §5.6)
  case willMoveToParent
  case didMoveToParent
  // UISceneDelegate state restoration (reference §2.11)
  case stateRestorationActivity

  /// Its row: names, receiver, notification and source, in one place.
  public var info: CallbackInfo { Callback.rows[Int(rawValue)] }

  /// The Objective-C selector: the canonical name scripts use.
  public var selector: String { Callback.rows[Int(rawValue)].selector }

  /// The Swift spelling, for `--names swift`.
  public var swiftName: String { Callback.rows[Int(rawValue)].swiftName }

  /// The delegate or object that receives it. `initWithCoder:`, `awakeFromNib`
  /// and `dealloc` are listed for view controllers; views get them too.
  public var receiver: Receiver { Callback.rows[Int(rawValue)].receiver }

  /// A callback a view controller receives (`initWithCoder:`, `awakeFromNib` and
  /// `dealloc` included).
  public var isViewControllerCallback: Bool { receiver == .viewController }

  /// A callback a view receives.
  public var isViewCallback: Bool {
    self == .initWithCoder || self == .awakeFromNib || self == .dealloc || receiver == .view
  }

  /// Whether the OS reads the method's return value: the two launch methods'
  /// BOOL, which refuses a URL (reference §2.7). Every other result is dropped.
  @inline(__always)
  public var returnsAnswer: Bool { self == .willFinishLaunching || self == .didFinishLaunching }

  /// The UIApplication notification posted right after it, as on iOS (reference
  /// §0 last row). In the scene model the four scene callbacks stand in for the
  /// app-delegate methods, and the UIApplication notifications are still posted (§1.3).
  public var notification: AppNotification? { Callback.rows[Int(rawValue)].notification }

  /// The app-delegate method a notification is posted right after: the
  /// inverse of `notification`, read from the same rows.
  public static func appDelegateMethod(posting n: AppNotification) -> Callback? { postedAfter[Int(n.rawValue)] }
  private static let postedAfter: [Callback?] = AppNotification.allCases.map { n in
    rows.first { $0.receiver == .appDelegate && $0.notification == n }?.callback
  }

  /// Finds a callback by selector or Swift name.
  public init?(selector: String) {
    guard let callback = Callback.bySelector[selector] else { return nil }
    self = callback
  }

  /// Each callback by its selector and by its Swift name: scripts name
  /// callbacks as they set up every run, a search of the rows cost more
  /// than the rest of `app:on`.
  private static let bySelector: [String: Callback] = {
    var names: [String: Callback] = [:]
    for row in rows.reversed() {  // the first row of a name wins, as a search from the start finds it
      names[row.swiftName] = row.callback
      names[row.selector] = row.callback
    }
    return names
  }()

  /// One row per callback, in declaration order (checked when the table is built).
  public static let rows: [CallbackInfo] = {
    let rows: [CallbackInfo] = [
    CallbackInfo(.willFinishLaunching, "application:willFinishLaunchingWithOptions:", "application(_:willFinishLaunchingWithOptions:)", .appDelegate, nil, "§2.1"),
    CallbackInfo(.didFinishLaunching, "application:didFinishLaunchingWithOptions:", "application(_:didFinishLaunchingWithOptions:)", .appDelegate, .didFinishLaunching, "§2.1"),
    CallbackInfo(.didBecomeActive, "applicationDidBecomeActive:", "applicationDidBecomeActive(_:)", .appDelegate, .didBecomeActive, "§1.4"),
    CallbackInfo(.willResignActive, "applicationWillResignActive:", "applicationWillResignActive(_:)", .appDelegate, .willResignActive, "§1.4"),
    CallbackInfo(.didEnterBackground, "applicationDidEnterBackground:", "applicationDidEnterBackground(_:)", .appDelegate, .didEnterBackground, "§1.4"),
    CallbackInfo(.willEnterForeground, "applicationWillEnterForeground:", "applicationWillEnterForeground(_:)", .appDelegate, .willEnterForeground, "§1.4"),
    CallbackInfo(.willTerminate, "applicationWillTerminate:", "applicationWillTerminate(_:)", .appDelegate, .willTerminate, "§3.3"),
    CallbackInfo(.openURLOptions, "application:openURL:options:", "application(_:open:options:)", .appDelegate, nil, "§2.7"),
    CallbackInfo(.openURLSourceApplication, "application:openURL:sourceApplication:annotation:", "application(_:open:sourceApplication:annotation:)", .appDelegate, nil, "§2.7"),
    CallbackInfo(.didReceiveMemoryWarning, "applicationDidReceiveMemoryWarning:", "applicationDidReceiveMemoryWarning(_:)", .appDelegate, .didReceiveMemoryWarning, "§2.9"),
    CallbackInfo(.configurationForConnecting, "application:configurationForConnectingSceneSession:options:", "application(_:configurationForConnecting:options:)", .appDelegate, nil, "§2.1"),
    CallbackInfo(.didDiscardSceneSessions, "application:didDiscardSceneSessions:", "application(_:didDiscardSceneSessions:)", .appDelegate, nil, "§2.6"),
    CallbackInfo(.sceneWillConnect, "scene:willConnectToSession:options:", "scene(_:willConnectTo:options:)", .sceneDelegate, nil, "§2.1"),
    CallbackInfo(.sceneDidDisconnect, "sceneDidDisconnect:", "sceneDidDisconnect(_:)", .sceneDelegate, nil, "§1.2"),
    CallbackInfo(.sceneWillEnterForeground, "sceneWillEnterForeground:", "sceneWillEnterForeground(_:)", .sceneDelegate, .willEnterForeground, "§1.4"),
    CallbackInfo(.sceneDidBecomeActive, "sceneDidBecomeActive:", "sceneDidBecomeActive(_:)", .sceneDelegate, .didBecomeActive, "§1.4"),
    CallbackInfo(.sceneWillResignActive, "sceneWillResignActive:", "sceneWillResignActive(_:)", .sceneDelegate, .willResignActive, "§1.4"),
    CallbackInfo(.sceneDidEnterBackground, "sceneDidEnterBackground:", "sceneDidEnterBackground(_:)", .sceneDelegate, .didEnterBackground, "§1.4"),
    CallbackInfo(.sceneOpenURLContexts, "scene:openURLContexts:", "scene(_:openURLContexts:)", .sceneDelegate, nil, "§2.7"),
    CallbackInfo(.performFetch, "application:performFetchWithCompletionHandler:", "application(_:performFetchWithCompletionHandler:)", .appDelegate, nil, "§2.8"),
    CallbackInfo(.didReceiveRemoteNotification, "application:didReceiveRemoteNotification:fetchCompletionHandler:", "application(_:didReceiveRemoteNotification:fetchCompletionHandler:)", .appDelegate, nil, "§2.8"),
    CallbackInfo(.protectedDataWillBecomeUnavailable, "applicationProtectedDataWillBecomeUnavailable:", "applicationProtectedDataWillBecomeUnavailable(_:)", .appDelegate, .protectedDataWillBecomeUnavailable, "§0"),
    CallbackInfo(.protectedDataDidBecomeAvailable, "applicationProtectedDataDidBecomeAvailable:", "applicationProtectedDataDidBecomeAvailable(_:)", .appDelegate, .protectedDataDidBecomeAvailable, "§0"),
    CallbackInfo(.initWithCoder, "initWithCoder:", "init(coder:)", .viewController, nil, "§5.1"),
    CallbackInfo(.awakeFromNib, "awakeFromNib", "awakeFromNib()", .viewController, nil, "§5.1"),
    CallbackInfo(.initWithNibName, "initWithNibName:bundle:", "init(nibName:bundle:)", .viewController, nil, "§5.1"),
    CallbackInfo(.loadView, "loadView", "loadView()", .viewController, nil, "§5.2"),
    CallbackInfo(.viewDidLoad, "viewDidLoad", "viewDidLoad()", .viewController, nil, "§5.2"),
    CallbackInfo(.viewWillAppear, "viewWillAppear:", "viewWillAppear(_:)", .viewController, nil, "§5.3"),
    CallbackInfo(.viewIsAppearing, "viewIsAppearing:", "viewIsAppearing(_:)", .viewController, nil, "§5.3"),
    CallbackInfo(.viewWillLayoutSubviews, "viewWillLayoutSubviews", "viewWillLayoutSubviews()", .viewController, nil, "§5.3"),
    CallbackInfo(.viewDidLayoutSubviews, "viewDidLayoutSubviews", "viewDidLayoutSubviews()", .viewController, nil, "§5.3"),
    CallbackInfo(.viewDidAppear, "viewDidAppear:", "viewDidAppear(_:)", .viewController, nil, "§5.3"),
    CallbackInfo(.viewWillDisappear, "viewWillDisappear:", "viewWillDisappear(_:)", .viewController, nil, "§5.3"),
    CallbackInfo(.viewDidDisappear, "viewDidDisappear:", "viewDidDisappear(_:)", .viewController, nil, "§5.3"),
    CallbackInfo(.viewControllerDidReceiveMemoryWarning, "didReceiveMemoryWarning", "didReceiveMemoryWarning()", .viewController, nil, "§2.9"),
    CallbackInfo(.viewWillUnload, "viewWillUnload", "viewWillUnload()", .viewController, nil, "§5.5"),
    CallbackInfo(.viewDidUnload, "viewDidUnload", "viewDidUnload()", .viewController, nil, "§5.5"),
    CallbackInfo(.viewWillTransitionToSize, "viewWillTransitionToSize:withTransitionCoordinator:", "viewWillTransition(to:with:)", .viewController, nil, "§5.3"),
    CallbackInfo(.dealloc, "dealloc", "deinit", .viewController, nil, "§5.5"),
    CallbackInfo(.initWithFrame, "initWithFrame:", "init(frame:)", .view, nil, "§6"),
    CallbackInfo(.willMoveToSuperview, "willMoveToSuperview:", "willMove(toSuperview:)", .view, nil, "§6"),
    CallbackInfo(.didMoveToSuperview, "didMoveToSuperview", "didMoveToSuperview()", .view, nil, "§6"),
    CallbackInfo(.willMoveToWindow, "willMoveToWindow:", "willMove(toWindow:)", .view, nil, "§6"),
    CallbackInfo(.didMoveToWindow, "didMoveToWindow", "didMoveToWindow()", .view, nil, "§6"),
    CallbackInfo(.layoutSubviews, "layoutSubviews", "layoutSubviews()", .view, nil, "§6"),
    CallbackInfo(.drawRect, "drawRect:", "draw(_:)", .view, nil, "§6"),
    CallbackInfo(.userNotificationCenterWillPresent, "userNotificationCenter:willPresentNotification:withCompletionHandler:",
                 "userNotificationCenter(_:willPresent:withCompletionHandler:)", .appDelegate, nil, "§2.12"),
    CallbackInfo(.userNotificationCenterDidReceive, "userNotificationCenter:didReceiveNotificationResponse:withCompletionHandler:",
                 "userNotificationCenter(_:didReceive:withCompletionHandler:)", .appDelegate, nil, "§2.12"),
    CallbackInfo(.willMoveToParent, "willMoveToParentViewController:", "willMove(toParent:)", .viewController, nil, "§5.6"),
    CallbackInfo(.didMoveToParent, "didMoveToParentViewController:", "didMove(toParent:)", .viewController, nil, "§5.6"),
    CallbackInfo(.stateRestorationActivity, "stateRestorationActivityForScene:", "stateRestorationActivity(for:)", .sceneDelegate, nil, "§2.11"),
    ]
    precondition(rows.map(\.callback) == Callback.allCases, "Callback.rows must list every case once, in order")
    return rows
  }()
}

/// What there is to know about one callback, in one row.
public struct CallbackInfo: Sendable {
  public let callback: Callback
  /// The Objective-C selector: the canonical name scripts use.
  public let selector: String
  /// The Swift spelling.
  public let swiftName: String
  public let receiver: Receiver
  /// The UIApplication notification posted right after it, if any (reference §0 last row).
  public let notification: AppNotification?
  /// The reference section that describes when it is called.
  public let reference: String

  init(_ callback: Callback, _ selector: String, _ swiftName: String, _ receiver: Receiver,
       _ notification: AppNotification?, _ reference: String) {
    self.callback = callback
    self.selector = selector
    self.swiftName = swiftName
    self.receiver = receiver
    self.notification = notification
    self.reference = reference
  }
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
  @inline(__always)
  public func contains(_ c: Callback) -> Bool { bits & (1 << UInt64(c.rawValue)) != 0 }
  @inline(__always)
  public mutating func insert(_ c: Callback) { bits |= 1 << UInt64(c.rawValue) }
  public static var all: CallbackSet { var s = CallbackSet(); s.bits = ~0; return s }
}

/// A set of notifications, as a bit mask.
public struct NotificationSet: Equatable, Sendable {
  public var bits: UInt32 = 0
  public init() {}
  @inline(__always)
  public func contains(_ n: AppNotification) -> Bool { bits & (1 << UInt32(n.rawValue)) != 0 }
  @inline(__always)
  public mutating func insert(_ n: AppNotification) { bits |= 1 << UInt32(n.rawValue) }
}
