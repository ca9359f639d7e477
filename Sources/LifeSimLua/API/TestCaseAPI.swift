import CLua
import CLuaShim
import LifeSimEngine
import LifeSimPlatform

// lifesim.test, lifesim.skip, lifesim.xfail and lifesim.expect_callbacks: the
// test cases `lifesim test` counts, as pytest counts its tests.

/// A `lifesim.test` case kept while its file loads, to run once it has.
struct CollectedTest {
  var name: String
  /// The case's function, in the registry.
  var ref: Int32
  var line: Int?
  var skip: String?
  var xfail: String?
}

extension LuaRuntime {
  static let testCaseKeys = ["skip", "xfail"]

  /// `lifesim.test(name, [{ skip =, xfail = },] fn)`. Under `lifesim test`
  /// (`collectsTests`), a case called while the file loads is kept for
  /// `runCollectedTests`; otherwise it runs now, and a failure is recorded
  /// while the script goes on with the next case.
  func runTestCase() throws -> Int32 {
    let name = try args.string(1)
    guard !name.isEmpty else { throw ArgumentError(position: 1, message: "a case needs a name (reports and -k use it)") }
    var skip: String?, xfail: String?
    var fn: Int32 = 2
    if lua_type(L, 2) != LUA_TFUNCTION && !args.isAbsent(2) {
      let o = try args.table(2, keys: Self.testCaseKeys)
      skip = try o.optional("skip", as: String.self)
      xfail = try o.optional("xfail", as: String.self)
      fn = 3
    }
    try args.function(fn)
    // The usage's limit counts the options table: without it, a third value is one too many.
    if fn == 2 && !args.isAbsent(3) {
      throw ArgumentError(position: 3, message: "no value expected, got \(typeName(L, 3)); usage: lifesim.test(name, [{ skip = \"why\", xfail = \"why\" },] function() … end)")
    }
    // Where the case is: the line its function starts on (reports point there).
    lua_pushvalue(L, fn)
    var ar = lua_Debug()
    let line = lua_getinfo(L, ">S", &ar) != 0 && ar.linedefined > 0 ? Int(ar.linedefined) : nil
    // Kept while the file loads, in a coroutine of its too; a case declared
    // inside another or in app code runs at once.
    if options.collectsTests && !runningCollectedTests && contexts.count == 0 {
      lua_pushvalue(L, fn)
      let ref = luaL_ref(L, ls_registryindex())
      collectedTests.append(CollectedTest(name: name, ref: ref, line: line, skip: skip, xfail: xfail))
      return 0
    }
    if let testSelection, !testSelection(name) {
      testResults.append(TestCaseResult(name: name, status: .deselected, line: line))
      return 0
    }
    lua_pushvalue(L, fn)
    testResults.append(runCase(CollectedTest(name: name, ref: LUA_NOREF, line: line, skip: skip, xfail: xfail)))
    return 0
  }

  /// Runs the case's function (on top of the stack, popped) and says what became of it.
  private func runCase(_ c: CollectedTest) -> TestCaseResult {
    var result = TestCaseResult(name: c.name, line: c.line)
    if let reason = c.skip {
      ls_pop(L, 1)
      result.status = .skipped(reason)
      return result
    }
    let start = monotonicSeconds()
    let status = ls_pcall(L, 0, 0, 0)
    result.seconds = monotonicSeconds() - start
    if status == LUA_OK {
      if let reason = c.xfail {
        result.status = .xpassed(reason)
        result.failure = LuaFailure(kind: .expectation, message: "the case passed, but xfail says: \(reason)")
      }
      return result
    }
    let failure = popFailure(status: status)
    switch failure.mark {
    case .skip(let reason)?: result.status = .skipped(reason)
    case .xfail(let reason)?: result.status = .xfailed(reason)
    case nil:
      if let reason = c.xfail {
        result.status = .xfailed(reason)
      } else {
        result.status = .failed
        result.failure = failure
        result.context = failureContext()
      }
    }
    return result
  }

  /// The names of the cases kept while the file loaded, in order.
  public var collectedTestNames: [String] { collectedTests.map(\.name) }

