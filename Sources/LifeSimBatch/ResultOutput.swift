import Foundation

/// How every command that writes a result file opens it (`batch`, `merge`):
/// one place that takes the file's lock, so that no command writes over a
/// file another is writing, and one rule for what is replaced.
///
/// - A new file is made with `O_EXCL` and locked before anything is written,
///   so two commands that start at once cannot both take the name.
/// - A file that exists is replaced only when asked (`batch --force`, and
///   `merge`, which always replaces its output): the new file is written
///   beside it, under its *unfinished* name (`results.unfinished.csv`), while
///   the lock of the old one is held, and renamed over it only when complete.
///   Until then the old file is as it was, so a run that reads it still reads
///   the old file, and a batch that stops (Ctrl-C, a failure, a kill) leaves
///   it in place; `--resume` continues the unfinished file and then replaces
///   the old one.
/// - A symbolic link is followed: what is replaced is the file it points to,
///   and the link stays.
final class ResultOutput {
  enum Mode {
    /// A new output: refused when one exists, unless `force` (then replaced).
    case new(force: Bool)
    /// Continue the unfinished file, else the file itself, else start anew.
    case resume
    /// Always replace (`merge`), with the file written beside and renamed.
    case replace
  }

  /// The file the output is (a symbolic link followed).
  let target: String
  /// Where rows are written: `target`, or its unfinished file.
  private(set) var path = ""
  /// Whether `path` is the unfinished file, renamed over `target` by `commit`.
  private(set) var staged = false
  /// Whether `path` already held rows (a file resumed).
  private(set) var existing = false
  private let companions: [String]
  private var locks: [(path: String, lock: ResultLock)] = []
  /// Whether `target` is an empty file made only to hold its name (`merge`).
  private var placeholder = false

  /// - Parameters:
  ///   - companions: files beside a database that belong to it (`-wal`, `-shm`, `-journal`).
  ///   - notice: where to say what the user should know (stderr in the CLI).
  init(named: String, mode: Mode, companions: [String], notice: (String) -> Void) throws {
    self.companions = companions
    let target = try Self.resolve(named)
    self.target = target
    let staging = Self.unfinishedPath(of: target)
    let type = fileType(target)
    if type == S_IFDIR {
      throw BatchError("\(named) is a directory: give -o the name of a result file (lifesim does not write into or remove a directory)")
    }
    var mode = mode
    if case .resume = mode {
      if let t = fileType(staging) {
        guard t == S_IFREG else { throw BatchError("\(staging) is not a regular file: it cannot be a result file to resume") }
        if type == S_IFREG { try lock(target) }
        try lock(staging)
        path = staging
        staged = true
        existing = true
        notice("lifesim: resuming \(staging), the runs of a batch on \(target) that did not finish; "
               + "it replaces \(target) when the batch ends")
        return
      }
      if let type {
        guard type == S_IFREG else { throw BatchError("\(named) is not a regular file: it cannot be a result file to resume") }
        try lock(target)
        path = target
        staged = false
        existing = true
        return
      }
      mode = .new(force: false)
    }
    existing = false
    switch mode {
    case .replace:
      if let type {
        guard type == S_IFREG else {
          throw BatchError("\(named) is not a regular file: lifesim writes a result file beside it and renames it over it; give -o another name")
        }
        try lock(target)
      } else {
        // The name is held while the output is made, so that a batch started
        // meanwhile does not write a file the rename would then replace.
        try create(target)
        placeholder = true
      }
      try checkCompanions(of: target)
      if fileType(staging) != nil {
        throw BatchError("\(staging) holds the runs of a batch on \(target) that did not finish: "
                         + "finish it (lifesim batch … -o \(target) --resume) or delete it, then write \(target)")
      }
      try create(staging)
      path = staging
      staged = true
    case .new(let force):
      if let type {
        let regular = type == S_IFREG
        // A device or a pipe (not a regular file) is written, never removed:
        // only a text format, whose writer opens it as it is.
        guard regular || companions.isEmpty else {
          throw BatchError("\(named) is not a regular file: an SQLite result is written only where there is none, or over a regular file with --force")
        }
        guard force else {
          let unfinished = fileType(staging) == nil ? "" : " (\(staging) holds the runs of a batch that was to replace it "
            + "and did not finish: --resume continues them)"
          throw BatchError("\(named) already exists: lifesim batch does not overwrite a file; --resume continues it (if this "
                           + "experiment wrote it), --force replaces it, or give -o another name" + unfinished)
        }
        guard regular else {
          path = target
          return
        }
        try lock(target)
        try checkCompanions(of: target)
        try clearUnfinished(staging, of: target, force: true, notice: notice)
        try create(staging)
        path = staging
        staged = true
      } else {
        try clearUnfinished(staging, of: target, force: force, notice: notice)
        for suffix in companions {
          let beside = target + suffix
          guard let t = fileType(beside) else { continue }
          guard t == S_IFREG, force else {
            throw BatchError("\(beside) exists beside \(target)\(t == S_IFREG ? "" : " and is not a regular file"): "
                             + "SQLite would read it as part of the new database; "
                             + (t == S_IFREG ? "--force removes it with the old database, or give -o another name" : "give -o another name"))
          }
          unlink(beside)
        }
        try create(target)
        path = target
        staged = false
      }
    case .resume:
      fatalError("resume is handled above")
    }
  }

