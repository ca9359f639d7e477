import ArgumentParser
import LifeSimBatch
import LifeSimEngine
import LifeSimLua

/// How a command ends when it does not succeed, beyond the errors the layers
/// below throw (`LuaFailure`, `BatchError`, `SimulationError`).
enum CommandFailure: Error {
  /// A script failed; `context` says which run ("iOS 12" in compare).
  case script(LuaFailure, context: String)
  /// A file or folder named on the command line does not exist.
  case noSuchPath(String)
  /// A file could not be written.
  case cannotWrite(path: String, reason: String)
  /// Runs of a batch failed; each is recorded in the result file with its error.
  case runsFailed(failed: Int, ran: Int, first: String)
  /// An input file holds what the command cannot read: a data error, whose
  /// message says what is wrong with the file (no usage follows it).
  case badInput(String)
}

/// What the user sees and the exit status for anything a command throws: the
/// one place the CLI words errors, as swift-argument-parser's
/// `MessageInfo` does for its own. Status 1 is a failed expectation (or failed
/// runs), 2 a script, usage or I/O error. A nil message means the command
/// printed what there was to say.
func failureReport(for error: Error) -> (message: String?, status: Int32)? {
  switch error {
  case let code as ExitCode:
    return (nil, code.rawValue)
  case let f as LuaFailure:
    return ("lifesim: \(f.report)", f.isExpectation ? 1 : 2)
  case let e as BatchError:
    return ("lifesim: \(e)", 2)
  case let e as SimulationError:
    return ("lifesim: \(e)", 2)
  case let failure as CommandFailure:
    switch failure {
    case .script(let f, let context):
      return ("lifesim: \(context): \(f.report)", f.isExpectation ? 1 : 2)
    case .noSuchPath(let path):
      return ("lifesim: no such file or folder: \(path)", 2)
    case .cannotWrite(let path, let reason):
      return ("lifesim: cannot write \(path): \(reason)", 2)
    case .runsFailed(let failed, let ran, let first):
      return ("lifesim: \(failed) of \(ran) runs failed; first: \(first)", 1)
    case .badInput(let message):
      return ("lifesim: \(message)", 2)
    }
  default:
    return nil  // swift-argument-parser's own errors: usage, help, version
  }
}
