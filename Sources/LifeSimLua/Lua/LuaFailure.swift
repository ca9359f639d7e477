import LifeSimEngine

/// How `lifesim.skip` and `lifesim.xfail` end a test case early, with the reason given.
public enum TestMark: Sendable, Equatable {
  case skip(String)
  case xfail(String)
}

/// A Lua error that reached Swift, with everything needed to report it.
///
/// Like mlua's `CallbackError`, it keeps the cause across the boundary: an error
/// raised inside an app's handler still names the app, the callback and the
/// virtual time when it arrives at the top of the script.
public struct LuaFailure: Error, CustomStringConvertible, Sendable {
  public enum Kind: Sendable {
    /// The chunk did not compile.
    case syntax
    /// A runtime error, from the script or from lifesim's API.
    case runtime
    /// A failed `assert` or `lifesim.expect_*`.
    case expectation
    /// The memory cap was hit.
    case memory
  }

  public var kind: Kind
  /// The message, starting with `file:line:` where Lua knows it.
  public var message: String
  /// The Lua traceback, if any.
  public var traceback: String?
  /// Set when the error was raised inside an app handler, observer or timer.
  public var handler: HandlerFailure?
  /// Set when it is no failure but `lifesim.skip` or `lifesim.xfail` ending a test case.
  public var mark: TestMark?

  public init(kind: Kind, message: String, traceback: String? = nil, handler: HandlerFailure? = nil) {
    self.kind = kind
    self.message = message
    self.traceback = traceback
    self.handler = handler
  }

  /// True for failed expectations (exit 1), false for errors (exit 2).
  public var isExpectation: Bool { kind == .expectation }

  /// The one-line summary: the handler context first, then the message.
  public var description: String {
    if let h = handler {
      let who = h.app.map { "\($0) " } ?? ""
      return "\(message)\n  in \(who)\(h.callback) at t=\(h.time)"
    }
    return message
  }

  /// The summary and the traceback, as printed on stderr.
  public var report: String {
    guard let tb = traceback, !tb.isEmpty else { return description }
    return description + "\n" + tb
  }
}
