import Testing
@testable import LifeSimEngine

/// The generic table, and the three machines built on it.
struct TransitionTableTests {
  enum Light: UInt8, MachineValue {
    case off, on, broken
    var description: String { ["off", "on", "broken"][Int(rawValue)] }
  }
  enum Switch: UInt8, MachineValue {
    case flip, smash
    var description: String { ["flip", "smash"][Int(rawValue)] }
  }

  @Test func looksUpEveryEdgeAndOnlyThose() {
    let t = TransitionTable<Light, Switch>("light", [
      Transition(.off, .flip, .on, reference: "§x"),
      Transition(.on, .flip, .off, after: false, reference: "§x"),
      Transition(.on, .smash, .broken, silent: true, reference: "§y"),
    ])
    #expect(t.transition(from: .off, on: .flip)?.to == .on)
    #expect(t.transition(from: .on, on: .flip)?.deliveredAfter == false)
    #expect(t.transition(from: .on, on: .smash)?.isSilent == true)
    #expect(t.transition(from: .off, on: .smash) == nil)
    #expect(t.transition(from: .broken, on: .flip) == nil)
    #expect(t.edge(from: .on, on: .smash) == 2)
    #expect(t.events(from: .on) == [.flip, .smash])
    #expect(t.events(from: .broken).isEmpty)
  }

  @Test func bothProcessTablesHaveTheSameEdges() {
    let a = AppLifecycle.appDelegate.transitions, s = AppLifecycle.scene.transitions
    #expect(a.count == s.count)
    for (x, y) in zip(a, s) {
      #expect(x.from == y.from && x.event == y.event && x.to == y.to && x.deliveredAfter == y.deliveredAfter)
    }
  }

  @Test func silentEdgesAreExactlyTheOnesWithNoCallbackInAnyModel() {
    for (x, y) in zip(AppLifecycle.appDelegate.transitions, AppLifecycle.scene.transitions) {
      #expect(x.isSilent == (x.callbacks.isEmpty && y.callbacks.isEmpty), "\(x.from) --\(x.event)-->")
    }
    for e in SceneLifecycle.table.transitions {
      #expect(e.isSilent == e.callbacks.isEmpty, "\(e.from) --\(e.event)-->")
    }
  }

  @Test func everyEdgeCitesAReferenceSection() {
    let references = AppLifecycle.appDelegate.transitions.map(\.reference)
      + SceneLifecycle.table.transitions.map(\.reference)
      + AppearanceLifecycle.table.transitions.map(\.reference)
    for r in references { #expect(r.hasPrefix("§"), "\(r)") }
  }

  /// The appearance machine accepts every sequence the screen changes walk.
  @Test func appearanceMachineAcceptsEveryScreenChange() {
    func walk(_ start: Appearance, _ events: [AppearanceEvent]) -> Appearance? {
      var state = start
      for e in events {
        guard let t = AppearanceLifecycle.table.transition(from: state, on: e) else { return nil }
        state = t.to
      }
      return state
    }
    // Push, pop: A disappears, B appears; then B disappears and is deallocated.
    #expect(walk(.disappeared, [.willAppear, .didAppear]) == .appeared)
    #expect(walk(.appeared, [.willDisappear, .didDisappear, .dealloc]) == .deallocated)
    // §5.4 interactive pop cancelled: A starts to appear and turns back; B turns back too.
    #expect(walk(.disappeared, [.willAppear, .willDisappear, .didDisappear]) == .disappeared)
    #expect(walk(.appeared, [.willDisappear, .willAppear, .didAppear]) == .appeared)
    // Out of order: no didAppear without willAppear, no dealloc on screen.
    #expect(walk(.disappeared, [.didAppear]) == nil)
    #expect(walk(.appeared, [.dealloc]) == nil)
    #expect(walk(.deallocated, [.willAppear]) == nil)
    // A window that goes away releases its view controllers wherever they are.
    for s in [Appearance.disappeared, .appearing, .appeared, .disappearing] {
      #expect(walk(s, [.release]) == .deallocated)
    }
  }

  @Test func callbackRowsAgreeWithTheEnum() {
    #expect(Callback.rows.count == Callback.allCases.count)
    for c in Callback.allCases {
      #expect(c.info.callback == c)
      #expect(Callback(selector: c.selector) == c)
      #expect(Callback(selector: c.swiftName) == c)
      #expect(c.info.reference.hasPrefix("§"))
    }
    #expect(Callback.sceneDidBecomeActive.notification == .didBecomeActive)
    #expect(Callback.sceneDidDisconnect.receiver == .sceneDelegate)
    #expect(Callback.layoutSubviews.receiver == .view)
    #expect(Callback.dealloc.isViewCallback && Callback.dealloc.isViewControllerCallback)
  }
}
