import Testing
@testable import LifeSimEngine

/// Handlers that can never run, and work a run leaves pending (reference §1.3, §3.4).
struct LeftoversTests {
  @Test func anAppDelegateMethodOfASceneAppIsNamedWithWhatRunsInstead() throws {
    let (dev, app) = try makeDevice(ios: 16)
    let host = RecordingHost()
    dev.host = host
    dev.setHandled(.didEnterBackground, for: app)
    try dev.launch(app)
    try dev.home()
    let found = dev.unreachableHandlers
    #expect(found.map(\.callback) == [.didEnterBackground])
    #expect(found.first?.instead == .sceneDidEnterBackground)
    #expect(found.first?.reason == .sceneModel)
    #expect(!host.handled.contains("applicationDidEnterBackground:"), "it really never ran")
  }

  @Test func anAppThatAlsoHandlesTheSceneMethodIsNotNamed() throws {
    let (dev, app) = try makeDevice(ios: 16)
    dev.host = RecordingHost()
    dev.setHandled(.didEnterBackground, for: app)
    dev.setHandled(.sceneDidEnterBackground, for: app)
    try dev.launch(app)
    #expect(dev.unreachableHandlers.isEmpty)
  }

  @Test func sceneMethodsBeforeIOS13AndWithoutScenes() throws {
    let (old, a) = try makeDevice(ios: 12)
    old.setHandled(.sceneWillConnect, for: a)
    #expect(old.unreachableHandlers.map(\.reason) == [.noScenes(version: 12)])
    let (new, b) = try makeDevice(ios: 17, scenes: false)
    new.setHandled(.sceneDidBecomeActive, for: b)
    #expect(new.unreachableHandlers.map(\.instead) == [.didBecomeActive])
    #expect(new.unreachableHandlers.map(\.reason) == [.appDelegateModel])
  }

  @Test func sceneMethodsOfAnAppWrittenForBothModelsAreNotNamed() throws {
    let (dev, app) = try makeDevice(ios: 12)
    dev.setHandled(.sceneWillConnect, for: app)
    dev.setHandled(.sceneDidDisconnect, for: app)
    dev.setHandled(.didEnterBackground, for: app)
    #expect(dev.unreachableHandlers.isEmpty)
  }

  @Test func callbacksAVersionDoesNotHave() throws {
    let (dev, app) = try makeDevice(ios: 12)
    dev.setHandled(.viewIsAppearing, for: app)
    dev.setHandled(.viewDidUnload, for: app)
    #expect(dev.unreachableHandlers.map(\.callback) == [.viewIsAppearing, .viewDidUnload])
    let (five, b) = try makeDevice(ios: 5)
    five.setHandled(.viewDidUnload, for: b)
    five.setHandled(.viewIsAppearing, for: b)
    #expect(five.unreachableHandlers.map(\.callback) == [.viewIsAppearing], "iOS 5 unloads views")
  }

  @Test func aHandlerThatRanIsNeverNamed() throws {
    // Every callback that a version delivers in a plain launch and Home must
    // not be named, on every version and model.
    for ios in OSProfile.supportedVersions {
      for scenes in [nil, false] as [Bool?] {
        let (dev, app) = try makeDevice(ios: ios, scenes: scenes)
        dev.host = RecordingHost()
        for c in Callback.allCases { dev.setHandled(c, for: app) }
        try dev.launch(app)
        try dev.home()
        try dev.advance(by: .seconds(60))
        for h in dev.unreachableHandlers {
          #expect(!dev[app].delivered.contains(h.callback), "iOS \(ios): \(h.callback.selector) ran")
        }
      }
    }
  }

  @Test func timersAndTasksLeftPending() throws {
    let (dev, app) = try makeDevice(ios: 17)
    dev.host = RecordingHost()
    try dev.launch(app)
    dev.schedule(HostToken(7), at: .seconds(100))
    try dev.scheduleAppTimer(HostToken(8), app: app, after: .seconds(50))
    try dev.advance(by: .seconds(2))
    _ = try dev.beginBackgroundTask(app: app, name: "upload", expiration: nil)
    let left = dev.leftoverWork
    #expect(left.map(\.kind) == [.appTimer(app, HostToken(8), parked: false), .scriptTimer(HostToken(7)),
                                 .backgroundTask(app, name: "upload", began: .seconds(2))])
    #expect(left.map(\.due) == [.seconds(50), .seconds(100), nil])
  }

  @Test func aDeadProcessLeavesNothing() throws {
    let (dev, app) = try makeDevice(ios: 17)
    dev.host = RecordingHost()
    try dev.launch(app)
    try dev.scheduleAppTimer(HostToken(8), app: app, after: .seconds(50))
    try dev.forceQuit(app)
    #expect(dev.leftoverWork.isEmpty)
  }
}
