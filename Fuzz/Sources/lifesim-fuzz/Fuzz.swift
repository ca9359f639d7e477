import LifeSimEngine
import LifeSimLua

/// Runs one input as hostile script text, twice: as a whole script, and as the
/// body of an app's handler (where the per-handler budget applies and host
/// code is on the stack). The limits are small so that each input ends
/// quickly. The only acceptable outcomes are a normal end and a `LuaFailure`
/// (a script error, a failed expectation, a limit reached); anything else,
/// and any signal, is a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let text = Array(UnsafeBufferPointer(start: data, count: size))
  run(text)
  run(Array(handlerPrefix.utf8) + text + Array(handlerSuffix.utf8))
  return 0
}

/// The input as a handler's body: `...` is the handler's context.
private let handlerPrefix = """
  local dev = lifesim.device{ ios = 12 }
  local app = dev:install{ bundle = "com.example.fuzz" }
  app:on("applicationDidBecomeActive:", function(...)\n
  """
private let handlerSuffix = """
  \nend)
  dev:launch(app)
  dev:advance(1)
  """

private func run(_ script: [UInt8]) {
  var options = RuntimeOptions()
  options.output = { _ in }
  options.maxInstructions = 2_000_000
  options.maxHandlerInstructions = 500_000
  options.memoryLimit = 32 << 20
  options.maxTime = 3_600
  options.maxEventsPerInstant = 1_000
  options.retainDevices = false
  do {
    let runtime = try LuaRuntime(options: options)
    try runtime.run(bytes: script, chunkName: "=input")
  } catch is LuaFailure {
  } catch {
    fatalError("not a LuaFailure: \(type(of: error)): \(error)")
  }
}

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
  _ argc: UnsafeMutablePointer<Int32>,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
  _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> Int32
) -> Int32

/// SwiftPM renames an executable's `main` to `<target>_main`; this hands the
/// command line to libFuzzer's driver.
@_cdecl("lifesim_fuzz_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
  var argc = argc
  var argv = argv
  return LLVMFuzzerRunDriver(&argc, &argv) { fuzzOneInput($0, $1) }
}
