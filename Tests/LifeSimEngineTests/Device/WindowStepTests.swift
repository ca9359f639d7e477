import Testing
@testable import LifeSimEngine

/// A window's own steps through `Window.reduce(_: WindowEvent)`, with no
/// device (§2.1 steps 4–6, §0, §3.7): shown once, the root's
/// `viewDidAppear:` at the activation, and the exit that ends its changes.
struct WindowStepTests {
  let root = ObjectID(0), pushed = ObjectID(1), sheet = ObjectID(2)

  func window(_ stack: [ObjectID]) -> Window {
    var w = Window(scene: 0)
    w.stack = stack
    return w
  }

  @Test func aWindowIsShownOnceAndItsRootAppearsAtTheActivation() {
    var w = window([root])
    #expect(w.changes(on: .shows) && !w.changes(on: .activates))
    #expect(w.reduce(.shows) == WindowWalk(.installRoot, a: nil, b: root))
    #expect(w.shown && w.awaitingDidAppear)
    #expect(!w.changes(on: .shows) && w.reduce(.shows) == nil)
    #expect(w.reduce(.activates) == WindowWalk(.finishRoot, a: nil, b: root))
    #expect(!w.awaitingDidAppear)
    // Later activations have no root waiting.
    #expect(!w.changes(on: .activates) && w.reduce(.activates) == nil)
  }

  @Test func aWindowWithNoRootIsNeverShown() {
    var w = window([])
    #expect(!w.changes(on: .shows) && w.reduce(.shows) == nil)
    #expect(!w.shown)
  }

  @Test func anExitMakesTheTopOnScreenDisappearAndEndsTheWindowsChanges() {
    var w = window([root, pushed])
    w.presented = [sheet]
    w.shown = true
    #expect(w.reduce(.exits(topAppeared: true)) == WindowWalk(.exitOnSuspend, a: sheet, b: nil))
    #expect(w.exiting)
    // A top that has not appeared has nothing to disappear from; the window exits all the same.
    var still = window([root, pushed])
    still.shown = true
    #expect(still.reduce(.exits(topAppeared: false)) == nil)
    #expect(still.exiting)
    // A window never shown has nothing on screen.
    var hidden = window([root])
    #expect(hidden.reduce(.exits(topAppeared: true)) == nil)
    #expect(!hidden.exiting)
  }
}
