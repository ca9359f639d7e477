import LifeSimEngine
import LifeSimLua

/// Runs one input as a script under tight limits. Any outcome but a crash is fine:
/// success, a failed expectation, or a `LuaFailure`. Anything else is a bug.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  var options = RuntimeOptions()
  options.output = { _ in }
  options.maxInstructions = 2_000_000
  options.maxHandlerInstructions = 500_000
  options.memoryLimit = 32 << 20
  options.maxTime = 86_400
  options.retainDevices = false
  do {
    let runtime = try LuaRuntime(options: options)
    try runtime.run(bytes: Array(UnsafeBufferPointer(start: data, count: size)), chunkName: "=input")
  } catch is LuaFailure {
  } catch {
    fatalError("not a LuaFailure: \(type(of: error)): \(error)")
  }
  return 0
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
