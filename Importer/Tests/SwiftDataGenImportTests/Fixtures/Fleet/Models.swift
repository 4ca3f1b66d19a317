import Foundation
import SwiftData

// An app that never versioned: twelve plain @Model classes, uniqueness and indexes by macro.

@Model
final class Company {
    #Unique<Company>([\.registrationNumber])
    @Attribute(.spotlight) var name: String
    var registrationNumber: String
    var founded: Date?
    @Relationship(deleteRule: .cascade, inverse: \Depot.company) var depots: [Depot] = []
    @Relationship(deleteRule: .cascade, inverse: \Driver.employer) var drivers: [Driver] = []

    init(name: String, registrationNumber: String) {
        self.name = name
        self.registrationNumber = registrationNumber
    }
}

@Model
final class Address {
    var street: String
    var city: String
    var postalCode: String?
    var latitude: Double = 0
    var longitude: Double = 0

    init(street: String, city: String) {
        self.street = street
        self.city = city
    }
}

@Model
final class Depot {
    var name: String
    var capacity: Int16 = 20
    var address: Address?
    var company: Company?
    @Relationship(inverse: \Vehicle.depot) var vehicles: [Vehicle] = []

    init(name: String) {
        self.name = name
    }
}

@Model
final class Vehicle {
    #Unique<Vehicle>([\.vin], [\.plate, \.country])
    #Index<Vehicle>([\.plate])
    var vin: String
    var plate: String
    var country: String = "NO"
    var modelYear: Int
    var odometer: Double = 0
    var isElectric: Bool = false
    var photo: Data?
    var depot: Depot?
    @Relationship(deleteRule: .cascade, inverse: \ServiceRecord.vehicle) var serviceRecords: [ServiceRecord] = []
    @Relationship(deleteRule: .cascade, inverse: \FuelLog.vehicle) var fuelLogs: [FuelLog] = []
    @Relationship(inverse: \Trip.vehicle) var trips: [Trip] = []

    init(vin: String, plate: String, modelYear: Int) {
        self.vin = vin
        self.plate = plate
        self.modelYear = modelYear
    }
}

@Model
final class Driver {
    @Attribute(.unique) var employeeID: UUID
    var name: String
    var licenseClasses: [String] = []
    var employer: Company?
    @Relationship(inverse: \Trip.driver) var trips: [Trip] = []
    @Transient var isOnShift: Bool = false

    init(employeeID: UUID, name: String) {
        self.employeeID = employeeID
        self.name = name
    }
}

@Model
final class Route {
    var code: String
    var summary: String?
    var distanceKilometres: Float = 0
    @Relationship(deleteRule: .cascade, inverse: \Stop.route) var stops: [Stop] = []
    @Relationship(inverse: \Trip.route) var trips: [Trip] = []

    init(code: String) {
        self.code = code
    }
}

@Model
final class Stop {
    var order: Int
    var name: String
    var address: Address?
    var route: Route?

    init(order: Int, name: String) {
        self.order = order
        self.name = name
    }
}

@Model
final class Trip {
    var startedAt: Date
    var endedAt: Date?
    var notes: String = ""
    var vehicle: Vehicle?
    var driver: Driver?
    var route: Route?

    init(startedAt: Date) {
        self.startedAt = startedAt
    }
}

@Model
final class FuelLog {
    var date: Date
    var litres: Decimal
    var pricePerLitre: Decimal
    var vehicle: Vehicle?

    init(date: Date, litres: Decimal, pricePerLitre: Decimal) {
        self.date = date
        self.litres = litres
        self.pricePerLitre = pricePerLitre
    }
}

@Model
final class ServiceRecord {
    var performedAt: Date
    var workshop: String
    var invoice: URL?
    var vehicle: Vehicle?
    @Relationship(deleteRule: .cascade, inverse: \Part.serviceRecord) var parts: [Part] = []
    @Relationship(deleteRule: .cascade, inverse: \Inspection.serviceRecord) var inspection: Inspection?

    init(performedAt: Date, workshop: String) {
        self.performedAt = performedAt
        self.workshop = workshop
    }
}

@Model
final class Part {
    var number: String
    var quantity: Int = 1
    var unitPrice: Decimal = 0
    var serviceRecord: ServiceRecord?

    init(number: String) {
        self.number = number
    }
}

@Model
final class Inspection {
    var passed: Bool
    var remarks: String?
    var inspectorLicence: String
    var serviceRecord: ServiceRecord?

    init(passed: Bool, inspectorLicence: String) {
        self.passed = passed
        self.inspectorLicence = inspectorLicence
    }
}
