import ArgumentParser

import LifeSimPlatform

/// Whether two paths name the same existing file: the same device and inode,
/// so that `./s.lua`, `s.lua`, a symbolic link to it and a hard link all match.
func sameFile(_ a: String, _ b: String) -> Bool {
  var sa = stat(), sb = stat()
  guard stat(a, &sa) == 0, stat(b, &sb) == 0 else { return false }
  return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino
}

/// The folder a path's file is in: `.` for a bare name, `/` at the root.
func folder(of path: String) -> String {
  let slash = path.lastIndex(of: "/")
  return slash.map { path[..<$0].isEmpty ? "/" : String(path[..<$0]) } ?? "."
}

/// Why a file cannot be written at `path`, found before any work: it is a
/// folder, or its folder does not exist. Nil when it looks writable (a full
/// disk still shows only when the file is written).
func unwritableReason(_ path: String) -> String? {
  var st = stat()
  if stat(path, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR { return "it is a folder" }
  let dir = folder(of: path)
  guard stat(dir, &st) == 0 else { return "no folder \(dir)" }
  return (st.st_mode & S_IFMT) == S_IFDIR ? nil : "\(dir) is not a folder"
}

/// The path with its folder's symbolic links and `.`/`..` resolved, for a
/// file that may not exist yet (then its folder is resolved and its name kept).
func resolvedPath(_ path: String) -> String {
  if let r = realpath(path, nil) {
    defer { free(r) }
    return String(cString: r)
  }
  let name = path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
  guard let r = realpath(folder(of: path), nil) else { return path }
  defer { free(r) }
  let base = String(cString: r)
  return (base.hasSuffix("/") ? base : base + "/") + name
}

/// Whether two paths name the same file, existing or about to be written.
func samePath(_ a: String, _ b: String) -> Bool {
  a == b || sameFile(a, b) || resolvedPath(a) == resolvedPath(b)
}

/// Refuses an output that would replace one of the command's inputs (or
/// another output of the same command): a command writes only the files the
/// user named for its output, and never over what it reads.
/// - Parameters:
///   - outputs: each output's option and path (nil when not given).
///   - inputs: each input's description ("the script") and path.
/// - Throws: `ValidationError`, a usage error (exit 2).
func refuseOutputOverInput(outputs: [(String, String?)], inputs: [(String, String)]) throws {
  let given: [(option: String, path: String)] = outputs.compactMap { o in o.1.map { (o.0, $0) } }
  for (i, out) in given.enumerated() {
    for (what, path) in inputs where samePath(out.path, path) {
      throw ValidationError("\(out.option) \(out.path) is \(what) \(path): lifesim does not write over its input; choose another file")
    }
    for other in given[..<i] where samePath(out.path, other.path) {
      throw ValidationError("\(other.option) and \(out.option) name the same file, \(out.path); give each its own")
    }
  }
}
