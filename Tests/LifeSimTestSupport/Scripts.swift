// Running a script in a runtime of the test's own process.
import LifeSimLua

/// Collects what scripts print.
public final class Output: @unchecked Sendable {
  public var text = ""
  public init() {}
}

/// Runs a script in a fresh runtime; returns the runtime, the printed text and the failure.
@discardableResult
public func runScript(_ source: String, _ configure: (inout RuntimeOptions) -> Void = { _ in })
  throws -> (LuaRuntime, String, LuaFailure?)
{
  let out = Output()
  var options = RuntimeOptions()
  options.output = { out.text += $0 }
  configure(&options)
  let rt = try LuaRuntime(options: options)
  do {
    try rt.run(source: source, chunkName: "=test")
    return (rt, out.text, nil)
  } catch let f as LuaFailure {
    return (rt, out.text, f)
  }
}