  /// Runs the cases kept while the file loaded (`collectsTests`), in order,
  /// each from the state the file left, as `lifesim batch` runs each run:
  /// what a case does to globals, devices or the collector is gone for the
  /// next. `selected` says which cases run (`lifesim test -k`); with
  /// `stopAtFirstFailure`, the cases after a failure are not run.
  ///
  /// Returns nil, or, when the state could not be saved (an address-space
  /// limit), why the cases share one state instead.
  public func runCollectedTests(selected: (String) -> Bool, stopAtFirstFailure: Bool) -> String? {
    let cases = collectedTests
    collectedTests = []
    runningCollectedTests = true
    defer {
      runningCollectedTests = false
      for c in cases { luaL_unref(L, ls_registryindex(), c.ref) }
    }
    var base: RuntimeState?
    var unsaved: String?
    let runs = cases.filter { selected($0.name) && $0.skip == nil }.count
    if runs > 0 {
      if options.unsafe {
        // io and os hold C resources (an open FILE*) the Lua state's bytes do
        // not own: putting the bytes back would revive a closed file.
        unsaved = "with --unsafe the cases always share one state, since what io and os may hold (an open file) cannot be put back"
      } else if ls_snapshot_size(mainState) == 0 {
        unsaved = "there was no room to keep the state the file left (is the address space limited, ulimit -v?)"
      } else {
        do {
          try pinLiveDevices()
          try checkSavable()
          base = saveState()
        } catch {
          unsaved = "the state the file left could not be kept: \((error as? ScriptError)?.message ?? "\(error)")"
        }
      }
    }
    // One case alone needs no state put back.
    let shared = runs > 1 ? unsaved : nil
    var dirty = false
    var stopped = false
    for c in cases {
      if !selected(c.name) {
        testResults.append(TestCaseResult(name: c.name, status: .deselected, line: c.line))
        continue
      }
      if stopped {
        testResults.append(TestCaseResult(name: c.name, status: .notRun, line: c.line))
        continue
      }
      if dirty, let base { restoreForRun(base) }
      lua_rawgeti(L, ls_registryindex(), lua_Integer(c.ref))
      let result = runCase(c)
      if c.skip == nil {
        for line in endOfRunNotes(includingLeftovers: false) where !caseNotes.contains(where: { $0.line == line }) {
          caseNotes.append((c.name, line))
        }
      }
      dirty = dirty || c.skip == nil
      testResults.append(result)
      if stopAtFirstFailure && result.fails { stopped = true }
    }
    // What runs next (an experiment's smoke run) starts from the file's state too.
    if dirty, let base { restoreForRun(base) }
    return shared
  }

  /// `lifesim.skip(reason)`: ends the case (or, at a file's top level, the file) as skipped.
  func skipTest() throws -> Int32 {
    try raiseMark("skip", reason: try args.string(1))
  }

  /// `lifesim.xfail(reason)`: ends the case as an expected failure.
  func xfailTest() throws -> Int32 {
    try raiseMark("xfail", reason: try args.string(1))
  }

  /// Raises a lifesim error table marked `skip` or `xfail`: `lifesim test`
  /// counts it, `lifesim run` says it.
  private func raiseMark(_ key: String, reason: String) throws -> Int32 {
    withBalancedStack(L, pushing: 1) {
      luaL_where(L, 1)
      let whereText = stringValue(L, -1) ?? ""
      ls_pop(L, 1)
      lua_createtable(L, 0, 2)
      push(L, whereText + (key == "skip" ? "skipped: " : "expected to fail: ") + reason); setField(L, -2, "message")
      push(L, reason); setField(L, -2, key)
      lua_rawgeti(L, ls_registryindex(), lua_Integer(errorMetatableRef))
      lua_setmetatable(L, -2)
    }
    throw RaiseTop()
  }

  static let expectCallbacksKeys = ["order"]

  /// `lifesim.expect_callbacks(actual, expected [, { order = }])`: on
  /// mismatch, a failed expectation whose message shows how they differ.
  func expectCallbacks() throws -> Int32 {
    let actual = try args.strings(1, what: "actual")
    let expected = try args.strings(2, what: "expected")
    let order = try args.options(3, keys: Self.expectCallbacksKeys)?.optional("order", as: String.self) ?? "exact"
    switch order {
    case "exact":
      if actual == expected { return 0 }
      pushExpectationFailure("callbacks differ from the expectation\n" + sideBySideDiff(expected: expected, actual: actual))
    case "subsequence":
      guard let missing = firstMissingInOrder(expected, in: actual) else { return 0 }
      let after = missing.index == 0 ? "" : " after '\(expected[missing.index - 1])' (actual #\(missing.after))"
      pushExpectationFailure("expected callback #\(missing.index + 1) '\(expected[missing.index])' is not in the actual "
        + "callbacks\(after), in order with others between\n" + numbered("expected", expected) + numbered("actual", actual))
    case "contains":
      var left = actual
      var absent: [String] = []
      for e in expected {
        if let i = left.firstIndex(of: e) { left.remove(at: i) } else { absent.append(e) }
      }
      if absent.isEmpty { return 0 }
      pushExpectationFailure("the actual callbacks lack \(absent.map { "'\($0)'" }.joined(separator: ", ")) "
        + "(each expected one, in any order)\n" + numbered("actual", actual))
    default:
      throw ArgumentError(position: 3, message: "order must be \"exact\", \"subsequence\" or \"contains\", got \"\(visibleControls(order))\"")
    }
    throw RaiseTop()
  }

  /// The first expected callback a greedy walk through `actual` does not find,
  /// and how many actual callbacks the ones before it took; nil when all are found.
  private func firstMissingInOrder(_ expected: [String], in actual: [String]) -> (index: Int, after: Int)? {
    var at = 0
    for (i, e) in expected.enumerated() {
      guard let found = actual[at...].firstIndex(of: e) else { return (i, at) }
      at = found + 1
    }
    return nil
  }

  private func numbered(_ title: String, _ list: [String]) -> String {
    "  \(title):\n" + list.enumerated().map { "    \($0.offset + 1). \($0.element)\n" }.joined()
  }
}
