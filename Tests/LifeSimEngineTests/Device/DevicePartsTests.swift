import Testing
@testable import LifeSimEngine

/// Each part of `Device`, on its own, without a device and without Lua.
struct ProcessTableTests {
  func table(_ footprints: [Double]) -> (ProcessTable, [AppID]) {
    var t = ProcessTable()
    let ids = footprints.enumerated().map { i, mb in
      t.install(AppConfig(bundle: "app\(i)", footprintMB: mb), model: .appDelegate)
    }
    return (t, ids)
  }

  @Test func startingGivesANewPidAndTheConfiguredFootprint() {
    var (t, ids) = table([100, 200])
    t.setState(ids[0], .inactive)
    t.setState(ids[1], .background)
    #expect(t[ids[0]].pid == 1 && t[ids[1]].pid == 2)
    #expect(t[ids[0]].footprintMB == 100 && t.memoryInUseMB == 300 && t.runningCount == 2)
    // A state change that keeps the process running keeps its pid.
    t.setState(ids[0], .active)
    #expect(t[ids[0]].pid == 1 && t[ids[0]].launches == 1)
    #expect(t.violations().isEmpty)
  }

  @Test func endingTakesPidAndMemoryAwayAndPidsAreNeverReused() {
    var (t, ids) = table([100, 200])
    t.setState(ids[0], .inactive)
    let old = t.setState(ids[0], .notRunning)
    #expect(old == 1)
    #expect(t[ids[0]].pid == 0 && t[ids[0]].footprintMB == 0 && t.memoryInUseMB == 0 && t.runningCount == 0)
    t.setState(ids[0], .inactive)
    #expect(t[ids[0]].pid == 2 && t[ids[0]].launches == 2)
    #expect(t.violations().isEmpty)
  }

  @Test func memoryInUseIsExactlyTheSumOfRunningFootprints() {
    var (t, ids) = table([40, 60, 80])
    for id in ids { t.setState(id, .background) }
    // Fractions: the total is summed again in install order, never drifted by += and -=.
    t.setFootprint(ids[1], 60.1)
    t.setFootprint(ids[1], 60.1 + 0.2)
    t.setFootprint(ids[1], 60.1 + 0.2 - 0.2)
    #expect(t.memoryInUseMB == 40 + (60.1 + 0.2 - 0.2) + 80)
    t.setFootprint(ids[2], -5)
    #expect(t[ids[2]].footprintMB == 0)
    t.setState(ids[0], .notRunning)
    #expect(t.memoryInUseMB == 60.1 + 0.2 - 0.2)
    #expect(t.violations().isEmpty)
  }

  @Test func victimsComeByBandThenLeastRecentlyUsedThenInstallOrder() {
    var (t, ids) = table([10, 10, 10, 10])
    t.setState(ids[0], .active)
    t.setState(ids[1], .background)
    t.setState(ids[2], .background); t.setState(ids[2], .suspended)
    t.setState(ids[3], .background); t.setState(ids[3], .suspended)
    t[ids[2]].lastUsed = .seconds(5)
    t[ids[3]].lastUsed = .seconds(5)
    t[ids[1]].lastUsed = .seconds(1)
    #expect(t.victimCandidates().map(\.app) == [ids[2], ids[3], ids[1], ids[0]])
    t[ids[3]].lastUsed = .seconds(2)
    #expect(t.victimCandidates().map(\.app) == [ids[3], ids[2], ids[1], ids[0]])
  }

  @Test func findsAnAppByBundle() {
    let (t, ids) = table([1, 2])
    #expect(t.find(bundle: "app1") == ids[1])
    #expect(t.find(bundle: "nope") == nil)
  }
}

struct MemoryMonitorTests {
  @Test func levelsFollowThePolicyThresholds() throws {
    let policy = Policy(profile: try OSProfile(version: 17))
    let m = MemoryMonitor(ramMB: 1000, model: nil)
    #expect(m.level(used: policy.memoryWarningAt * 1000 - 1, policy: policy) == .normal)
    #expect(m.level(used: policy.memoryWarningAt * 1000, policy: policy) == .warning)
    #expect(m.level(used: policy.jetsamAt * 1000, policy: policy) == .warning)
    #expect(m.level(used: policy.jetsamAt * 1000 + 1, policy: policy) == .critical)
  }

