// The shared test helpers (`lifesim(_:)`, `runTool`, `script`, `repoRoot`, …),
// visible to every file of this target.
@_exported import LifeSimTestSupport
