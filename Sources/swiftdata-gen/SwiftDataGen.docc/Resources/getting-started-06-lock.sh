swift run swiftdata-gen lock Sources/Trips/Schema
git add Sources/Trips/Schema/swiftdata-gen.lock
