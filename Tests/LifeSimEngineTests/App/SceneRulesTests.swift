import Testing
@testable import LifeSimEngine

/// `SceneRules` as pure functions: the app state and its scenes give what
/// the process or the scenes must do, with no device and no Lua.
struct SceneRulesTests {
  func scenes(_ states: SceneState...) -> [Scene] {
    states.enumerated().map { i, state in
      var s = Scene(number: Int32(i + 1))
      s.state = state
      return s
    }
  }

  let table = AppLifecycle.scene

  @Test func theAppFollowsItsMostForwardScene() {
    #expect(SceneRules.follow(.inactive, scenes: scenes(.background, .foregroundActive), table: table)
      == .follow(.activate, to: .active))
    #expect(SceneRules.follow(.active, scenes: scenes(.foregroundInactive, .background), table: table)
      == .follow(.deactivate, to: .inactive))
    #expect(SceneRules.follow(.inactive, scenes: scenes(.background, .unattached), table: table)
      == .follow(.enterBackground, to: .background))
    #expect(SceneRules.follow(.background, scenes: scenes(.foregroundInactive), table: table)
      == .follow(.enterForeground, to: .inactive))
  }

  @Test func theAppStaysWhenItsScenesAgreeOrNoneIsConnected() {
    #expect(SceneRules.follow(.active, scenes: scenes(.foregroundActive, .background), table: table) == nil)
    #expect(SceneRules.follow(.inactive, scenes: scenes(.unattached), table: table) == nil)
    #expect(SceneRules.follow(.background, scenes: [], table: table) == nil)
    // A suspended or dead process does not follow: it runs no code.
    #expect(SceneRules.follow(.suspended, scenes: scenes(.foregroundActive), table: table) == nil)
    #expect(SceneRules.follow(.notRunning, scenes: scenes(.foregroundActive), table: table) == nil)
  }

  @Test func aStateMoreThanOneStepAwayCannotBeFollowed() {
    #expect(SceneRules.follow(.background, scenes: scenes(.foregroundActive), table: table) == .cannotFollow(.active))
  }

  @Test func aSceneComingForwardLaunchesOrResumesTheProcessFirst() {
    #expect(SceneRules.comingForward(.notRunning) == .apply(.launch))
    #expect(SceneRules.comingForward(.suspended) == .apply(.resume))
    for state in [AppState.background, .inactive, .active] { #expect(SceneRules.comingForward(state) == nil) }
  }

  @Test func aForceQuitDiscardsTheSessionsInEachCaseOfTheSceneColumn() {
    #expect(SceneRules.forceQuit(.notRunning, entersBackgroundFirst: false) == [.discardSessions])
    #expect(SceneRules.forceQuit(.suspended, entersBackgroundFirst: false) == [.apply(.kill), .discardSessions])
    #expect(SceneRules.forceQuit(.active, entersBackgroundFirst: false)
      == [.walkScenes(.userTerminate), .discardSessions, .apply(.terminate)])
    #expect(SceneRules.forceQuit(.background, entersBackgroundFirst: true)
      == [.walkScenes(.toBackground), .apply(.terminate), .discardSessions])
  }

  @Test func theLastWindowClosedOnScreenPostsTheBackgroundNotificationAlone() {
    #expect(SceneRules.leftScreen(.inactive) == [.apply(.enterBackground), .post(.didEnterBackground)])
    #expect(SceneRules.leftScreen(.background) == [.post(.didEnterBackground)])
  }

  @Test func aDeadProcessDetachesItsScenes() {
    #expect(SceneRules.processChanged(to: .notRunning, hasScenes: true) == .detachScenes)
    #expect(SceneRules.processChanged(to: .notRunning, hasScenes: false) == nil)
    #expect(SceneRules.processChanged(to: .suspended, hasScenes: true) == nil)
  }
}
