import Testing
@testable import LifeSimEngine

/// A force-quit through `Screen.reduce`: the switcher opens first, so the app
/// in front resigns, then the app is swiped away, wherever it is (§2.6).
struct ForceQuitReduceTests {
  let app = AppID(0), other = AppID(1)
  let facts = ScreenFacts(lockEntersBackground: true)

  @Test func theAppInFrontResignsInTheSwitcherBeforeItIsSwipedAway() {
    var s = Screen()
    s.frontmost = app
    s.interruption = .siri
    #expect(s.reduce(.forceQuit(app), facts: facts) == [.walk(.toInactive, app), .swipeAway(app)])
    #expect(s.isSwitcherOpen && s.interruption == nil)
    // The screen forgets it only once the cascade ran (`appLeft`).
    #expect(s.frontmost == app)
  }

  @Test func anAppInTheBackgroundIsSwipedAwayWithNoResign() {
    var s = Screen()
    s.frontmost = other
    #expect(s.reduce(.forceQuit(app), facts: facts) == [.walk(.toInactive, other), .swipeAway(app)])
    // The switcher already open: nothing resigns again.
    #expect(s.reduce(.forceQuit(app), facts: facts) == [.swipeAway(app)])
    var empty = Screen()
    #expect(empty.reduce(.forceQuit(app), facts: facts) == [.swipeAway(app)])
  }
}
