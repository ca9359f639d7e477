import Testing
@testable import LifeSimEngine

/// Every (state, event) pair of the scene machine, checked against a table
/// written out by hand from reference §1.2, §1.4 and §2.6 — the illegal pairs included.
struct SceneLifecycleTests {
  typealias Expected = (to: SceneState, callbacks: [Callback])

  static let expected: [SceneState: [SceneEvent: Expected]] = [
    .unattached: [
      .connect: (.foregroundInactive, [.configurationForConnecting, .sceneWillConnect, .sceneWillEnterForeground]),
    ],
    .foregroundInactive: [
      .activate: (.foregroundActive, [.sceneDidBecomeActive]),
      .enterBackground: (.background, [.sceneDidEnterBackground]),
      .disconnect: (.unattached, [.sceneDidDisconnect]),
      .detach: (.unattached, []),
    ],
    .foregroundActive: [
      .deactivate: (.foregroundInactive, [.sceneWillResignActive]),
      .detach: (.unattached, []),
    ],
    .background: [
      .enterForeground: (.foregroundInactive, [.sceneWillEnterForeground]),
      .disconnect: (.unattached, [.sceneDidDisconnect]),
      .detach: (.unattached, []),
    ],
  ]

  @Test func everyStateEventPairMatchesTheTable() {
    var legal = 0
    for state in SceneState.allCases {
      for event in SceneEvent.allCases {
        let edge = SceneLifecycle.transition(from: state, on: event)
        let want = Self.expected[state]?[event]
        #expect(edge?.to == want?.to, "\(state) --\(event)-->")
        #expect(edge?.callbacks == want?.callbacks, "callbacks of \(state) --\(event)-->")
        if let edge {
          legal += 1
          #expect(edge.from == state && edge.event == event)
          #expect(edge.reference.hasPrefix("§"), "edge \(state) --\(event)--> cites no reference section")
        }
      }
    }
    #expect(legal == SceneLifecycle.transitions.count)
    #expect(legal == Self.expected.values.map(\.count).reduce(0, +))
  }

  @Test func callbacksSeeTheStateTheReferenceGives() {
    // The scene is still unattached while it connects, still active while it
    // resigns, and still in the background while it comes forward (§1.4).
    #expect(SceneLifecycle.transition(from: .unattached, on: .connect)?.deliveredAfter == false)
    #expect(SceneLifecycle.transition(from: .foregroundActive, on: .deactivate)?.deliveredAfter == false)
    #expect(SceneLifecycle.transition(from: .background, on: .enterForeground)?.deliveredAfter == false)
    #expect(SceneLifecycle.transition(from: .foregroundInactive, on: .activate)?.deliveredAfter == true)
  }

  @Test func everySceneRouteStepIsALegalEdgeAndEndsWhereItShould() {
    for route in Route.allCases {
      for start in SceneState.allCases {
        var state = start
        for event in SceneRoutes.events(route, from: start) {
          let edge = SceneLifecycle.transition(from: state, on: event)
          #expect(edge != nil, "route \(route) from \(start): \(event) is illegal in \(state)")
          state = edge?.to ?? state
        }
        switch route {
        case .toActive: #expect(state == .foregroundActive)
        case .toBackground: #expect(state == (start == .unattached ? .unattached : .background))
        case .toInactive: #expect(state == (start == .foregroundActive ? .foregroundInactive : start))
        case .userTerminate: #expect(state == .unattached)
        }
      }
    }
  }

  @Test func noRouteDisconnectsOnAnAppSwitch() {
    // §0 "Home", §8.3: leaving the screen never disconnects a scene.
    for start in SceneState.allCases {
      #expect(!SceneRoutes.events(.toBackground, from: start).contains(.disconnect))
      #expect(!SceneRoutes.events(.toInactive, from: start).contains(.disconnect))
    }
    // §2.6: a force-quit disconnects without sceneDidEnterBackground:.
    #expect(!SceneRoutes.events(.userTerminate, from: .foregroundActive).contains(.enterBackground))
  }

  @Test func theAppStateFollowsItsScenes() {
    #expect(SceneLifecycle.appState(of: [SceneState]()) == nil)
    #expect(SceneLifecycle.appState(of: [.unattached]) == nil)
    #expect(SceneLifecycle.appState(of: [.background, .unattached]) == .background)
    #expect(SceneLifecycle.appState(of: [.background, .foregroundInactive]) == .inactive)
    #expect(SceneLifecycle.appState(of: [.foregroundInactive, .foregroundActive, .background]) == .active)
  }
}
