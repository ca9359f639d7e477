import Testing
@testable import LifeSimEngine

/// Scene state restoration through `App.reduce(_: RestorationEvent)`, with
/// no device (§2.11, §8.12): when the activity is asked for, which session
/// holds it, what a force-quit carries, and which activity the host lets go.
struct RestorationReduceTests {
  /// A scene app with sessions `numbers`, the last one brought forward last.
  func app(_ numbers: [Int32], implements: Bool = true) -> App {
    var a = App(id: AppID(0), config: AppConfig(bundle: "com.example.notes", scenes: true), model: .scene)
    for (k, n) in numbers.enumerated() {
      var s = Scene(number: n)
      s.lastForward = k + 1
      a.scenes.append(s)
    }
    if implements { a.implemented.insert(.stateRestorationActivity) }
    return a
  }

  func activity(_ a: App, _ number: Int32) -> HostToken? { a.scenes[a.sceneIndex(number)!].restorationActivity }

  @Test func theActivityIsAskedForOnlyOfAnAppThatImplementsIt() {
    var a = app([1])
    #expect(a.reduce(.enteredBackground(scene: 1)) == [.ask(scene: 1)])
    var b = app([1], implements: false)
    #expect(b.reduce(.enteredBackground(scene: 1)).isEmpty)
  }

  @Test func whatTheSceneDelegateReturnsReplacesTheSessionsActivity() {
    var a = app([1, 2])
    #expect(a.reduce(.returned(HostToken(7), scene: 1)).isEmpty)
    #expect(activity(a, 1) == HostToken(7) && activity(a, 2) == nil)
    #expect(a.reduce(.returned(HostToken(8), scene: 1)) == [.release(HostToken(7))])
    #expect(activity(a, 1) == HostToken(8))
    // A session discarded meanwhile: the host lets the new one go at once.
    #expect(a.reduce(.returned(HostToken(9), scene: 5)) == [.release(HostToken(9))])
  }

  @Test func aDiscardedSessionTakesItsActivityWithIt() {
    var a = app([1, 2])
    _ = a.reduce(.returned(HostToken(7), scene: 2))
    #expect(a.reduce(.discarded(scene: 1)).isEmpty)
    #expect(a.reduce(.discarded(scene: 2)) == [.release(HostToken(7))])
    #expect(activity(a, 2) == nil)
  }

  @Test func aForceQuitCarriesTheActivityOfTheWindowShownLastToTheNextSession() {
    var a = app([1, 2])
    _ = a.reduce(.returned(HostToken(7), scene: 1))
    _ = a.reduce(.returned(HostToken(8), scene: 2))
    // Scene 2 was brought forward last: its activity survives, out of its session.
    let kept = a.takeActivitySurvivingForceQuit(facts: RestorationFacts())
    #expect(kept == HostToken(8) && activity(a, 2) == nil && activity(a, 1) == HostToken(7))
    #expect(a.reduce(.forceQuitEnded(surviving: kept)).isEmpty)
    #expect(a.carriedRestorationActivity == HostToken(8))
    // A second force-quit's activity replaces the one carried.
    #expect(a.reduce(.forceQuitEnded(surviving: HostToken(9))) == [.release(HostToken(8))])
    #expect(a.reduce(.forceQuitEnded(surviving: nil)).isEmpty)
    // The next new session takes it, in place of any it held.
    var b = app([3])
    b.carriedRestorationActivity = HostToken(9)
    b.scenes[0].restorationActivity = HostToken(4)
    #expect(b.reduce(.connects(scene: 3)) == [.release(HostToken(4))])
    #expect(activity(b, 3) == HostToken(9) && b.carriedRestorationActivity == nil)
    #expect(b.reduce(.connects(scene: 3)).isEmpty)
  }

  @Test func withTheQuirkAForceQuitKeepsNothing() {
    var a = app([1])
    _ = a.reduce(.returned(HostToken(7), scene: 1))
    #expect(a.takeActivitySurvivingForceQuit(facts: RestorationFacts(forceQuitDeletesRestoration: true)) == nil)
    #expect(activity(a, 1) == HostToken(7))  // the discard releases it
  }

  @Test func onlyAnIPadFromIPadOS15KeepsTheLastClosedSession() throws {
    let iPad = DeviceModel.named("iPad Pro 11 2018"), iPhone = DeviceModel.named("iPhone 15")
    #expect(iPad != nil && iPhone != nil)
    let quirks = QuirkSet()
    #expect(RestorationFacts(profile: try OSProfile(version: 15), model: iPad, quirks: quirks).keepsLastClosedSession)
    #expect(!RestorationFacts(profile: try OSProfile(version: 14), model: iPad, quirks: quirks).keepsLastClosedSession)
    #expect(!RestorationFacts(profile: try OSProfile(version: 17), model: iPhone, quirks: quirks).keepsLastClosedSession)
    #expect(!RestorationFacts(profile: try OSProfile(version: 17), model: nil, quirks: quirks).keepsLastClosedSession)
    #expect(RestorationFacts(profile: try OSProfile(version: 17), model: nil,
                             quirks: QuirkSet([.forceQuitDeletesRestoration])).forceQuitDeletesRestoration)
  }
}
