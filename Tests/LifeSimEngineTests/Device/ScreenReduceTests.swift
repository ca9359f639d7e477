import Testing
@testable import LifeSimEngine

/// `Screen.reduce` as a pure function: a screen and an event give a new
/// screen and the effects, with no device and no Lua.
struct ScreenReduceTests {
  let app = AppID(0), other = AppID(1)
  let ios4 = ScreenFacts(lockEntersBackground: false)
  let ios17 = ScreenFacts(lockEntersBackground: true, callStyle: .banner)
  let ios12 = ScreenFacts(lockEntersBackground: true, notificationCenterReactivates: true)

  func screen(front: AppID? = nil, _ change: (inout Screen) -> Void = { _ in }) -> Screen {
    var s = Screen()
    s.frontmost = front
    change(&s)
    return s
  }

  @Test func homeSendsTheAppInFrontToTheBackgroundThenLeavesNothingInFront() {
    var s = screen(front: app) { $0.isSwitcherOpen = true; $0.interruption = .siri }
    #expect(s.reduce(.home, facts: ios17) == [.sendToBackground(app), .leaveScreen(app)])
    // In front while its handlers run; the device's `appLeft` clears it after them.
    #expect(s.frontmost == app && !s.isSwitcherOpen && s.interruption == nil)
    s.appLeft(app)
    #expect(s.frontmost == nil)
  }

  @Test func homeWithNothingInFrontOnlyClosesOverlays() {
    var s = screen { $0.interruption = .controlCenter }
    #expect(s.reduce(.home, facts: ios17) == [])
    #expect(s.interruption == nil)
  }

  @Test func lockOnIOS4OnlyResignsAndKeepsTheAppInFront() {
    var s = screen(front: app)
    #expect(s.reduce(.lock, facts: ios4) == [.lockProtectedData, .walk(.toInactive, app)])
    #expect(s.isLocked && s.frontmost == app)
  }

  @Test func lockFromIOS5SendsToTheBackgroundAfterTheModelsReactivation() {
    var s = screen(front: app)
    #expect(s.reduce(.lock, facts: ios17) == [.lockProtectedData, .sendToBackground(app)])
    #expect(s.isLocked && s.frontmost == app)
    var r = screen(front: app)
    var facts = ios17
    facts.lockReactivates = true
    #expect(r.reduce(.lock, facts: facts) == [.lockProtectedData, .reactivateOnLock(app), .sendToBackground(app)])
  }

  @Test func unlockReturnsTheAppOnlyAfterProtectedDataCameBack() {
    var s = screen(front: app) { $0.isLocked = true }
    #expect(s.reduce(.unlock, facts: ios17) == [.unlockProtectedData, .then(.protectedDataUnlocked)])
    #expect(!s.isLocked)
    #expect(s.reduce(.protectedDataUnlocked, facts: ios17) == [.walk(.toActive, app)])
    // A call that arrived while locked still covers the app.
    s.interruption = .call
    #expect(s.reduce(.protectedDataUnlocked, facts: ios17) == [.walk(.toInactive, app)])
    // Killed by a protected-data handler: nothing returns.
    s.frontmost = nil
    #expect(s.reduce(.protectedDataUnlocked, facts: ios17) == [])
  }

  @Test func anInterruptionResignsTheAppUnlessItIsACallBanner() {
    var full = screen(front: app)
    #expect(full.reduce(.interrupt(.call, callStyle: .fullScreen), facts: ios17) == [.walk(.toInactive, app)])
    #expect(full.interruption == .call && !full.activeUnderInterruption)
    var banner = screen(front: app)
    #expect(banner.reduce(.interrupt(.call, callStyle: nil), facts: ios17) == [])
    #expect(banner.interruption == .call && banner.activeUnderInterruption && banner.isClear)
    var locked = screen(front: app) { $0.isLocked = true }
    #expect(locked.reduce(.interrupt(.siri, callStyle: nil), facts: ios17) == [])
    #expect(locked.interruption == .siri)
  }