  /// `results.unfinished.csv` beside `results.csv`: where a replacement is
  /// written until it is complete.
  static func unfinishedPath(of target: String) -> String {
    let slash = target.lastIndex(of: "/")
    let dir = slash.map { String(target[...$0]) } ?? ""
    let name = slash.map { String(target[target.index(after: $0)...]) } ?? target
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return dir + name + ".unfinished" }
    return dir + name[..<dot] + ".unfinished" + name[dot...]
  }

  /// The file a path names: the path itself, or where its symbolic links lead.
  private static func resolve(_ named: String) throws -> String {
    guard fileType(named) == S_IFLNK else { return named }
    guard let real = realpath(named, nil) else {
      throw BatchError("\(named) is a symbolic link to a file that does not exist: give -o the path of the result file itself")
    }
    defer { free(real) }
    return String(cString: real)
  }

  /// Makes a new, empty file at `path` (refused if anything is there) and locks it.
  private func create(_ path: String) throws {
    let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
    guard fd >= 0 else {
      if errno == EEXIST {
        throw BatchError("\(path) appeared while lifesim was making it: another command is writing it; write to another file")
      }
      throw BatchError("cannot write \(path): \(String(cString: strerror(errno)))")
    }
    locks.append((path, try ResultLock(fd: fd, path: path)))
  }

  private func lock(_ path: String) throws {
    locks.append((path, try ResultLock(path)))
  }

  /// Refuses a file beside a database that is not a regular file: removing it
  /// with the database is not lifesim's to do.
  private func checkCompanions(of target: String) throws {
    for suffix in companions {
      guard let t = fileType(target + suffix), t != S_IFREG else { continue }
      throw BatchError("\(target + suffix) exists beside \(target) and is not a regular file: give -o another name")
    }
  }

  /// An unfinished file left beside `target` by a batch that stopped: kept
  /// (its runs are resumable) unless `force` starts again, and removed only
  /// when it is a lifesim result file no one is writing.
  private func clearUnfinished(_ staging: String, of target: String, force: Bool, notice: (String) -> Void) throws {
    guard let t = fileType(staging) else { return }
    guard t == S_IFREG else {
      throw BatchError("\(staging) exists and is not a regular file: lifesim writes a new \(target) there "
                       + "before it replaces the old one; move it away or give -o another name")
    }
    let held = try ResultLock(staging)
    defer { held.release() }
    guard force else {
      throw BatchError("\(staging) holds the runs of a batch on \(target) that did not finish: --resume continues it "
                       + "(and then replaces \(target)), --force starts again and removes it, or give -o another name")
    }
    guard isLifesimResult(staging) else {
      throw BatchError("\(staging) exists and is not a lifesim result file: lifesim writes a new \(target) there "
                       + "before it replaces the old one; move it away or give -o another name")
    }
    notice("lifesim: removing \(staging), the runs of an earlier batch on \(target) that did not finish (--force starts again)")
    for suffix in [""] + companions where fileType(staging + suffix) == S_IFREG { unlink(staging + suffix) }
  }

  /// Whether a file is one lifesim wrote (a header it reads), or empty.
  private func isLifesimResult(_ path: String) -> Bool {
    var st = stat()
    if stat(path, &st) == 0, st.st_size == 0 { return true }
    return (try? openResults(path))?.header != nil
  }

  /// The output is complete: the unfinished file replaces the target (with
  /// the old database's files beside it, which belong to it), then the locks go.
  func commit() throws {
    defer { release() }
    guard staged else { return }
    for suffix in companions where fileType(target + suffix) == S_IFREG { unlink(target + suffix) }
    guard rename(path, target) == 0 else {
      throw BatchError("cannot replace \(target) with \(path): \(String(cString: strerror(errno))); the new results stay in \(path)")
    }
    placeholder = false
  }

  /// The output is abandoned: what this command made goes (the unfinished
  /// file, the name it held), the target stays as it was.
  func discard() {
    if staged {
      for suffix in [""] + companions where fileType(path + suffix) == S_IFREG { unlink(path + suffix) }
    }
    if placeholder {
      var st = stat()
      if stat(target, &st) == 0, st.st_size == 0 { unlink(target) }
      placeholder = false
    }
    release()
  }

  /// Lets the files go as they are (a batch that stops keeps its rows).
  func release() {
    for l in locks { l.lock.release() }
    locks.removeAll()
  }

  /// Replaces `path` by a file made beside it (`make` writes it), keeping
  /// the output locked throughout: the new file is locked before it takes
  /// the name.
  func replaceContents(_ make: (String) throws -> Void) throws {
    let slash = path.lastIndex(of: "/")
    let dir = slash.map { String(path[...$0]) } ?? ""
    let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
    let temporary = dir + "." + name + ".lifesim-\(getpid())"
    let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
    guard fd >= 0 else { throw BatchError("cannot write \(temporary): \(String(cString: strerror(errno)))") }
    let lock = try ResultLock(fd: fd, path: temporary)
    do {
      try make(temporary)
      guard rename(temporary, path) == 0 else {
        throw BatchError("cannot write \(path): \(String(cString: strerror(errno)))")
      }
    } catch {
      unlink(temporary)
      lock.release()
      throw error
    }
    if let i = locks.firstIndex(where: { $0.path == path }) {
      locks[i].lock.release()
      locks[i] = (path, lock)
    } else {
      locks.append((path, lock))
    }
  }

  deinit { release() }
}
