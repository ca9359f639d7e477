import CLua
import CLuaShim
import LifeSimEngine

// Strings a script hands to the host and the host keeps: names that reach a
// trace line (bundle ids, class names, task and action names, URLs) and the
// free text of `dev:log` and `print`. A name is one line of printable text,
// so no name can write a line of its own into the text trace; every such
// string has a length cap, so no single call makes the host copy and keep
// a hundred megabytes.

extension LuaRuntime {
  /// The longest name the host takes, in bytes.
  static let maxNameBytes = nameMaxBytes
  /// The longest text a `dev:log` or a `print` record holds, in bytes.
  static let maxTextBytes = 1 << 20
}

/// What makes `s` unfit as a name (nil: nothing): a control character, with
/// its position, or its length.
func nameProblem(_ s: String, limit: Int = LuaRuntime.maxNameBytes) -> String? {
  let n = s.utf8.count
  if n > limit { return "is \(n) bytes long; names are at most \(limit) bytes" }
  var i = 0
  for b in s.utf8 {
    i += 1
    if b < 0x20 || b == 0x7F {
      return "must not hold control characters (\(controlName(b)) at byte \(i)): a name is one line of the trace"
    }
  }
  return nil
}

/// What makes free text too long for a record (nil: nothing).
func textProblem(_ s: String) -> String? {
  let n = s.utf8.count
  return n > LuaRuntime.maxTextBytes ? "is \(n) bytes long; a record's text is at most \(LuaRuntime.maxTextBytes >> 20) MB" : nil
}

private func controlName(_ b: UInt8) -> String {
  switch b {
  case 0x0A: return "a newline"
  case 0x0D: return "a carriage return"
  case 0x09: return "a tab"
  case 0x1B: return "an escape"
  case 0x00: return "a NUL"
  default: return "byte \(b)"
  }
}

extension Arguments {
  /// Argument `i` as a name the host keeps (see `nameProblem`).
  func name(_ i: Int32, _ what: String = "the name") throws -> String {
    let s = try string(i)
    if let problem = nameProblem(s) { throw ArgumentError(position: i, message: "\(what) \(problem)") }
    return s
  }

  /// Argument `i` as the text of a record.
  func text(_ i: Int32) throws -> String {
    let s = try string(i)
    if let problem = textProblem(s) { throw ArgumentError(position: i, message: "the text \(problem)") }
    return s
  }
}

extension Options {
  /// `t[key]` as a name the host keeps, or nil when absent.
  func name(_ key: String) throws -> String? {
    guard let s = try optional(key, as: String.self) else { return nil }
    if let problem = nameProblem(s) { throw fail("field '\(prefix)\(key)' \(problem)") }
    return s
  }

  /// `t[key]` as a name; absent, it is an error that says what to give.
  func requiredName(_ key: String, hint: String) throws -> String {
    let s = try required(key, as: String.self, hint: hint)
    if let problem = nameProblem(s) { throw fail("field '\(prefix)\(key)' \(problem)") }
    return s
  }
}
