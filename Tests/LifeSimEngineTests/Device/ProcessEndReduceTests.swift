import Testing
@testable import LifeSimEngine

/// What a process's death does to the parts: the background part drops its
/// tasks, handlers released a step at a time, then its audio and deadlines
/// (`BackgroundTime.reduce`'s `.processEnded`); the view controllers of its
/// windows are released with no callback, their views and children with them
/// (`ViewHierarchy.reduce`'s `.released`). With no device, then through one
/// with no Lua.
struct ProcessEndReduceTests {
  let t = SimTime.seconds(100)

  func facts() -> BackgroundFacts {
    BackgroundFacts(now: t, state: .notRunning, pid: 0, audioMode: true, exitsOnSuspend: false,
                    expirationLead: .seconds(5), launchTime: .seconds(30), taskKillCode: 1)
  }

  func task(_ id: Int32, handler: Int? = nil) -> BackgroundTask {
    BackgroundTask(id: id, name: "task \(id)", expiration: handler.map(HostToken.init))
  }

  @Test func theTasksGoEachHandlerReleasedThenTheAudioAndTheDeadlines() {
    var b = BackgroundTime(epoch: 3, deadline: t + .seconds(30), launchEnd: t + .seconds(10), playingAudio: true,
                           launchBlocked: true, tasks: [task(1, handler: 10), task(2), task(3, handler: 30)])
    #expect(b.reduce(.processEnded, facts: facts()) == [.release(HostToken(10)), .then(.processEnded)])
    #expect(b.tasks.map(\.id) == [2, 3])
    #expect(b.reduce(.processEnded, facts: facts()) == [.release(HostToken(30)), .then(.processEnded)])
    #expect(b.tasks.isEmpty && b.playingAudio)
    #expect(b.reduce(.processEnded, facts: facts()) == [])
    // A force-quit's block on background launches outlives the process (§2.6).
    #expect(b == BackgroundTime(epoch: 4, deadline: nil, launchEnd: nil, playingAudio: false, launchBlocked: true))
  }

  @Test func tasksWithoutHandlersGoInOneStep() {
    var b = BackgroundTime(epoch: 0, deadline: nil, launchEnd: nil, playingAudio: false, tasks: [task(1), task(2)])
    #expect(b.reduce(.processEnded, facts: facts()) == [])
    #expect(b.tasks.isEmpty && b.epoch == 1)
  }

  // A death that leaves no expiration handler to release: `holdsHandlers` is
  // false exactly when `.processEnded` has no effects, so the device may call
  // `ended()` directly instead of running the background rules' loop.

  @Test func holdsHandlersIsWhetherTheDeathHasEffects() {
    let cases: [[BackgroundTask]] = [[], [task(1)], [task(1), task(2)], [task(1, handler: 10)], [task(1), task(2, handler: 20)]]
    for tasks in cases {
      var b = BackgroundTime(epoch: 2, deadline: t, launchEnd: nil, playingAudio: true, tasks: tasks)
      let holds = b.holdsHandlers
      #expect(holds == tasks.contains { $0.expiration != nil })
      #expect(b.reduce(.processEnded, facts: facts()).isEmpty == !holds)
    }
  }

  @Test func endedWithoutHandlersIsTheWholeRule() {
    var direct = BackgroundTime(epoch: 2, deadline: t, launchEnd: t, playingAudio: true, launchBlocked: true,
                                tasks: [task(1), task(2)])
    var reduced = direct
    #expect(!direct.holdsHandlers)
    #expect(direct.ended().isEmpty)
    #expect(reduced.reduce(.processEnded, facts: facts()).isEmpty)
    #expect(direct == reduced)
    #expect(direct == BackgroundTime(epoch: 3, deadline: nil, launchEnd: nil, playingAudio: false, launchBlocked: true))
  }

  @Test func aReleasedViewControllerLeavesTheWindowSilentlyWithItsViewsAndChildren() throws {
    var h = ViewHierarchy()
    let app = AppID(0)
    let parent = h.makeViewController(ObjectSpec(className: "Parent", creation: .code), app: app, classIndex: 0,
                                      scene: 0, placement: .stack)
    let child = h.makeViewController(ObjectSpec(className: "Child", creation: .code), app: app, classIndex: 1,
                                     scene: 0, placement: .child(of: parent))
    h[vc: parent].children = [child]
    let v = h.makeView(ObjectSpec(className: "Label", creation: .code), classIndex: 2, owner: parent, superview: nil)
    h[vc: parent].subviews = [v]
    h[view: v].inWindow = true
    h[vc: parent].inWindow = true
    h[vc: parent].appearance = .appeared
    h[vc: child].appearance = .deallocated
    let f = ViewControllerFacts(viewIsAppearing: .always, viewIsAppearingReachesChildren: true)
    let edge = try #require(AppearanceLifecycle.table.edge(from: .appeared, on: .release))
    #expect(h.reduce(.released(parent), facts: f) == [.took(edge: edge), .releaseChildren(parent)])
    #expect(h[vc: parent].appearance == .deallocated && !h[vc: parent].inWindow)
    #expect(h[view: v].deallocated && !h[view: v].inWindow)
    // Deallocated already: no edge, but its children still go with it.
    #expect(h.reduce(.released(child), facts: f) == [.releaseChildren(child)])
    #expect(h.reduce(.released(parent), facts: f) == [.releaseChildren(parent)])
  }

  @Test func aKilledProcessLosesItsTasksAudioAndViewControllersThroughTheParts() throws {
    let dev = Device(profile: try OSProfile(version: 17), seed: 1)
    let host = RecordingHost()
    dev.host = host
    let app = try dev.install(AppConfig(bundle: "com.example.player", scenes: false, backgroundModes: ["audio"],
                                        root: ObjectSpec(className: "Root", creation: .code)))
    try dev.launch(app)
    let pushed = try dev.push(ObjectSpec(className: "Detail", creation: .code), app: app)
    let child = try dev.addChild(ObjectSpec(className: "Child", creation: .code), to: pushed)
    let label = try dev.addView(ObjectSpec(className: "Label", creation: .code), to: .viewController(child))
    _ = try dev.beginBackgroundTask(app: app, name: "upload", expiration: HostToken(10))
    _ = try dev.beginBackgroundTask(app: app, name: "sync", expiration: nil)
    _ = try dev.beginBackgroundTask(app: app, name: "save", expiration: HostToken(30))
    try dev.setPlayingAudio(app, true)
    try dev.forceQuit(app)
    #expect(dev[app].state == .notRunning)
    #expect(host.released == [10, 30])
    #expect(dev[app].tasks.isEmpty && !dev[app].playingAudio && dev[app].backgroundDeadline == nil)
    #expect(dev[app].windows.isEmpty)
    let released = dev.viewControllers.filter { $0.appearance == .deallocated && !$0.inWindow }.count
    #expect(dev.viewControllers.count == 3 && released == 3)
    #expect(dev.view(label).deallocated && !dev.view(label).inWindow)
    #expect(dev.invariantViolations().isEmpty)
  }
}
