import Testing
@testable import LifeSimEngine

/// The search's fingerprint holds everything that decides what a device does
/// next: the views in its view controllers, the policies in force, and
/// objects by their place among the live ones (not their ids, which only
/// grow).
struct FingerprintCoverageTests {
  private func onScreen() throws -> (Device, AppID) {
    let dev = Device(profile: try OSProfile(version: 17), seed: 1)
    let app = try dev.install(AppConfig(bundle: "com.example.a", root: ObjectSpec(className: "Root", creation: .code)))
    try dev.launch(app)
    return (dev, app)
  }

  @Test func aViewAddedToAViewControllerIsAnotherState() throws {
    let (dev, app) = try onScreen()
    let before = dev.stateFingerprint()
    let root = dev[app].windows[0].stack[0]
    try dev.addView(ObjectSpec(className: "Spinner", creation: .code), to: .viewController(root))
    #expect(dev.stateFingerprint() != before)
  }

  @Test func aPolicyChangeIsAnotherState() throws {
    let (dev, _) = try onScreen()
    let before = dev.stateFingerprint()
    dev.policy.watchdogLaunch = .seconds(2)
    #expect(dev.stateFingerprint() != before)
  }

  /// A pushed and popped view controller leaves the state it found: the
  /// search does not count a new state for each push.
  @Test func aPushAndAPopComeBackToTheSameState() throws {
    let (dev, app) = try onScreen()
    try dev.advance(by: .seconds(1))
    let before = dev.stateFingerprint()
    _ = try dev.push(ObjectSpec(className: "Detail", creation: .code), app: app)
    try dev.advance(by: .seconds(1))
    #expect(dev.stateFingerprint() != before)
    try dev.pop(app: app)
    try dev.advance(by: .seconds(1))
    #expect(dev.viewControllers.count == 2, "the popped one stays in the store, released")
    #expect(dev.stateFingerprint() == before)
  }
}
