/// What the profile and the quirks say about the launches the system makes
/// without the user's tap: prewarming (§2.1 "Prewarming", §8.11) and App
/// Intents (§2.13), so that `SystemLaunch.reduce` tests no version number.
public struct SystemLaunchFacts: Equatable, Sendable {
  /// The system prewarms apps (iOS 15+).
  public var prewarms: Bool
  /// The prewarm stops before `UIApplicationMain` (quirk
  /// `prewarm_skips_launch_methods`, §8.11).
  public var prewarmSkipsLaunchMethods: Bool
  /// `ActivePrewarm = "1"` is in a prewarmed process's environment (iOS 15 only).
  public var activePrewarmEnvironment: Bool
  /// App Intents exist (iOS 16+).
  public var hasAppIntents: Bool

  public init(prewarms: Bool, prewarmSkipsLaunchMethods: Bool = false, activePrewarmEnvironment: Bool = false,
              hasAppIntents: Bool) {
    self.prewarms = prewarms
    self.prewarmSkipsLaunchMethods = prewarmSkipsLaunchMethods
    self.activePrewarmEnvironment = activePrewarmEnvironment
    self.hasAppIntents = hasAppIntents
  }

  public init(profile: OSProfile, quirks: QuirkSet) {
    self.init(prewarms: profile.prewarms, prewarmSkipsLaunchMethods: quirks.contains(.prewarmSkipsLaunchMethods),
              activePrewarmEnvironment: profile.activePrewarmEnvironment, hasAppIntents: profile.hasAppIntents)
  }
}

/// A launch the system asks for without the user's tap.
public enum SystemLaunchRequest: Equatable, Sendable {
  /// `dev:prewarm` (§2.1 "Prewarming").
  case prewarm
  /// `dev:run_intent`; `opensApp` is the intent's `openAppWhenRun` (§2.13).
  case intent(opensApp: Bool)

  /// The action of the action table that asks for it.
  public var action: DeviceAction {
    switch self {
    case .prewarm: return .prewarm
    case .intent: return .runIntent
    }
  }
}

/// Why the system refuses a launch without the user's tap.
public enum SystemLaunchRefusal: Equatable, Sendable {
  /// The system prewarms only an app with no process.
  case processRunning(AppState)
  /// No App Intents on this iOS.
  case noAppIntents
  /// An intent that opens the app needs the device unlocked.
  case locked
}

/// An input to the rules of prewarming and of intents that do not open the
/// app. Each step after the first reads the app's state as the effects
/// before it left it: a launch method may kill the process.
public enum SystemLaunchEvent: Equatable, Sendable {
  /// The system prewarms the app (the checks let it through).
  case prewarm
  /// The prewarm's launch methods returned.
  case prewarmLaunched
  /// The user's tap reaches a prewarmed process.
  case tap
  /// Once the tap resumed it: protected data the prewarm ran without.
  case tapResumed(withoutProtectedData: Bool)
  /// Shortcuts or Siri runs an intent that does not open the app; the
  /// process then resumes, then is held for a background launch's window.
  case intent
  case intentResumes
  case intentHolds
}

/// What a step of prewarming or of an intent asks the device to do.
public enum SystemLaunchEffect: Equatable, Sendable {
  /// Not prewarmed: this iOS does not prewarm (a `log` record says so).
  case notPrewarmed
  /// Prewarmed before `UIApplicationMain`: app code sees nothing until the
  /// tap, which is a cold launch (a `log` record names the quirk).
  case prewarmedBeforeMain
  /// A process event with its callbacks (a launch in the background, a resume).
  case apply(AppEvent)
  /// A step of the process's time in the background (`BackgroundTime.reduce`).
  case background(BackgroundEvent)
  /// An app delegate callback.
  case deliver(Callback)
  /// The next step, once the effects before it ran.
  case then(SystemLaunchEvent)
}

/// The launches the system makes without the user's tap (§2.1
/// "Prewarming", §8.11, §2.13): whether it refuses one, and which states and
/// callbacks follow, as pure functions of the app's state and its prewarm.
public enum SystemLaunch {
  /// Whether the system takes a launch, and if not, why.
  /// - Parameters:
  ///   - state: the app's process state.
  ///   - locked: the device is locked.
  public static func refusal(of request: SystemLaunchRequest, state: AppState, locked: Bool,
                             facts: SystemLaunchFacts) -> SystemLaunchRefusal? {
    switch request {
    case .prewarm:
      return state.isRunning ? .processRunning(state) : nil
    case .intent(let opensApp):
      guard facts.hasAppIntents else { return .noAppIntents }
      // One that opens the app comes to the screen: the device must be unlocked.
      return opensApp && locked ? .locked : nil
    }
  }

  /// One step of a prewarm, of the tap that ends it, or of an intent that
  /// does not open the app: changes `prewarm` and says what the device does.
  /// - Parameters:
  ///   - prewarm: the app's prewarm, set while its process waits for the tap.
  ///   - state: the app's process state now.
  ///   - protectedDataAvailable: `UIApplication.isProtectedDataAvailable` now.
  public static func reduce(_ event: SystemLaunchEvent, prewarm: inout Prewarm?, state: AppState,
                            protectedDataAvailable: Bool, facts: SystemLaunchFacts) -> Effects<SystemLaunchEffect> {
    switch event {
    case .prewarm:
      guard facts.prewarms else { return Effects(.notPrewarmed) }
      // §8.11: the prewarm stops before UIApplicationMain.
      if facts.prewarmSkipsLaunchMethods { return Effects(.prewarmedBeforeMain) }
      // The launch methods run in the background; no scene connects and no
      // configuration is asked for.
      prewarm = Prewarm(activePrewarmEnvironment: facts.activePrewarmEnvironment,
                        withoutProtectedData: !protectedDataAvailable)
      return Effects(.apply(.launchInBackground), .then(.prewarmLaunched))
    case .prewarmLaunched:
      // Held in the background with no scene until the tap: a task the
      // launch methods began keeps it running within the usual budget.
      return state == .background ? Effects(.background(.rest)) : Effects()
    case .tap:
      // No second launch methods: the environment loses `ActivePrewarm`.
      guard let warm = prewarm else { return Effects() }
      prewarm = nil
      let next = SystemLaunchEvent.tapResumed(withoutProtectedData: warm.withoutProtectedData)
      return state == .suspended ? Effects(.apply(.resume), .then(next)) : Effects(.then(next))
    case .tapResumed(let withoutProtectedData):
      // Protected data unavailable during the prewarm becomes available
      // before the scene connects (the iOS 15.0 log of §2.1).
      return withoutProtectedData && protectedDataAvailable ? Effects(.deliver(.protectedDataDidBecomeAvailable)) : Effects()
    case .intent:
      // The launch methods run in the background; no scene is made.
      return state == .notRunning ? Effects(.apply(.launchInBackground), .then(.intentResumes)) : Effects(.then(.intentResumes))
    case .intentResumes:
      return state == .suspended ? Effects(.apply(.resume), .then(.intentHolds)) : Effects(.then(.intentHolds))
    case .intentHolds:
      // Held for a background launch's window, as a background fetch is.
      return state == .background ? Effects(.background(.launchWindowOpens)) : Effects()
    }
  }
}
