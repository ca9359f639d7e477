import LifeSimPlatform

/// Every `*.lua` file at or under `path`, sorted, skipping folders named `lib`;
/// nil when the path does not exist. A symbolic link to a folder inside the
/// tree is not followed (a link to a parent would make the walk endless); a
/// link to a file is. `path` itself is followed: the user named it.
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
    var link = stat(), s = stat()
    guard lstat(full, &link) == 0, stat(full, &s) == 0 else { continue }
    let isLink = (link.st_mode & S_IFMT) == S_IFLNK
    if (s.st_mode & S_IFMT) == S_IFDIR {
      if isLink {
        printError("lifesim test: not following \(full), a symbolic link to a folder (name the folder itself to test it)")
        continue
      }
      if name != "lib" { out += luaFiles(under: full) ?? [] }
    } else if name.hasSuffix(".lua") {
      // A FIFO or a device would block the reader (or never end): only regular files are scripts.
      guard (s.st_mode & S_IFMT) == S_IFREG else {
        printError("lifesim test: not reading \(full), which is not a regular file")
        continue
      }
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
  var text = text
  let wrote = text.withUTF8 { fwrite($0.baseAddress, 1, $0.count, f) == $0.count }
  let wroteErrno = errno
  // The bytes reach the file at fflush or fclose; either can fail (a full disk).
  let flushed = fflush(f) == 0
  let flushErrno = errno
  let closed = fclose(f) == 0
  guard wrote, flushed, closed else {
    let code = !wrote ? wroteErrno : !flushed ? flushErrno : errno
    throw CommandFailure.cannotWrite(path: path, reason: String(cString: strerror(code)))
  }
}
