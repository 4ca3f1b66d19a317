swift run swiftdata-gen plan Sources/Trips/Schema
