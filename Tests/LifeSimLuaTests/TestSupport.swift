// The shared test helpers (`runScript`, `repositoryRoot`, …), visible to every
// file of this target.
@_exported import LifeSimTestSupport
