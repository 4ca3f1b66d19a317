swift run swiftdata-gen generate Sources/Trips/Schema --output .build/swiftdata-gen-preview --upgrade-tests Tests/TripsTests/Upgrade --testable-import Trips
swift test
