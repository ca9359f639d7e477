import Testing
@testable import LifeSimEngine

/// Background launches (fetch, silent push) through `BackgroundTime.reduce`:
/// refused after a force-quit until the user opens the app, else launch or
/// resume, the documented variant's background notification, the window,
/// then the callback.
struct BackgroundLaunchReduceTests {
  let t = SimTime.seconds(100)

  func facts(_ state: AppState, entersBackground: Bool = false) -> BackgroundFacts {
    BackgroundFacts(now: t, state: state, pid: 7, audioMode: false, exitsOnSuspend: false,
                    expirationLead: .seconds(5), launchTime: .seconds(30), taskKillCode: 1,
                    launchEntersBackground: entersBackground)
  }

  @Test func aForceQuitBlocksBackgroundLaunchesUntilTheUserOpensTheApp() {
    var b = BackgroundTime(epoch: 0, deadline: nil, launchEnd: nil, playingAudio: false)
    #expect(b.reduce(.forceQuit, facts: facts(.notRunning)) == [])
    #expect(b.launchBlocked)
    #expect(b.reduce(.launchRequested(.backgroundFetch, .performFetch), facts: facts(.notRunning))
            == [.refuseLaunch(.backgroundFetch)])
    #expect(b.reduce(.userOpened, facts: facts(.active)) == [])
    #expect(!b.launchBlocked)
  }

  @Test func aLaunchFromNotRunningLaunchesInTheBackgroundThenOpensTheWindowAndDelivers() {
    var b = BackgroundTime(epoch: 0, deadline: nil, launchEnd: nil, playingAudio: false)
    #expect(b.reduce(.launchRequested(.silentPush, .didReceiveRemoteNotification), facts: facts(.notRunning))
            == [.apply(.launchInBackground), .then(.launched(.didReceiveRemoteNotification, woke: true))])
    // Launched into the background: no resume, no variant, the window and the callback.
    #expect(b.reduce(.launched(.didReceiveRemoteNotification, woke: true), facts: facts(.background))
            == [.askBudget, .schedule(.backgroundLaunchEnd, at: t + .seconds(30)), .deliver(.didReceiveRemoteNotification)])
    #expect(b.launchEnd == t + .seconds(30))
  }

  @Test func aSuspendedAppResumesAndUnderTheVariantHearsItEnteredTheBackground() {
    var b = BackgroundTime(epoch: 0, deadline: .seconds(120), launchEnd: nil, playingAudio: false)
    #expect(b.reduce(.launchRequested(.backgroundFetch, .performFetch), facts: facts(.suspended, entersBackground: true))
            == [.apply(.resume), .then(.resumed(.performFetch, woke: true))])
    #expect(b.reduce(.resumed(.performFetch, woke: true), facts: facts(.background, entersBackground: true))
            == [.announceBackground, .then(.launchDelivers(.performFetch))])
    // A budget already running is kept: only the window's end is scheduled.
    #expect(b.reduce(.launchDelivers(.performFetch), facts: facts(.background))
            == [.schedule(.backgroundLaunchEnd, at: t + .seconds(30)), .deliver(.performFetch)])
  }

  @Test func anAppAlreadyAwakeGetsTheCallbackWithNoWindowInTheForeground() {
    var b = BackgroundTime(epoch: 0, deadline: nil, launchEnd: nil, playingAudio: false)
    // Active: not woken, so no variant even where the quirk holds, and no window.
    #expect(b.reduce(.launchRequested(.backgroundFetch, .performFetch), facts: facts(.active, entersBackground: true))
            == [.deliver(.performFetch)])
    #expect(b.launchEnd == nil)
  }
}
