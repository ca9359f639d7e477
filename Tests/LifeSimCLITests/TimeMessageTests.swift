import Foundation
import Testing

/// A time that lifesim cannot take says what is wrong with it.
struct TimeMessageTests {
  @Test func timesSayWhatIsWrongWithThem() throws {
    let far = try scriptRun("far", "local dev = lifesim.device{}\ndev:at(4.6e12, function() end)\n")
    #expect(far.status == 2)
    #expect(far.stderr.contains("at most 3153600000 s (100 years) of virtual time expected, got 4600000000000"), "\(far.stderr)")
    let nan = try scriptRun("notanumber", "local dev = lifesim.device{}\ndev:at(0/0, function() end)\n")
    #expect(nan.status == 2)
    #expect(nan.stderr.contains("a number of seconds expected, got nan (not a number)"), "\(nan.stderr)")
    #expect(!nan.stderr.contains("-nan"), "\(nan.stderr)")
  }
}
