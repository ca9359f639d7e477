import Testing
@testable import LifeSimEngine

/// View controllers and views (reference §5–§6), without Lua.
struct ViewControllerTests {
  /// A device whose app has a code root, launched.
  private func launched(ios: Int, root: String = "Root") throws -> (Device, AppID) {
    let dev = try Device(profile: OSProfile(version: ios), seed: 1)
    let app = try dev.install(AppConfig(bundle: "com.example.notes",
                                        root: ObjectSpec(className: root, creation: .code)))
    try dev.launch(app)
    return (dev, app)
  }

  /// "Class selector" for every view-controller or view callback since `m`.
  private func calls(_ dev: Device, since m: Int) -> [String] {
    dev.trace.records(kind: .callback, since: m).compactMap { r in
      r.object.map { "\(dev.trace.className(of: $0)) \(r.callback!.selector)" }
    }
  }

  /// The callbacks a table's steps predict for A and B, with one layout pass
  /// for each `.layout` (later appearances), so a walk can be checked against
  /// the table it came from.
  private func predicted(_ kind: ScreenChange, a: String, b: String, layoutPasses: (a: Int, b: Int)) -> [String] {
    var out: [String] = []
    for step in kind.steps {
      switch step {
      case .prepare(let p): if p == .b { out += ["\(b) initWithNibName:bundle:", "\(b) loadView", "\(b) viewDidLoad"] }
      case .willAppear(let p): out.append("\(p == .a ? a : b) viewWillAppear:")
      case .isAppearing: break  // iOS 12 below: none
      case .layout(let p):
        for _ in 0..<(p == .a ? layoutPasses.a : layoutPasses.b) {
          out += ["\(p == .a ? a : b) viewWillLayoutSubviews", "\(p == .a ? a : b) viewDidLayoutSubviews"]
        }
      case .didAppear(let p): out.append("\(p == .a ? a : b) viewDidAppear:")
      case .willDisappear(let p): out.append("\(p == .a ? a : b) viewWillDisappear:")
      case .didDisappear(let p): out.append("\(p == .a ? a : b) viewDidDisappear:")
      case .dealloc(let p): out.append("\(p == .a ? a : b) dealloc")
      case .enterWindow, .leaveWindow: break  // no views here
      }
    }
    return out
  }

  @Test func everyTransitionWalksItsTable() throws {
    let spec = ObjectSpec(className: "B", creation: .code)
    var (dev, app) = try launched(ios: 12)
    var m = dev.mark()
    _ = try dev.push(spec, app: app)
    #expect(calls(dev, since: m) == predicted(.push, a: "Root", b: "B", layoutPasses: (1, 2)))
    m = dev.mark()
    try dev.popGesture(app: app, cancel: true)
    #expect(calls(dev, since: m) == predicted(.popCancelled, a: "Root", b: "B", layoutPasses: (0, 0)))
    m = dev.mark()
    try dev.pop(app: app)
    // The revealed Root gets no layout pass (§5.4).
    #expect(calls(dev, since: m) == predicted(.pop, a: "Root", b: "B", layoutPasses: (0, 0)))

    for style in ModalStyle.allCases {
      (dev, app) = try launched(ios: 12)
      m = dev.mark()
      _ = try dev.present(spec, style: style, app: app)
      let present: ScreenChange = style == .fullScreen ? .presentFullScreen : .presentOver
      #expect(calls(dev, since: m) == predicted(present, a: "Root", b: "B", layoutPasses: (1, 2)), "\(style)")
      m = dev.mark()
      try dev.dismiss(app: app)
      let dismiss: ScreenChange = style == .fullScreen ? .dismissFullScreen : .dismissOver
      #expect(calls(dev, since: m) == predicted(dismiss, a: "Root", b: "B", layoutPasses: (0, 0)), "\(style)")
    }
  }

  @Test func thePresenterOfASheetGetsNothing() throws {
    for kind in [ScreenChange.presentOver, .dismissOver, .dismissCancelled] {
      for step in kind.steps {
        switch step {
        case .willAppear(.a), .didAppear(.a), .willDisappear(.a), .didDisappear(.a):
          Issue.record("\(kind) sends \(step) to the presenter")
        default: break
        }
      }
    }
  }

  @Test func appearanceStatesFollowTheCallbacks() throws {
    let (dev, app) = try launched(ios: 17)
    let root = dev.top(of: app)!
    #expect(dev.viewController(root).appearance == .appeared)
    let b = try dev.push(ObjectSpec(className: "B", creation: .storyboard), app: app)
    #expect(dev.viewController(root).appearance == .disappeared)
    #expect(dev.viewController(b).appearance == .appeared)
    #expect(dev.focusWindow(of: app)?.stack == [root, b])
    try dev.pop(app: app)
    #expect(dev.viewController(b).appearance == .deallocated)
    try dev.home()
    #expect(dev.viewController(root).appearance == .appeared, "Home sends no appearance callbacks (§0)")
    try dev.forceQuit(app)
    #expect(dev.viewController(root).appearance == .deallocated)
    #expect(dev.focusWindow(of: app) == nil)
  }

  @Test func viewsEnterAndLeaveTheWindowWithTheirViewController() throws {
    let (dev, app) = try launched(ios: 12)
    let b = try dev.push(ObjectSpec(className: "B", creation: .code), app: app)
    let card = try dev.addView(ObjectSpec(className: "Card", creation: .xib), to: .viewController(b))
    let label = try dev.addView(ObjectSpec(className: "Label", creation: .code), to: .view(card))
    #expect(dev.view(card).inWindow && dev.view(label).inWindow)
    _ = try dev.push(ObjectSpec(className: "C", creation: .code), app: app)
    #expect(!dev.view(card).inWindow && !dev.view(label).inWindow)
    try dev.pop(app: app)
    #expect(dev.view(card).inWindow && dev.view(label).inWindow)
    let m = dev.mark()
    try dev.pop(app: app)
    #expect(dev.view(card).deallocated && dev.view(label).deallocated)
    #expect(calls(dev, since: m).suffix(3) == ["B dealloc", "Card dealloc", "Label dealloc"])
  }

  @Test func aMemoryWarningGoesToTheVisibleHierarchyParentFirst() throws {
    let (dev, app) = try launched(ios: 17)
    _ = try dev.push(ObjectSpec(className: "B", creation: .code), app: app)
    _ = try dev.present(ObjectSpec(className: "C", creation: .code), style: .formSheet, app: app)
    let m = dev.mark()
    try dev.memoryWarning()
    #expect(calls(dev, since: m) == ["B didReceiveMemoryWarning", "C didReceiveMemoryWarning"])
    let kinds = dev.trace.records(since: m).map(\.kind)
    #expect(kinds.firstIndex(of: .notification)! < kinds.lastIndex(of: .callback)!)
  }

  @Test func instancesOfAClassAreNumberedPerApp() throws {
    let (dev, app) = try launched(ios: 17)
    let spec = ObjectSpec(className: "B", creation: .code)
    let first = try dev.push(spec, app: app)
    let second = try dev.push(spec, app: app)
    #expect(dev.viewController(first).instance == 1 && dev.viewController(second).instance == 2)
    let text = TraceWriter(format: .text).render(dev.trace)
    #expect(text.contains("-[B viewDidLoad] #2"))
    let jsonl = TraceWriter(format: .jsonl).render(dev.trace)
    #expect(jsonl.contains(#""vc":"B","instance":2,"callback":"viewDidLoad""#))
  }
}