  @Test func withoutRAMThereIsNoPressureAndNoCheck() throws {
    let policy = Policy(profile: try OSProfile(version: 17))
    var m = MemoryMonitor(ramMB: nil, model: nil)
    #expect(m.level(used: 1e9, policy: policy) == .normal)
    #expect(m.perProcessLimitMB == nil && !m.overLimit(1e9))
    let asked = m.requestCheck()
    #expect(!asked)
  }

  @Test func oneCheckWaitsAtATime() {
    var m = MemoryMonitor(ramMB: 2000, model: nil)
    let first = m.requestCheck(), second = m.requestCheck()
    #expect(first && !second)
    m.checkScheduled = false
    let third = m.requestCheck()
    #expect(third)
  }

  @Test func theProcessLimitIsTheModelsOrHalfOfRAM() throws {
    #expect(MemoryMonitor(ramMB: 2000, model: nil).perProcessLimitMB == DeviceModel.defaultLimitMB(ramMB: 2000))
    let model = try #require(DeviceModel.all.first)
    let m = MemoryMonitor(ramMB: model.ramMB, model: model)
    #expect(m.perProcessLimitMB == model.perProcessLimitMB)
    #expect(m.overLimit(Double(model.perProcessLimitMB) + 0.5) && !m.overLimit(Double(model.perProcessLimitMB)))
  }
}

struct WatchdogsTests {
  let policy: Policy
  init() throws { policy = Policy(profile: try OSProfile(version: 17)) }
  let a = AppID(0), b = AppID(1)

  @Test func backgroundAndTerminateCallbacksArmAndRestore() {
    var w = Watchdogs(debugger: false)
    w.armLaunch(app: a, at: .zero, policy: policy)
    let saved = w.arm(for: .didEnterBackground, app: b, at: .seconds(1), policy: policy)
    #expect(w.armed?.kind == .background && w.armed?.app == b)
    #expect(w.armed?.deadline == .seconds(1) + policy.watchdogBackground)
    w.restore(saved!)
    #expect(w.armed?.kind == .launch && w.armed?.app == a)
    #expect(w.arm(for: .viewDidLoad, app: a, at: .zero, policy: policy) == nil)
  }

  @Test func theCallbacksWatchedAreTheOnesThatArm() {
    // `watches` says which callbacks a late scene update counts from the time asked (§3.8).
    for c in Callback.allCases {
      var w = Watchdogs(debugger: false)
      #expect(w.watches(c) == (w.arm(for: c, app: a, at: .zero, policy: policy) != nil), "\(c)")
    }
  }

  @Test func theLaunchEndsAtBecomingActiveAndDeathDisarms() {
    var w = Watchdogs(debugger: false)
    w.armLaunch(app: a, at: .zero, policy: policy)
    w.launchFinished(app: b)
    #expect(w.armed != nil)
    w.launchFinished(app: a)
    #expect(w.armed == nil)
    w.armLaunch(app: a, at: .zero, policy: policy)
    w.processEnded(a)
    #expect(w.armed == nil)
  }

  @Test func aDebuggerArmsNothing() {
    var w = Watchdogs(debugger: true)
    w.armLaunch(app: a, at: .zero, policy: policy)
    #expect(w.arm(for: .didEnterBackground, app: a, at: .zero, policy: policy) == nil)
    #expect(w.armed == nil)
  }
}

struct ProtectedDataTests {
  @Test func withoutAPasscodeNothingLocks() {
    var p = ProtectedData()
    let epoch = p.deviceLocked()
    #expect(epoch == nil)
    let cameBack = p.deviceUnlocked()
    #expect(p.available && !cameBack)
  }

