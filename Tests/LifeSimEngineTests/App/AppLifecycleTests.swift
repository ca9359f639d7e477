import Testing
@testable import LifeSimEngine

/// Every (state, event) pair of the process machine, checked against a table
/// written out by hand from reference §1.4 — the illegal pairs included.
struct AppLifecycleTests {
  /// The expected target of each legal pair; every pair not listed is illegal.
  static let expected: [AppState: [AppEvent: AppState]] = [
    .notRunning: [.launch: .inactive, .launchInBackground: .background],
    .inactive: [.activate: .active, .enterBackground: .background, .terminate: .notRunning, .kill: .notRunning],
    .active: [.deactivate: .inactive, .kill: .notRunning],
    .background: [.enterForeground: .inactive, .suspend: .suspended, .terminate: .notRunning, .kill: .notRunning],
    .suspended: [.resume: .background, .kill: .notRunning],
  ]

  @Test func everyStateEventPairMatchesTheTable() {
    for state in AppState.allCases {
      for event in AppEvent.allCases {
        let edge = AppLifecycle.transition(from: state, on: event)
        #expect(edge?.to == Self.expected[state]?[event], "\(state) --\(event)-->")
        if let edge {
          #expect(edge.from == state && edge.event == event)
          #expect(edge.reference.hasPrefix("§"), "edge \(state) --\(event)--> cites no reference section")
        }
      }
    }
  }

  @Test func callbacksOfEachEdgeInTheAppDelegateModel() {
    func callbacks(_ s: AppState, _ e: AppEvent) -> [Callback]? {
      AppLifecycle.table(for: .appDelegate).transition(from: s, on: e)?.callbacks
    }
    #expect(callbacks(.notRunning, .launch) == [.willFinishLaunching, .didFinishLaunching])
    #expect(callbacks(.inactive, .activate) == [.didBecomeActive])
    #expect(callbacks(.active, .deactivate) == [.willResignActive])
    #expect(callbacks(.inactive, .enterBackground) == [.didEnterBackground])
    #expect(callbacks(.background, .enterForeground) == [.willEnterForeground])
    #expect(callbacks(.background, .suspend) == [])
    #expect(callbacks(.suspended, .resume) == [])
    #expect(callbacks(.background, .terminate) == [.willTerminate])
    #expect(callbacks(.suspended, .kill) == [])
  }

  @Test func inTheSceneModelProcessEdgesCarryOnlyWhatTheAppDelegateStillGets() {
    func callbacks(_ s: AppState, _ e: AppEvent) -> [Callback]? {
      AppLifecycle.table(for: .scene).transition(from: s, on: e)?.callbacks
    }
    // §1.3: launching, discarding and terminating stay on the app delegate.
    #expect(callbacks(.notRunning, .launch) == [.willFinishLaunching, .didFinishLaunching, .didDiscardSceneSessions])
    #expect(callbacks(.inactive, .terminate) == [.didDiscardSceneSessions, .willTerminate])
    #expect(callbacks(.background, .terminate) == [.didDiscardSceneSessions, .willTerminate])
    // The four foreground/background methods are not called (§1.3).
    for (s, e) in [(AppState.inactive, AppEvent.activate), (.active, .deactivate),
                   (.inactive, .enterBackground), (.background, .enterForeground)] {
      #expect(callbacks(s, e) == [], "\(s) --\(e)-->")
    }
    for edge in AppLifecycle.scene.transitions {
      #expect(!edge.callbacks.contains { $0.receiver == .sceneDelegate }, "scene callbacks belong to SceneLifecycle")
    }
  }

  @Test func callbacksSeeTheStateTheReferenceGives() {
    // §1.4: willResignActive runs while active; willEnterForeground while background.
    #expect(AppLifecycle.transition(from: .active, on: .deactivate)?.deliveredAfter == false)
    #expect(AppLifecycle.transition(from: .background, on: .enterForeground)?.deliveredAfter == false)
    #expect(AppLifecycle.transition(from: .inactive, on: .activate)?.deliveredAfter == true)
    #expect(AppLifecycle.transition(from: .inactive, on: .enterBackground)?.deliveredAfter == true)
  }

  @Test func everyRouteStepIsALegalEdge() {
    for route in Route.allCases {
      for start in AppState.allCases {
        guard let events = Routes.events(route, from: start) else { continue }
        var state = start
        for event in events {
          let edge = AppLifecycle.transition(from: state, on: event)
          #expect(edge != nil, "route \(route) from \(start): \(event) is illegal in \(state)")
          state = edge?.to ?? state
        }
      }
    }
  }

  @Test func routesEndWhereTheyShould() {
    func end(_ r: Route, _ s: AppState) -> AppState {
      var state = s
      for e in Routes.events(r, from: s) ?? [] { state = AppLifecycle.transition(from: state, on: e)!.to }
      return state
    }
    for s in AppState.allCases {
      #expect(end(.toActive, s) == .active)
      #expect(end(.userTerminate, s) == .notRunning)
    }
    #expect(end(.toBackground, .active) == .background)
    #expect(end(.toBackground, .suspended) == .suspended)
    #expect(end(.toInactive, .active) == .inactive)
  }

  @Test func selectorsRoundTrip() {
    for c in Callback.allCases {
      #expect(Callback(selector: c.selector) == c)
      #expect(Callback(selector: c.swiftName) == c)
    }
    for n in AppNotification.allCases { #expect(AppNotification(name: n.name) == n) }
    #expect(Callback(selector: "applicationDidBecomeActive") == nil)
  }
}
