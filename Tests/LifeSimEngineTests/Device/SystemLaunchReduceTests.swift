import Testing
@testable import LifeSimEngine

/// Prewarming and App Intents through `SystemLaunch`, with no device
/// (§2.1 "Prewarming", §8.11, §2.13): which launch the system refuses, and
/// which states and callbacks follow, each follow-up reduced with the state
/// the effects before it would leave.
struct SystemLaunchReduceTests {
  func facts(_ version: Int, _ quirks: [Quirk] = []) throws -> SystemLaunchFacts {
    SystemLaunchFacts(profile: try OSProfile(version: version), quirks: QuirkSet(quirks))
  }

  /// The effects of `event` and its follow-ups, the follow-ups left out;
  /// `states` gives the app's state for each step in turn.
  func chain(_ event: SystemLaunchEvent, prewarm: inout Prewarm?, states: [AppState], available: Bool = true,
             facts: SystemLaunchFacts) -> [SystemLaunchEffect] {
    var result: [SystemLaunchEffect] = []
    var next: SystemLaunchEvent? = event
    var step = 0
    while let e = next {
      next = nil
      let state = states[min(step, states.count - 1)]
      step += 1
      for effect in SystemLaunch.reduce(e, prewarm: &prewarm, state: state, protectedDataAvailable: available, facts: facts) {
        if case .then(let follow) = effect { next = follow } else { result.append(effect) }
      }
    }
    return result
  }

  @Test func eachRequestIsTheActionThatAsksForIt() {
    #expect(SystemLaunchRequest.prewarm.action == .prewarm)
    #expect(SystemLaunchRequest.intent(opensApp: true).action == .runIntent)
    #expect(SystemLaunchRequest.intent(opensApp: false).action == .runIntent)
  }

  @Test func theSystemPrewarmsOnlyAnAppWithNoProcess() throws {
    let f = try facts(15)
    #expect(SystemLaunch.refusal(of: .prewarm, state: .notRunning, locked: true, facts: f) == nil)
    for state in [AppState.suspended, .background, .active] {
      #expect(SystemLaunch.refusal(of: .prewarm, state: state, locked: false, facts: f) == .processRunning(state))
    }
  }

  @Test func intentsNeedIOS16AndOneThatOpensTheAppAnUnlockedDevice() throws {
    let old = try facts(15), f = try facts(16)
    #expect(SystemLaunch.refusal(of: .intent(opensApp: false), state: .notRunning, locked: false, facts: old) == .noAppIntents)
    #expect(SystemLaunch.refusal(of: .intent(opensApp: true), state: .notRunning, locked: true, facts: old) == .noAppIntents)
    #expect(SystemLaunch.refusal(of: .intent(opensApp: true), state: .notRunning, locked: true, facts: f) == .locked)
    #expect(SystemLaunch.refusal(of: .intent(opensApp: false), state: .suspended, locked: true, facts: f) == nil)
    #expect(SystemLaunch.refusal(of: .intent(opensApp: true), state: .active, locked: false, facts: f) == nil)
  }

  @Test func beforeIOS15OrWithTheQuirkNothingRuns() throws {
    var warm: Prewarm?
    #expect(chain(.prewarm, prewarm: &warm, states: [.notRunning], facts: try facts(14)) == [.notPrewarmed])
    #expect(warm == nil)
    let quirk = try facts(17, [.prewarmSkipsLaunchMethods])
    #expect(chain(.prewarm, prewarm: &warm, states: [.notRunning], facts: quirk) == [.prewarmedBeforeMain])
    #expect(warm == nil)
  }

  @Test func aPrewarmLaunchesInTheBackgroundAndRestsThere() throws {
    var warm: Prewarm?
    let effects = chain(.prewarm, prewarm: &warm, states: [.notRunning, .background], available: false, facts: try facts(15))
    #expect(effects == [.apply(.launchInBackground), .background(.rest)])
    #expect(warm == Prewarm(activePrewarmEnvironment: true, withoutProtectedData: true))
    // From iOS 16 no ActivePrewarm; a process killed in its launch methods does not rest.
    warm = nil
    #expect(chain(.prewarm, prewarm: &warm, states: [.notRunning, .notRunning], facts: try facts(16))
            == [.apply(.launchInBackground)])
    #expect(warm == Prewarm(activePrewarmEnvironment: false, withoutProtectedData: false))
  }

  @Test func theTapResumesThePrewarmAndGivesBackProtectedData() throws {
    let f = try facts(15)
    var warm: Prewarm? = Prewarm(activePrewarmEnvironment: true, withoutProtectedData: true)
    #expect(chain(.tap, prewarm: &warm, states: [.suspended, .background], facts: f)
            == [.apply(.resume), .deliver(.protectedDataDidBecomeAvailable)])
    #expect(warm == nil)
    // Still held in the background, and still locked: no resume, no callback.
    warm = Prewarm(activePrewarmEnvironment: true, withoutProtectedData: true)
    #expect(chain(.tap, prewarm: &warm, states: [.background], available: false, facts: f).isEmpty)
    #expect(warm == nil)
    // Protected data was there all along: nothing to give back.
    warm = Prewarm(activePrewarmEnvironment: false, withoutProtectedData: false)
    #expect(chain(.tap, prewarm: &warm, states: [.suspended, .background], facts: f) == [.apply(.resume)])
    // No prewarm: the tap is an ordinary one.
    #expect(chain(.tap, prewarm: &warm, states: [.suspended], facts: f).isEmpty)
  }

  @Test func anIntentThatStaysInTheBackgroundLaunchesOrResumesThenHoldsTheProcess() throws {
    let f = try facts(16)
    var warm: Prewarm?
    #expect(chain(.intent, prewarm: &warm, states: [.notRunning, .background, .background], facts: f)
            == [.apply(.launchInBackground), .background(.launchWindowOpens)])
    #expect(chain(.intent, prewarm: &warm, states: [.suspended, .suspended, .background], facts: f)
            == [.apply(.resume), .background(.launchWindowOpens)])
    #expect(chain(.intent, prewarm: &warm, states: [.background], facts: f) == [.background(.launchWindowOpens)])
    // On screen already, or killed on the way: nothing more.
    #expect(chain(.intent, prewarm: &warm, states: [.active], facts: f).isEmpty)
    #expect(chain(.intent, prewarm: &warm, states: [.notRunning, .notRunning], facts: f) == [.apply(.launchInBackground)])
    #expect(warm == nil)
  }
}
