// Tests that change the machine they run on (the cluster test writes
// /etc/slurm, starts daemons and ends them) run only when asked: on CI, which
// sets CI=true (.ci/run does), or with LIFESIM_SYSTEM_TESTS=1. A developer's
// `./dev.sh test` leaves their computer as it was, and says what it skipped.
import Foundation
import Testing

/// Whether the tests that change this machine may run.
public let systemTestsEnabled: Bool = {
  let env = ProcessInfo.processInfo.environment
  return env["CI"] == "true" || env["LIFESIM_SYSTEM_TESTS"] == "1"
}()

/// Why such a test was skipped, as the test report shows it.
public let systemTestsSkipMessage = "changes this machine (writes /etc/slurm, starts and ends daemons): "
  + "runs only with CI=true or LIFESIM_SYSTEM_TESTS=1"

extension Trait where Self == ConditionTrait {
  /// Runs the test only where `systemTestsEnabled`; otherwise it is skipped,
  /// and the report says why.
  public static var changesTheMachine: Self {
    .enabled(if: systemTestsEnabled, Comment(rawValue: systemTestsSkipMessage))
  }
}

/// Whether slow tests run: those that build another package (minutes on two
/// cores). On CI, with LIFESIM_SYSTEM_TESTS=1, or with LIFESIM_SLOW_TESTS=1.
public let slowTestsEnabled: Bool = systemTestsEnabled || ProcessInfo.processInfo.environment["LIFESIM_SLOW_TESTS"] == "1"

extension Trait where Self == ConditionTrait {
  /// Runs the test only where `slowTestsEnabled`; otherwise it is skipped,
  /// and the report says why.
  public static var slow: Self {
    .enabled(if: slowTestsEnabled,
             "builds another package (minutes): runs only with CI=true, LIFESIM_SYSTEM_TESTS=1 or LIFESIM_SLOW_TESTS=1")
  }
}
