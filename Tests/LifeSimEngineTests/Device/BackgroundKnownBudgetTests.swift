import Testing
@testable import LifeSimEngine

/// When the budget is a fact (the policy's, no `background_time` to ask),
/// `BackgroundTime.reduce` ends a step in one: the deadlines come with it,
/// and the suspension too when nothing holds the process. The effects are
/// the ones the asking path gives, in the same order, so the trace is the same.
struct BackgroundKnownBudgetTests {
  let t = SimTime.seconds(100)

  func facts(_ state: AppState = .background, audioMode: Bool = false,
             budget: SimTime? = .seconds(30)) -> BackgroundFacts {
    BackgroundFacts(now: t, state: state, pid: 7, audioMode: audioMode,
                    exitsOnSuspend: false, expirationLead: .seconds(5), launchTime: .seconds(30),
                    taskKillCode: 0x8bad_f00d, budget: budget)
  }

  func part(audio: Bool = false, launchEnd: SimTime? = nil, openTask: Bool = false) -> BackgroundTime {
    BackgroundTime(epoch: 3, deadline: nil, launchEnd: launchEnd, playingAudio: audio,
                   tasks: openTask ? [BackgroundTask(id: 1, name: "upload", expiration: nil)] : [])
  }

  /// What the device ends up doing for `event` under facts `f`: the
  /// effects, with `.askBudget` replaced by the answer's and `.then(.idle)`
  /// by what `.idle` gives, as the device applies them.
  func applied(_ event: BackgroundEvent, _ f: BackgroundFacts, openTask: Bool = false) -> ([BackgroundEffect], BackgroundTime) {
    var b = part(audio: f.audioMode, openTask: openTask)
    var out: [BackgroundEffect] = []
    for effect in b.reduce(event, facts: f) {
      switch effect {
      case .askBudget: out += Array(b.reduce(.budget(.seconds(30)), facts: f))
      case .then(.idle): out += Array(b.reduce(.idle, facts: f))
      default: out.append(effect)
      }
    }
    return (out, b)
  }

  @Test(arguments: [(false, false), (true, false), (false, true)])
  func settlingGivesWhatAskingGives(openTasks: Bool, audio: Bool) {
    let (known, knownPart) = applied(.settle, facts(audioMode: audio), openTask: openTasks)
    let (viaAsking, askingPart) = applied(.settle, facts(audioMode: audio, budget: nil), openTask: openTasks)
    #expect(known == viaAsking)
    #expect(knownPart == askingPart)
    #expect(known.contains(.snapshot))
  }

  @Test func settlingWithAKnownBudgetSuspendsInTheSameStep() {
    var b = part()
    #expect(b.reduce(.settle, facts: facts())
            == [.snapshot, .schedule(.taskExpiration, at: t + .seconds(25)), .schedule(.taskDeadline, at: t + .seconds(30)),
                .suspend])
    #expect(b.deadline == t + .seconds(30) && b.epoch == 4)
    var held = part(openTask: true)
    #expect(held.reduce(.settle, facts: facts()).count == 3)
  }

  @Test func aPrewarmTheEndOfAudioAndALaunchWindowTakeTheKnownBudgetToo() {
    var rest = part()
    #expect(rest.reduce(.rest, facts: facts())
            == [.schedule(.taskExpiration, at: t + .seconds(25)), .schedule(.taskDeadline, at: t + .seconds(30)), .then(.idle)])
    var audio = part(audio: true)
    #expect(audio.reduce(.audio(playing: false), facts: facts(audioMode: true))
            == [.schedule(.taskExpiration, at: t + .seconds(25)), .schedule(.taskDeadline, at: t + .seconds(30)),
                .schedule(.idleCheck, at: t)])
    var window = part()
    #expect(window.reduce(.launchWindowOpens, facts: facts())
            == [.schedule(.taskExpiration, at: t + .seconds(25)), .schedule(.taskDeadline, at: t + .seconds(30)),
                .schedule(.backgroundLaunchEnd, at: t + .seconds(30))])
    // Without the fact the rules ask, as before.
    var asking = part()
    #expect(asking.reduce(.launchWindowOpens, facts: facts(budget: nil))
            == [.askBudget, .schedule(.backgroundLaunchEnd, at: t + .seconds(30))])
  }

  @Test func aDeadlineCountsOnlyForItsPidAndEpochInTheBackground() {
    let b = part()
    #expect(b.counts(pid: 7, epoch: 3, 7, .background))
    #expect(!b.counts(pid: 7, epoch: 2, 7, .background))
    #expect(!b.counts(pid: 6, epoch: 3, 7, .background))
    #expect(!b.counts(pid: 7, epoch: 3, 7, .suspended))
  }

  @Test func openingTheAppLiftsTheBlockAsTheEventDoes() {
    var direct = part()
    direct.launchBlocked = true
    var byEvent = direct
    direct.opened()
    #expect(byEvent.reduce(.userOpened, facts: facts()) == [])
    #expect(direct == byEvent && !direct.launchBlocked)
  }
}

/// `SceneRules.implied(_:and:)` folded over scenes is the rule `follow` reads.
struct SceneImpliedStateTests {
  @Test func theFoldIsActiveOverInactiveOverBackground() {
    func fold(_ states: [SceneState]) -> AppState? { states.reduce(nil) { SceneRules.implied($0, and: $1) } }
    #expect(fold([.background, .foregroundInactive, .foregroundActive, .unattached]) == .active)
    #expect(fold([.foregroundActive, .foregroundInactive]) == .active)
    #expect(fold([.background, .foregroundInactive]) == .inactive)
    #expect(fold([.unattached, .background]) == .background)
    #expect(fold([.unattached]) == nil)
    #expect(fold([]) == nil)
  }
}
