swift run swiftdata-gen new-version Sources/Trips/Schema 2.0.0
