@testable import LifeSimEngine

extension ViewControllerFacts {
  /// The facts a view controller rule reads on an iOS version, with the
  /// default policy and the callbacks `implemented` (none by default): what
  /// the reduce tests give `ViewHierarchy.reduce` with no device.
  static func ios(_ version: Int, implemented: CallbackSet = CallbackSet()) throws -> ViewControllerFacts {
    let profile = try OSProfile(version: version)
    return ViewControllerFacts(profile: profile, policy: Policy(profile: profile), implemented: implemented)
  }
}
