// Where the repository is, for tests that read its files.
import Foundation

/// The repository's folder, found from this file's path.
public let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()


/// The same folder, by the name the command-line tests use.
public let repoRoot = repositoryRoot
