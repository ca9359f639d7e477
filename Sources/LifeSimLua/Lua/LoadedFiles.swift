import LifeSimPlatform

/// A file a script read besides itself: a module (`require`) or a data file
/// (`lifesim.workload.read_csv`). What a run gives depends on them as it does
/// on the script, so `lifesim batch` records them in a result file's header
/// and the REPL's `:save` refuses to write over one.
public struct LoadedFile: Sendable, Hashable {
  public enum Kind: String, Sendable, Hashable {
    case module, data
  }

  public var kind: Kind
  /// The name the script gave: `"lib.util"` for a module, `"usage.csv"` for data.
  public var name: String
  /// The path it was read from.
  public var path: String
  /// The digest of its bytes (`RuntimeOptions.fileDigest`), or nil without one.
  public var digest: String?

  public init(kind: Kind, name: String, path: String, digest: String?) {
    self.kind = kind
    self.name = name
    self.path = path
    self.digest = digest
  }
}

extension LuaRuntime {
  /// Notes a file the script read, once per (kind, name, path, digest): a
  /// module read again in every run is one entry.
  func noteLoaded(_ kind: LoadedFile.Kind, name: String, path: String, bytes: [UInt8]) {
    let file = LoadedFile(kind: kind, name: name, path: path, digest: options.fileDigest?(bytes))
    guard loadedFileSet.insert(file).inserted else { return }
    loadedFiles.append(file)
  }

  /// The files read since the last call, in the order first read, and forgets them.
  public func takeLoadedFiles() -> [LoadedFile] {
    defer {
      loadedFiles.removeAll()
      loadedFileSet.removeAll()
    }
    return loadedFiles
  }

  /// The path `require(name)` or `read_csv(name)` would read now, or nil when
  /// there is none (a name the script could not give, a file gone).
  public func currentPath(of kind: LoadedFile.Kind, name: String) -> String? {
    switch kind {
    case .module:
      guard case .found(let path) = findModule(name) else { return nil }
      return path
    case .data:
      let path = dataPath(name)
      var st = stat()
      return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG ? path : nil
    }
  }
}
