import XCTest
@testable import VeilKit

final class SubjectsTests: XCTestCase {}
