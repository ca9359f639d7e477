import Testing
@testable import LifeSimEngine

/// Opening a window or adding a view costs the same however many exist
/// already: the scene rules read counts and the list of scenes on screen
/// (`SceneList`), and the layout pass visits the views marked for it
/// (`ViewController.marked`), not the whole tree. Before, 20,000 of either
/// took minutes here (each step walked every scene or every view); the
/// checks below are on what the steps did, not on time.
struct ManyScenesAndViewsTests {
  private static let view = ObjectSpec(className: "V", creation: .code)

  @Test func twentyThousandWindowsOpenOneAtATime() throws {
    let dev = try Device(profile: OSProfile(version: 17), seed: 1)
    let app = try dev.install(AppConfig(bundle: "com.example.notes", scenes: true))
    dev.trapsOnViolation = false  // checked once below: after each of 20,000 steps would walk them all
    try dev.launch(app)
    for _ in 0..<20_000 { try dev.openScene(app) }
    let scenes = dev[app].scenes
    #expect(scenes.count == 20_001)
    #expect(scenes.count(in: .foregroundActive) == 1 && scenes.count(in: .background) == 20_000)
    #expect(scenes.onScreen == [20_001] && dev[app].focusScene == 20_001)
    #expect(dev.invariantViolations().isEmpty)
    // The window on screen is closed; a tap on the icon shows the one before it.
    try dev.closeScene(app, scene: 20_001)
    #expect(dev[app].scenes.onScreen.isEmpty && dev[app].focusScene == 20_000)
    let m = dev.mark()
    try dev.launch(app)
    let callbacks = dev.trace.records(kind: .callback, since: m).compactMap { r in r.callback.map { "\(r.scene ?? 0) \($0.selector)" } }
    #expect(callbacks == ["20000 sceneWillEnterForeground:", "20000 sceneDidBecomeActive:"])
    #expect(dev[app].scenes.onScreen == [20_000])
    #expect(dev.invariantViolations().isEmpty)
  }

  @Test func twentyThousandViewsAddedOneAtATimeEachLayOutOnce() throws {
    let dev = try Device(profile: OSProfile(version: 17), seed: 1)
    let app = try dev.install(AppConfig(bundle: "com.example.notes", scenes: false,
                                        root: ObjectSpec(className: "Root", creation: .code)))
    dev.trapsOnViolation = false
    try dev.launch(app)
    let root = try #require(dev.top(of: app))
    let m = dev.mark()
    for _ in 0..<20_000 { try dev.addView(Self.view, to: .viewController(root)) }
    let records = dev.trace.records(kind: .callback, since: m)
    let layouts = records.filter { $0.callback == .layoutSubviews }.count
    let draws = records.filter { $0.callback == .drawRect }.count
    #expect(layouts == 20_000 && draws == 20_000)  // each view once, at the pass after it was added
    #expect(dev.viewControllers[Int(root.index)].marked.isEmpty)
    #expect(dev.invariantViolations().isEmpty)
  }

  /// The views a pass visits come parents first and siblings in the order
  /// they were added, as a walk of the tree gives, whatever order they were
  /// marked in.
  @Test func aPassVisitsMarkedViewsInTheTreesOrder() throws {
    let dev = try Device(profile: OSProfile(version: 17), seed: 1)
    let app = try dev.install(AppConfig(bundle: "com.example.notes", scenes: false,
                                        root: ObjectSpec(className: "Root", creation: .code)))
    try dev.launch(app)
    let root = try #require(dev.top(of: app))
    // Covered by a pushed view controller, the root's views wait out of the window.
    _ = try dev.push(ObjectSpec(className: "B", creation: .code), app: app)
    let a = try dev.addView(Self.view, to: .viewController(root))
    let b = try dev.addView(Self.view, to: .viewController(root))
    let a1 = try dev.addView(Self.view, to: .view(a))
    let b1 = try dev.addView(Self.view, to: .view(b))
    let a2 = try dev.addView(Self.view, to: .view(a))
    let a11 = try dev.addView(Self.view, to: .view(a1))
    let m = dev.mark()
    try dev.pop(app: app)
    let drawn = dev.trace.records(kind: .callback, since: m).filter { $0.callback == .drawRect }.map { $0.object!.instance }
    let order = [a, a1, a11, a2, b, b1].map { dev.views[Int($0.index)].instance }
    #expect(drawn == order)
    #expect(dev.invariantViolations().isEmpty)
  }
}
