// Writes docs/api.md, the Lua API reference, from the bridge's API rows, and
// the enumerations of the JSONL schema from the engine's tables:
//   swift run generate-api-doc -o docs/api.md --schema docs/trace.schema.json
// Without -o it prints the reference; --schema FILE rewrites only the
// enumerations' lists in FILE.
import Foundation
import LifeSimEngine
import LifeSimLua

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("generate-api-doc: \(message)\n".utf8))
  exit(2)
}

var output: String?
var schema: String?
var arguments = Array(CommandLine.arguments.dropFirst())[...]
while let flag = arguments.popFirst() {
  guard flag == "-o" || flag == "--schema", let path = arguments.popFirst() else {
    FileHandle.standardError.write(Data("usage: generate-api-doc [-o FILE] [--schema FILE]\n".utf8))
    exit(2)
  }
  if flag == "-o" { output = path } else { schema = path }
}

func write(_ text: String, to path: String) {
  do {
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
  } catch {
    fail("cannot write \(path): \(error.localizedDescription)")
  }
}

if let schema {
  guard let data = FileManager.default.contents(atPath: schema) else { fail("cannot read \(schema)") }
  do {
    write(try TraceSchema.updating(String(decoding: data, as: UTF8.self)), to: schema)
  } catch {
    fail("\(schema): \(error)")
  }
}
let text = apiReferenceMarkdown()
if let output {
  write(text, to: output)
} else if schema == nil {
  FileHandle.standardOutput.write(Data(text.utf8))
}
