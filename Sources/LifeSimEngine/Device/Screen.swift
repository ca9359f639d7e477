/// What the user sees: the app in front, the lock, an overlay,
/// the app switcher. The device changes it as actions run; the invariants
/// check the app states against it.
public struct Screen: Sendable, Equatable {
  /// The app on screen (or the one that returns on unlock).
  public var frontmost: AppID?
  public var isLocked = false
  /// A temporary interruption over the app in front (reference §2.4).
  public var interruption: Interruption?
  public var isSwitcherOpen = false
  /// The interruption showing lets the app in front be active under it (a
  /// Notification Center pulled all the way down on iOS 11–12, §2.4).
  public var activeUnderInterruption = false
  /// An answered call goes on (a green pill in the status bar).
  public var callInProgress = false
  /// The app that was in front when a full-screen call was answered: iOS
  /// returns to it when the call ends.
  public var callReturnsTo: AppID?

  public init() {}

  /// Nothing covers the app in front: it may be active.
  public var isClear: Bool {
    !isLocked && (interruption == nil || activeUnderInterruption) && !isSwitcherOpen
  }

  /// The user leaves the app in front for Home, a lock or another app: the
  /// switcher and any overlay close with it.
  mutating func closeOverlays() {
    isSwitcherOpen = false
    interruption = nil
    activeUnderInterruption = false
  }
}