  @Test func aLockEventLocksOnlyIfTheDeviceStayedLocked() {
    var p = ProtectedData()
    p.passcode = true
    let first = p.deviceLocked()!
    _ = p.deviceUnlocked()
    let second = p.deviceLocked()!
    let voided = p.lockEventFired(epoch: first, deviceLocked: true)  // voided by the unlock
    let locked = p.lockEventFired(epoch: second, deviceLocked: true)
    #expect(!voided && locked && !p.available)
    let cameBack = p.deviceUnlocked()
    #expect(cameBack && p.available)
  }
}

struct ScreenTests {
  @Test func clearOnlyWithNothingOverTheApp() {
    var s = Screen()
    #expect(s.isClear)
    s.isSwitcherOpen = true
    s.interruption = .call
    #expect(!s.isClear)
    s.closeOverlays()
    #expect(s.isClear)
    s.isLocked = true
    #expect(!s.isClear)
  }
}

struct ViewHierarchyTests {
  @Test func objectsGetIdsInstancesAndSubtrees() {
    var h = ViewHierarchy()
    let app = AppID(0)
    let spec = ObjectSpec(className: "Root", creation: .code)
    let vc = h.makeViewController(spec, app: app, classIndex: 0, scene: 0, placement: .stack)
    let vc2 = h.makeViewController(spec, app: app, classIndex: 0, scene: 0, placement: .stack)
    #expect(h[vc: vc].instance == 1 && h[vc: vc2].instance == 2)
    let v = h.makeView(ObjectSpec(className: "V", creation: .code), classIndex: 1, owner: vc, superview: nil)
    h[vc: vc].subviews.append(v)
    let w = h.makeView(ObjectSpec(className: "W", creation: .code), classIndex: 2, owner: vc, superview: v)
    h[view: v].subviews.append(w)
    #expect(h.subtree(v) == [v, w])
    #expect(h.views(under: vc) == [v, w])
    #expect(h.violations().isEmpty)
    // A subview that does not name its superview is caught.
    h[view: w].subviews.append(v)
    #expect(!h.violations().isEmpty)
  }

  @Test func aSheetLeavesThePresenterVisible() {
    var h = ViewHierarchy()
    let app = AppID(0)
    let root = h.makeViewController(ObjectSpec(className: "R", creation: .code), app: app, classIndex: 0, scene: 0,
                                    placement: .stack)
    let sheet = h.makeViewController(ObjectSpec(className: "S", creation: .code), app: app, classIndex: 1, scene: 0,
                                     placement: .presented(.pageSheet))
    let full = h.makeViewController(ObjectSpec(className: "F", creation: .code), app: app, classIndex: 2, scene: 0,
                                    placement: .presented(.fullScreen))
    var window = Window(scene: 0)
    window.stack = [root]
    window.presented = [sheet]
    #expect(h.visible(in: window) == [root, sheet])
    window.presented = [full]
    #expect(h.visible(in: window) == [full])
  }
}

extension ProcessTableTests {
  @Test func theFirstVictimIsTheHeadOfTheCandidates() {
    var (t, ids) = table([10, 10, 10, 10, 10])
    #expect(t.firstVictim() == nil)
    var rng = SeededGenerator(seed: 7)
    let states: [AppState] = [.active, .background, .suspended, .inactive]
    for round in 0..<200 {
      for id in ids {
        t.setState(id, .notRunning)
        let s = states[Int(rng.next() % 5 == 4 ? 0 : rng.next() % 4)]
        if rng.next() % 5 != 0 { t.setState(id, s) }
        t[id].lastUsed = .seconds(Int64(rng.next() % 3))
      }
      let candidates = t.victimCandidates()
      #expect(t.firstVictim() == candidates.first?.app, "round \(round)")
      // Strict LRU: the least recently used candidate, the first in default order on a tie.
      var lru = candidates.first
      for c in candidates where c.lastUsed < lru!.lastUsed { lru = c }
      #expect(t.firstVictim(order: .lru) == lru?.app, "round \(round)")
    }
  }
}