  @Test func notificationCenterOnIOS12ReactivatesOnlyAnAppStillInFront() {
    var s = screen(front: app)
    #expect(s.reduce(.interrupt(.notificationCenter, callStyle: nil), facts: ios12)
      == [.walk(.toInactive, app), .then(.notificationCenterResigned(app))])
    var killed = s
    #expect(s.reduce(.notificationCenterResigned(app), facts: ios12) == [.walk(.toActive, app)])
    #expect(s.activeUnderInterruption)
    killed.frontmost = nil  // killed in its resign handler
    #expect(killed.reduce(.notificationCenterResigned(app), facts: ios12) == [])
    #expect(!killed.activeUnderInterruption)
    var later = screen(front: app)
    #expect(later.reduce(.interrupt(.notificationCenter, callStyle: nil), facts: ios17) == [.walk(.toInactive, app)])
  }

  @Test func aPeekSpringsBackLeavingNothingShowing() {
    var s = screen(front: app)
    #expect(s.reduce(.interrupt(.notificationCenterPeek, callStyle: nil), facts: ios17)
      == [.walk(.toInactive, app), .then(.peekResigned(app))])
    #expect(s.interruption == nil)
    #expect(s.reduce(.peekResigned(app), facts: ios17) == [.walk(.toActive, app)])
    s.frontmost = nil
    #expect(s.reduce(.peekResigned(app), facts: ios17) == [])
    var switcher = screen(front: app) { $0.isSwitcherOpen = true }
    #expect(switcher.reduce(.interrupt(.notificationCenterPeek, callStyle: nil), facts: ios17) == [])
  }

  @Test func endingAnInterruptionReactivatesOrAnswersTheCall() {
    var s = screen(front: app) { $0.interruption = .alert }
    #expect(s.reduce(.endInterrupt(accept: false), facts: ios17) == [.walk(.toActive, app)])
    #expect(s.interruption == nil)
    var call = screen(front: app) { $0.interruption = .call }
    #expect(call.reduce(.endInterrupt(accept: true), facts: ios17) == [.sendToBackground(app), .then(.callAnswered(app))])
    #expect(call.callInProgress)
    #expect(call.reduce(.callAnswered(app), facts: ios17) == [])
    #expect(call.frontmost == nil && call.callReturnsTo == app)
    var banner = screen(front: app) { $0.interruption = .call; $0.activeUnderInterruption = true }
    #expect(banner.reduce(.endInterrupt(accept: true), facts: ios17) == [])
    #expect(banner.callInProgress && banner.frontmost == app && !banner.activeUnderInterruption)
    var shade = screen(front: app) { $0.interruption = .notificationCenter; $0.activeUnderInterruption = true }
    #expect(shade.reduce(.endInterrupt(accept: false), facts: ios12) == [.walk(.toInactive, app), .walk(.toActive, app)])
    var none = screen(front: app)
    #expect(none.reduce(.endInterrupt(accept: false), facts: ios17) == [])
  }

  @Test func theEndOfAnAnsweredCallReturnsToTheAppItInterrupted() {
    var s = screen { $0.callInProgress = true; $0.callReturnsTo = app }
    #expect(s.reduce(.endCall, facts: ios17) == [.walk(.toActive, app)])
    #expect(s.frontmost == app && !s.callInProgress && s.callReturnsTo == nil)
    // Another app came forward meanwhile: it stays.
    var t = screen(front: other) { $0.callInProgress = true; $0.callReturnsTo = app }
    #expect(t.reduce(.endCall, facts: ios17) == [])
    #expect(t.frontmost == other && t.callReturnsTo == nil)
  }

  @Test func theSwitcherResignsTheAppOnceAndPickingAnotherBringsItForward() {
    var s = screen(front: app) { $0.interruption = .siri }
    #expect(s.reduce(.switchTo(other), facts: ios17) == [.walk(.toInactive, app), .then(.bringToFront(other))])
    #expect(s.isSwitcherOpen && s.interruption == nil)
    #expect(s.reduce(.openSwitcher, facts: ios17) == [])  // already open
    #expect(s.reduce(.bringToFront(other), facts: ios17) == [.sendToBackground(app), .then(.takeFront(other))])
    #expect(!s.isSwitcherOpen)
    #expect(s.reduce(.takeFront(other), facts: ios17) == [.countOpen(other), .bringForward(other)])
    #expect(s.frontmost == other)
  }

  @Test func bringingTheAppInFrontForwardAgainIsNoNewOpen() {
    var s = screen(front: app) { $0.isSwitcherOpen = true }
    #expect(s.reduce(.bringToFront(app), facts: ios17) == [.bringForward(app)])
    #expect(!s.isSwitcherOpen)
    var empty = screen()
    #expect(empty.reduce(.bringToFront(app), facts: ios17) == [.countOpen(app), .bringForward(app)])
  }

  @Test func theFactsComeFromTheProfileAndTheModel() throws {
    let four = ScreenFacts(profile: try OSProfile(version: 4), model: nil)
    #expect(!four.lockEntersBackground && !four.lockReactivates)
    let twelve = ScreenFacts(profile: try OSProfile(version: 12), model: nil)
    #expect(twelve.notificationCenterReactivates && twelve.callStyle == .fullScreen)
    #expect(ScreenFacts(profile: try OSProfile(version: 14), model: nil).showsBanner(.call, style: nil))
    #expect(!ScreenFacts(profile: try OSProfile(version: 14), model: nil).showsBanner(.siri, style: .banner))
  }
}

/// The inline effects value: order, capacity, equality.
struct EffectsTests {
  @Test func keepsFourEffectsInOrder() {
    var e: Effects<ScreenEffect> = []
    #expect(e.isEmpty)
    for i in 0..<Effects<ScreenEffect>.capacity { e.append(.countOpen(AppID(i))) }
    #expect(e.count == 4 && Array(e) == (0..<4).map { ScreenEffect.countOpen(AppID($0)) })
    #expect(e != [.countOpen(AppID(0))])
  }
}

extension ScreenReduceTests {
  @Test func anAppThatLeavesTheScreenOtherwiseLeavesNothingInFrontOnlyIfItWasThere() {
    var s = screen(front: app)
    s.appLeft(other)
    #expect(s.frontmost == app)
    s.appLeft(app)
    #expect(s.frontmost == nil)
  }
}
