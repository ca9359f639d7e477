import Testing
@testable import LifeSimEngine

/// The device applies `Screen.reduce`'s effects in order and sends its
/// follow-ups after the handlers ran: an app killed in its resign handler is
/// not brought back.
struct ScreenEffectsTests {
  /// An iOS 12 device whose app dies (over its memory limit) in its first
  /// `applicationWillResignActive:`.
  func dyingOnResign() throws -> (Device, AppID, RecordingHost) {
    let dev = Device(profile: try OSProfile(version: 12), seed: 1, memoryMB: 1000)
    let app = try dev.install(AppConfig(bundle: "com.example.notes", footprintMB: 100))
    let host = RecordingHost()
    dev.host = host
    dev.setHandled(.willResignActive, for: app)
    host.onHandle = { d, device in
      if d.callback == .willResignActive { try device.allocate(450, app: d.app) }  // the limit is 50% of RAM
    }
    try dev.launch(app)
    return (dev, app, host)
  }

  @Test func anAppKilledUnderNotificationCenterIsNotReactivated() throws {
    let (dev, app, host) = try dyingOnResign()
    defer { dev.host = nil }
    let m = dev.mark()
    try dev.interrupt(.notificationCenter)  // iOS 12: the app would become active again under it
    #expect(dev.callbacks(since: m) == ["applicationWillResignActive:"])
    #expect(dev[app].state == .notRunning && dev.frontmost == nil && !dev.screen.activeUnderInterruption)
    #expect(host.handled == ["applicationWillResignActive:"])
    #expect(dev.invariantViolations().isEmpty)
  }

  @Test func anAppKilledUnderAPeekDoesNotSpringBack() throws {
    let (dev, app, _) = try dyingOnResign()
    defer { dev.host = nil }
    let m = dev.mark()
    try dev.interrupt(.notificationCenterPeek)
    #expect(dev.callbacks(since: m) == ["applicationWillResignActive:"])
    #expect(dev[app].state == .notRunning && dev.frontmost == nil)
    #expect(dev.invariantViolations().isEmpty)
  }

  @Test func homeSendsTheAppToTheBackgroundThenLeavesNothingInFront() throws {
    let (dev, app) = try makeDevice(ios: 12)
    try dev.launch(app)
    let m = dev.mark()
    try dev.home()
    #expect(dev.callbacks(since: m) == ["applicationWillResignActive:", "applicationDidEnterBackground:"])
    #expect(dev[app].state == .suspended && dev.frontmost == nil)
  }
}
