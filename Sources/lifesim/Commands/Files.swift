#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every `*.lua` file at or under `path`, sorted, skipping folders named `lib`;
/// nil when the path does not exist.
func luaFiles(under path: String) -> [String]? {
  var st = stat()
  guard stat(path, &st) == 0 else { return nil }
  if (st.st_mode & S_IFMT) != S_IFDIR { return [path] }
  var out: [String] = []
  guard let dir = opendir(path) else { return [] }
  var entries: [String] = []
  while let entry = readdir(dir) {
    let name = withUnsafePointer(to: entry.pointee.d_name) {
      $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
    }
    if name.hasPrefix(".") { continue }
    entries.append(name)
  }
  closedir(dir)
  for name in entries.sorted() {
    let full = path.hasSuffix("/") ? path + name : path + "/" + name
    var s = stat()
    guard stat(full, &s) == 0 else { continue }
    if (s.st_mode & S_IFMT) == S_IFDIR {
      if name != "lib" { out += luaFiles(under: full) ?? [] }
    } else if name.hasSuffix(".lua") {
      out.append(full)
    }
  }
  return out
}

/// Writes a text file, replacing it.
/// - Throws: `CommandFailure.cannotWrite`.
func writeTextFile(_ path: String, _ text: String) throws {
  guard let f = fopen(path, "wb") else {
    throw CommandFailure.cannotWrite(path: path, reason: String(cString: strerror(errno)))
  }
  defer { fclose(f) }
  var text = text
  let ok = text.withUTF8 { fwrite($0.baseAddress, 1, $0.count, f) == $0.count }
  if !ok { throw CommandFailure.cannotWrite(path: path, reason: String(cString: strerror(errno))) }
}
