// Writes docs/api.md, the Lua API reference, from the bridge's API rows:
//   swift run generate-api-doc -o docs/api.md
// Without -o it prints the reference.
import Foundation
import LifeSimLua

let arguments = Array(CommandLine.arguments.dropFirst())
let text = apiReferenceMarkdown()
switch arguments.count {
case 0:
  FileHandle.standardOutput.write(Data(text.utf8))
case 2 where arguments[0] == "-o":
  do {
    try Data(text.utf8).write(to: URL(fileURLWithPath: arguments[1]))
  } catch {
    FileHandle.standardError.write(Data("generate-api-doc: cannot write \(arguments[1]): \(error.localizedDescription)\n".utf8))
    exit(2)
  }
default:
  FileHandle.standardError.write(Data("usage: generate-api-doc [-o FILE]\n".utf8))
  exit(2)
}
