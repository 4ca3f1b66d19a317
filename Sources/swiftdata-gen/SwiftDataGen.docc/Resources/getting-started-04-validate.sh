swift run swiftdata-gen validate Sources/Trips/Schema
